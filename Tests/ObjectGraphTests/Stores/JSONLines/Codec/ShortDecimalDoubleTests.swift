import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Doubles read by the short-decimal shortcut (`JSONScanner.readDouble()`: at most 16 digits,
/// no exponent, sixteen bytes at once) read bit for bit as the general path reads them
/// (`readNumber()` then `double(_:)`), stop at the same byte, and fail with the same offset and
/// message.
@Suite struct ShortDecimalDoubleTests {
    /// What a read gave: the double's bits and where the scanner stopped, or the error.
    private enum Outcome: Equatable {
        case value(bits: UInt64, position: Int)
        case failure(offset: Int, message: String)
    }

    /// Reads `text` with `read`, from its start.
    private static func outcome(
        _ text: String, _ read: (inout JSONScanner) throws -> Double
    ) -> Outcome {
        var text = text
        return text.withUTF8 { utf8 in
            var s = JSONScanner(UnsafeRawBufferPointer(utf8))
            do {
                let v = try read(&s)
                return .value(bits: v.bitPattern, position: s.position)
            } catch let e as JSONScanError {
                return .failure(offset: e.offset, message: e.message)
            } catch {
                return .failure(offset: -1, message: "\(error)")
            }
        }
    }

    /// `text` read by the reader's `readDouble()` and by the general path agree, alone and
    /// followed by more of a line (sixteen bytes or more from the first digit take the
    /// sixteen-byte shortcut, fewer the general path; there eight bytes or more after a number
    /// take the digit runs of eight at a time, fewer the byte loop: the w2v review).
    private static func expectSame(_ text: String) {
        for read in [text, text + "]        x"] {
            let fast = outcome(read) { try $0.readDouble() }
            let general = outcome(read) { s in try s.double(s.readNumber()) }
            #expect(fast == general, "\(read)")
        }
    }

    @Test func edgesReadAsTheGeneralPathReadsThem() {
        let cases = [
            "0", "-0", "0.0", "-0.0", "1", "-1", "7,", " 42]", "223.21", "-223.21,",
            "675242087.5802474", "1653549287.5802474", "9007199254740992", "9007199254740993",
            "900719925474099.2", "9007199254740991.5", "0.1", "0.30000000000000004",
            "0.000000000000001", "0.0000000000000001", "1234567890123456", "12345678901234567",
            "1.5e3", "1.5E3", "15e-1", "1e22", "1.0}", "3.14159 ", "99999999999999999999",
            "0.05", "10", "100.001",
            // Malformed: the general path's errors.
            "", "-", "01", "-01", "1.", "1.e5", ".5", "+1", "1e", "1e+", "x", "00.5", "-.5",
            "1..2", "1.2.3", "0x10",
        ]
        for text in cases { Self.expectSame(text) }
    }

    @Test func seededRandomDecimalsReadAsTheGeneralPathReadsThem() {
        var random = SeededRandomNumberGenerator(seed: 2026, stream: "ShortDecimalDoubleTests")
        for _ in 0..<20_000 {
            // 1–18 digits, a point anywhere (or none), maybe a sign, maybe leading zeros.
            let count = random.int(in: 1...18)
            var digits = (0..<count).map { _ in Character(String(random.int(in: 0...9))) }
            if random.int(in: 0...3) != 0, digits.count > 1, digits[0] == "0" { digits[0] = "5" }
            var text = String(digits)
            let point = random.int(in: 0...count)
            if point > 0, point < count, random.int(in: 0...4) != 0 {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            }
            if random.int(in: 0...1) == 0 { text = "-" + text }
            switch random.int(in: 0...9) {
            case 0: text += "e\(random.int(in: -30...30))"
            case 1: text += ","
            case 2: text += "]"
            default: break
            }
            Self.expectSame(text)
        }
    }

    @Test func seededRandomDoublesReadAsTheGeneralPathReadsThem() {
        var random = SeededRandomNumberGenerator(seed: 2026, stream: "ShortDecimalDoubleTests.d")
        for _ in 0..<20_000 {
            // Shortest spellings at many magnitudes, as the writer spells them.
            let scale = Double(sign: .plus, exponent: random.int(in: -40...60), significand: 1)
            let v = (random.uniform() - 0.5) * scale
            Self.expectSame(v.description)
            // Cents and seconds with fractions, the usual amounts and dates.
            let cents = Double(random.int(in: -10_000_000...10_000_000)) / 100
            Self.expectSame(cents.description)
            let seconds = 600_000_000 + random.uniform() * 200_000_000
            Self.expectSame(seconds.description)
        }
    }
}
