import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

@Suite struct CanonicalJSONTests {
    private func roundTrip(
        _ value: AttributeValue, _ type: AttributeType,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = try value.canonicalJSON(as: type)
        let back = try AttributeValue(canonicalJSON: text, as: type)
        #expect(
            back == value, "\(type.rawValue) \(value) → \(text)", sourceLocation: sourceLocation)
        let bytes = Array(text.utf8)
        #expect(
            !bytes.contains { $0 < 0x20 }, "raw control byte in \(text)",
            sourceLocation: sourceLocation)
        #expect(
            !text.contains("\u{2028}") && !text.contains("\u{2029}"), sourceLocation: sourceLocation
        )
        let strict = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        #expect(
            strict is NSNull || strict is NSNumber || strict is String,
            sourceLocation: sourceLocation)
    }

    @Test func integersRoundTripAtTheLimitsOfEachWidth() throws {
        for (type, range) in [
            (AttributeType.integer16, Int64(Int16.min)...Int64(Int16.max)),
            (.integer32, Int64(Int32.min)...Int64(Int32.max)), (.integer64, Int64.min...Int64.max),
        ] {
            for v in [range.lowerBound, range.upperBound, 0, -1, 1] {
                try roundTrip(.integer(v), type)
            }
        }
        #expect(try AttributeValue.integer(-42).canonicalJSON(as: .integer32) == "-42")
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue.integer(70000).canonicalJSON(as: .integer16)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "70000", as: .integer16)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "9223372036854775808", as: .integer64)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "1.5", as: .integer64)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "012", as: .integer64)
        }
    }

    @Test func decimalsKeepEveryDigit() throws {
        let posix = Locale(identifier: "en_US_POSIX")
        for text in [
            "0", "0.1", "-12.5", "100000", "523.17", "0.000001",
            "12345678901234567890123456789012345678",
            "-340282366920938463463374607431768211455", "1e-120",
            "99999999999999999999999999999999999999e50",
        ] {
            try roundTrip(.decimal(Decimal(string: text, locale: posix)!), .decimal)
        }
        try roundTrip(.decimal(.nan), .decimal)
        #expect(DecimalText.usesLayout, "the fast Decimal path should be in use on this toolchain")
        #expect(
            try AttributeValue.decimal(Decimal(string: "12.50", locale: posix)!).canonicalJSON(
                as: .decimal) == "\"12.5\"")
        #expect(
            try AttributeValue.decimal(Decimal(150) / Decimal(100)).canonicalJSON(as: .decimal)
                == "\"1.5\"")
        #expect(try AttributeValue(canonicalJSON: "\"1.5e3\"", as: .decimal) == .decimal(1500))
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "\"12abc\"", as: .decimal)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "12.5", as: .decimal)
        }
    }

    @Test func randomDecimalsRoundTripAndMatchFoundation() throws {
        var random = SeededRandomNumberGenerator(seed: 42)
        for _ in 0..<500 {
            let digits = Int.random(in: 1...38, using: &random)
            var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &random)) }
                .joined()
            let point = Int.random(in: 0...digits, using: &random)
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if text.hasPrefix(".") { text = "0" + text }
            if Bool.random(using: &random) { text = "-" + text }
            let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
            #expect(DecimalText.text(d) == d.description, "\(text)")
            try roundTrip(.decimal(d), .decimal)
        }
    }

    @Test func doublesKeepTheirBitPatterns() throws {
        let specials: [Double] = [
            .nan, -.nan, Double(bitPattern: 0x7FF8_0000_0000_0001),
            Double(bitPattern: 0xFFF0_0000_0000_0DEF),
            .signalingNaN, .infinity, -.infinity, -0.0, 0, .greatestFiniteMagnitude,
            .leastNonzeroMagnitude, -.leastNormalMagnitude, 0.1, 1e16, 1e-5, 1681234567.1234567,
        ]
        for v in specials { try roundTrip(.double(v), .double) }
        #expect(try AttributeValue.double(-0.0).canonicalJSON(as: .double) == "-0.0")
        #expect(try AttributeValue.double(.nan).canonicalJSON(as: .double) == "\"NaN\"")
        #expect(try AttributeValue.double(-.infinity).canonicalJSON(as: .double) == "\"-Infinity\"")
        #expect(
            try AttributeValue.double(Double(bitPattern: 0x7FF8_0000_0000_0001)).canonicalJSON(
                as: .double)
                == "\"NaN:0x7ff8000000000001\"")
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "1e400", as: .double)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "\"NaN:0x0000000000000001\"", as: .double)
        }
        var random = SeededRandomNumberGenerator(seed: 1)
        for _ in 0..<5000 { try roundTrip(.double(Double(bitPattern: random.next())), .double) }
        for _ in 0..<2000 {
            try roundTrip(.double(Double.random(in: -1e6...1e6, using: &random)), .double)
        }
    }

    @Test func numberParsingRoundsLikeStrtodForLongMantissas() throws {
        var random = SeededRandomNumberGenerator(seed: 9)
        for _ in 0..<20000 {
            let digits = Int.random(in: 15...19, using: &random)
            var text = String(UInt64.random(in: 1...UInt64.max, using: &random))
            text = String(text.prefix(digits))
            let point = Int.random(in: 0...text.count, using: &random)
            if point < text.count {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            }
            if text.hasPrefix(".") { text = "0" + text }
            if Bool.random(using: &random) { text += "e\(Int.random(in: -8...8, using: &random))" }
            let parsed = try AttributeValue(canonicalJSON: text, as: .double)
            #expect(parsed == .double(Double(text)!), "\(text)")
        }
        // Halfway cases: 2^53 + 1 rounds to even, 2^53 + 3 rounds up.
        #expect(
            try AttributeValue(canonicalJSON: "9007199254740993", as: .double)
                == .double(9_007_199_254_740_992))
        #expect(
            try AttributeValue(canonicalJSON: "9007199254740995", as: .double)
                == .double(9_007_199_254_740_996))
        #expect(
            try AttributeValue(canonicalJSON: "9007199254740993.0000000001", as: .double)
                == .double(9_007_199_254_740_994))
    }

    @Test func floatsKeepTheirBitPatterns() throws {
        let specials: [Float] = [
            .nan, -.nan, Float(bitPattern: 0x7FC0_0001), .infinity, -.infinity, -0.0,
            .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.1, Float(16_777_216).nextUp,
            .leastNormalMagnitude / 3,
        ]
        for v in specials { try roundTrip(.float(v), .float) }
        #expect(try AttributeValue.float(0.1).canonicalJSON(as: .float) == "0.1")
        #expect(
            try AttributeValue.float(Float(bitPattern: 0xFFC0_0001)).canonicalJSON(as: .float)
                == "\"NaN:0xffc00001\"")
        var random = SeededRandomNumberGenerator(seed: 2)
        for _ in 0..<5000 {
            try roundTrip(
                .float(Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))), .float)
        }
    }

    @Test func stringsThatBreakLineFramingRoundTripEscaped() throws {
        let controls = String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) })
        for s in [
            "", "a\nb", "\r\n", "\u{2028}", "\u{2029}x\u{2028}", "\u{0}x", "é", "e\u{301}", "😀👩‍👩‍👧",
            "quote \" backslash \\ slash /", "\u{7F}", controls, "\u{E2}", "€ ₂ \u{E000}",
        ] {
            try roundTrip(.string(s), .string)
        }
        #expect(
            try AttributeValue.string("a\nb\u{2028}\u{0}\"").canonicalJSON(as: .string)
                == #""a\nb\u2028\u0000\"""#)
        let big = String(repeating: "abc\n\u{2028}é😀", count: 1 << 20 / 12)
        try roundTrip(.string(big), .string)
        #expect(
            try AttributeValue(canonicalJSON: #""\ud83d\ude00\/""#, as: .string) == .string("😀/"))
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: #""\ud83d""#, as: .string)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "\"a\nb\"", as: .string)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "\"a\\qb\"", as: .string)
        }
        var random = SeededRandomNumberGenerator(seed: 3)
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...40, using: &random)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random))
            }
            try roundTrip(.string(String(String.UnicodeScalarView(scalars))), .string)
        }
    }

    @Test func otherTypesRoundTrip() throws {
        try roundTrip(.boolean(true), .boolean)
        try roundTrip(.boolean(false), .boolean)
        for t in [
            0, -1e10, 1681234567.1234567, .nan, .infinity, Date.distantPast.timeIntervalSince1970,
            -0.0,
        ] {
            try roundTrip(.date(Date(timeIntervalSince1970: t)), .date)
        }
        var random = SeededRandomNumberGenerator(seed: 4)
        for n in [0, 1, 2, 3, 100] {
            let bytes = Data((0..<n).map { _ in UInt8.random(in: 0...255, using: &random) })
            try roundTrip(.data(bytes), .binaryData)
            try roundTrip(.transformable(bytes), .transformable)
        }
        let uuid = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
        try roundTrip(.uuid(uuid), .uuid)
        #expect(
            try AttributeValue.uuid(uuid).canonicalJSON(as: .uuid)
                == "\"3F2504E0-4F89-11D3-9A0C-0305E82C3301\"")
        #expect(
            try AttributeValue(canonicalJSON: "\"3f2504e0-4f89-11d3-9a0c-0305e82c3301\"", as: .uuid)
                == .uuid(uuid))
        for _ in 0..<100 { try roundTrip(.uuid(UUID(uuid: randomUUIDBytes(&random))), .uuid) }
        for url in [
            "https://example.com/a%20b?q=1#f", "file:///tmp/x%0Ay", "x-coredata://S/E/p1",
            "mailto:a@b.c",
        ] {
            try roundTrip(.uri(URL(string: url)!), .uri)
        }
        for type in AttributeType.allCases where type != .undefined { try roundTrip(.null, type) }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue.string("x").canonicalJSON(as: .integer64)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "\"not-a-uuid\"", as: .uuid)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "\"@@@\"", as: .binaryData)
        }
        #expect(throws: ObjectGraphError.self) {
            try AttributeValue(canonicalJSON: "true x", as: .boolean)
        }
    }

    private func randomUUIDBytes(_ random: inout SeededRandomNumberGenerator) -> uuid_t {
        let a = random.next()
        let b = random.next()
        return withUnsafeBytes(of: (a, b)) { $0.load(as: uuid_t.self) }
    }
}
