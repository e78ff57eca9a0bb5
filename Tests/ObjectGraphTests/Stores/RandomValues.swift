import Foundation
import ObjectGraphTesting

@testable import ObjectGraph

/// Random attribute values of every type, for round-trip property tests: floating-point
/// values from random bit patterns (NaN payloads, infinities, subnormals, −0 included),
/// integers over their whole width, strings over every Unicode plane.
enum RandomValues {
    /// A random value of `type` (`null` one time in ten).
    static func value(_ type: AttributeType, _ random: inout SeededRandomNumberGenerator)
        -> AttributeValue
    {
        if random.next() % 10 == 0 { return .null }
        switch type {
        case .integer16: return .integer(Int64(Int16(truncatingIfNeeded: random.next())))
        case .integer32: return .integer(Int64(Int32(truncatingIfNeeded: random.next())))
        case .integer64: return .integer(Int64(bitPattern: random.next()))
        case .decimal: return .decimal(decimal(&random))
        case .double: return .double(Double(bitPattern: random.next()))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: random.next())))
        case .string: return .string(string(&random))
        case .boolean: return .boolean(random.next() % 2 == 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: date(&random)))
        case .binaryData: return .data(bytes(&random))
        case .uuid:
            let b = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return .uuid(
                UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
                        b[12], b[13], b[14], b[15]
                    )))
        case .uri: return .uri(uri(&random))
        case .transformable: return .transformable(bytes(&random))
        case .undefined, .objectID: return .null
        }
    }

    /// The `k`-th extreme of `type` (k = 0…3): the smallest and largest values, zeros of both
    /// signs, NaN payloads, the largest and smallest magnitudes.
    static func extreme(_ type: AttributeType, _ k: Int) -> AttributeValue {
        switch type {
        case .integer16: return .integer([Int64(Int16.min), Int64(Int16.max), 0, -1][k])
        case .integer32: return .integer([Int64(Int32.min), Int64(Int32.max), 0, -1][k])
        case .integer64: return .integer([Int64.min, Int64.max, 0, -1][k])
        case .decimal:
            return .decimal(
                [
                    Decimal(string: "-99999999999999999999999999999999999999")!,
                    Decimal(string: "0.00000000000000000000000000000000000001")!, Decimal(0),
                    Decimal(string: "12345678901234567890.123456789012345678")!,
                ][k])
        case .double:
            return .double(
                [
                    -0.0, .greatestFiniteMagnitude, Double(bitPattern: 0x7FF0_0000_0000_0001),
                    .leastNonzeroMagnitude,
                ][k])
        case .float:
            return .float(
                [
                    -0.0, .greatestFiniteMagnitude, Float(bitPattern: 0xFFC0_0001),
                    .leastNonzeroMagnitude,
                ][k])
        case .date:
            return .date(
                Date(
                    timeIntervalSinceReferenceDate: [
                        646_790_399.999, -0.0, Double(bitPattern: 0xFFF8_0000_0000_0002),
                        -978_307_200.000_000_1,
                    ][k]))
        case .string:
            return .string(
                [
                    "", "\u{0}\n\r\t\u{1F}\u{7F}\u{2028}\u{2029}\"\\", "\u{10FFFF}\u{FEFF}",
                    "é e\u{301}",
                ][k])
        case .boolean: return .boolean(k % 2 == 0)
        case .binaryData, .transformable:
            let data = [Data(), Data([0]), Data(repeating: 0xFF, count: 3), Data([0x0A, 0x22])][k]
            return type == .binaryData ? .data(data) : .transformable(data)
        case .uuid:
            return .uuid(
                [
                    UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                    UUID(
                        uuid: (
                            255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                            255, 255
                        )), UUID(uuidString: "6B0F5C2E-9D41-4C59-9E4B-2D1F0A7C3E58")!, UUID(),
                ][k])
        case .uri:
            return .uri(
                URL(
                    string: [
                        "x-coredata://6B0F5C2E/Category/p1", "file:///tmp/a%20b?q=%E2%80%A8#f",
                        "mailto:someone@example.com", "https://例え.jp/パス?α=β",
                    ][k])!)
        case .undefined, .objectID: return .null
        }
    }

    private static func decimal(_ random: inout SeededRandomNumberGenerator) -> Decimal {
        let digits = 1 + Int(random.next() % 38)
        var text = random.next() % 2 == 0 ? "-" : ""
        for i in 0..<digits {
            text.append(Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(random.next() % 10))))
            if i == 0, random.next() % 3 == 0, digits > 1 { text.append(".") }
        }
        let exponent = Int(random.next() % 60) - 30
        return Decimal(string: text + "e\(exponent)") ?? Decimal(0)
    }

    private static func date(_ random: inout SeededRandomNumberGenerator) -> Double {
        switch random.next() % 3 {
        case 0: return Double(bitPattern: random.next())  // anything, NaN payloads included
        case 1:  // near now, with a fraction
            return Double(Int64(random.next() % 2_000_000_000)) - 1e9
                + Double(random.next() % 1000) / 1000
        default: return Double(Int64(bitPattern: random.next()) >> 20) / 1e3
        }
    }

    private static func string(_ random: inout SeededRandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(random.next() % 24) {
            // Each plane in turn, 0…16, and the controls and separators of plane 0.
            let plane = UInt32(random.next() % 18)
            var value =
                plane == 17
                ? [0, 0x0A, 0x1F, 0x22, 0x5C, 0x7F, 0x2028, 0x2029][Int(random.next() % 8)]
                : plane << 16 | UInt32(random.next() % 0x10000)
            if (0xD800...0xDFFF).contains(value) { value = 0xFFFD }
            scalars.append(Unicode.Scalar(value) ?? "?")
        }
        return String(scalars)
    }

    private static func bytes(_ random: inout SeededRandomNumberGenerator) -> Data {
        Data((0..<Int(random.next() % 48)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    private static func uri(_ random: inout SeededRandomNumberGenerator) -> URL {
        let allowed = Array("abcXYZ019-._~%20/?=&#:@!$'()*+,;")
        let path = String(
            (0..<Int(random.next() % 30)).map { _ in
                allowed[Int(random.next() % UInt64(allowed.count))]
            })
        let scheme = ["https://example.com/", "file:///", "x-app:"][Int(random.next() % 3)]
        return URL(string: scheme + path) ?? URL(string: scheme)!
    }
}
