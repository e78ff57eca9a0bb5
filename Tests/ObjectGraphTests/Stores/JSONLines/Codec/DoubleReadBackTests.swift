import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Doubles written by the store's writer read back bit for bit through `readDouble()`, as
/// Swift's `Double(String)` reads the same text, whichever path reads them: the sixteen-byte
/// short decimal (`readShortDecimal()`, issue 25, twenty-fourth session) or the general one.
@Suite struct DoubleReadBackTests {
    /// What `readDouble()` gave for `text` followed by `tail`: the double's bits and the bytes
    /// it consumed, or `nil` when it throws.
    private static func read(_ text: String, tail: String) -> (bits: UInt64, consumed: Int)? {
        var line = text + tail
        return line.withUTF8 { utf8 in
            var s = JSONScanner(UnsafeRawBufferPointer(utf8))
            guard let v = try? s.readDouble() else { return nil }
            return (v.bitPattern, s.position)
        }
    }

    /// Tails after a number: a row's usual next values, nothing, and every length of spaces
    /// that puts the end of the scanned range at and around the 16th, 17th and 18th byte.
    private static let tails =
        [",null,18]", "", "]", ",\"note: cinema sushi cleaning\",18]"]
        + (0...20).map { String(repeating: " ", count: $0) }

    /// `text` reads, after every tail, as `Double(text)` reads it, consuming exactly `text`.
    private static func expectReadAsSwiftReads(
        _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = Double(text)?.bitPattern
        for tail in tails {
            let got = read(text, tail: tail)
            #expect(got?.bits == expected, "\(text)|\(tail)", sourceLocation: sourceLocation)
            #expect(
                got?.consumed == text.utf8.count, "\(text)|\(tail)", sourceLocation: sourceLocation)
        }
    }

    /// `v` as the writer spells it (`JSONByteWriter.append(shortest:)`).
    private static func written(_ v: Double) -> String {
        let w = JSONByteWriter(capacity: 64)
        w.append(shortest: v)
        return w.string
    }

    /// Each of `samples` and its negation, written by the writer, reads back bit for bit after
    /// every tail (so texts of 6 bytes or fewer reach the sixteen-byte read too), consuming
    /// exactly the text. One expectation a value, naming the tails that failed.
    private static func expectWrittenReadBack(
        _ samples: [Double], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for v in samples where v.isFinite {
            for value in [v, -v] {
                let text = written(value)
                let failed = tails.filter { tail in
                    let got = read(text, tail: tail)
                    return got?.bits != value.bitPattern || got?.consumed != text.utf8.count
                }
                #expect(failed.isEmpty, "\(text)|\(failed)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func handPickedHardTextsReadAsSwiftReadsThem() {
        let texts = [
            // Zeros, signs, leading zeros in the fraction.
            "0", "-0", "0.0", "-0.0", "0.5", "0.05", "0.000123", "0.0000000000000001",
            "0.000000000000001", "-0.000000000000001", "0.1", "0.30000000000000004",
            // The usual amounts and dates, and their longest short forms.
            "223.21", "-223.21", "218.64", "675242087.5802474", "-978307199.9999999",
            "1653549287.5802474", "999999999999999.9", "99999999.99999999", "9.999999999999998",
            "1.000000000000000", "1.0000000000000002", "123456789012345.6", "12345678.12345678",
            // Around 2^53: the last integer the short path takes, and beyond.
            "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994",
            "900719925474099.1", "900719925474099.2", "900719925474099.3", "9007199254740991.5",
            "9007199254740992.0", "9007199254740993.0", "4503599627370497.5",
            // Halfway points between neighbouring doubles, and their neighbours in digits.
            "9007199254740995", "4503599627370496.5", "4503599627370497.5",
            "2251799813685248.25", "2251799813685248.75", "1125899906842624.125",
            "0.50000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.0000000000000001110223024625156540423631668090820312",
            "1.0000000000000001110223024625156540423631668090820313",
            // 17-digit round-trip spellings, 18, 19 and 20 digits.
            "1.2345678901234567", "12345678901234567", "0.12345678901234567",
            "123456789012345678", "1234567890123456789", "12345678901234567890",
            "1.234567890123456789", "99999999999999999999", "18446744073709551615",
            "18446744073709551616", "9223372036854775807", "9223372036854775808",
            // Extremes: the largest and smallest normals, subnormals.
            "1.7976931348623157e308", "-1.7976931348623157e308", "2.2250738585072014e-308",
            "2.225073858507201e-308", "4.9406564584124654e-324", "5e-324", "2.5e-324",
            "2.4703282292062328e-324", "1e-320", "4.940656458412465e-324",
            // Exponents.
            "1e22", "1e23", "1.5e3", "1.5E3", "15e-1", "1e-7", "1E+2", "-2.5e-3", "1e0", "0e10",
            "8.98846567431158e307",
        ]
        for text in texts { Self.expectReadAsSwiftReads(text) }
    }

    @Test func seededRandomDoublesOfEveryMagnitudeWrittenByTheWriterReadBack() {
        var random = SeededRandomNumberGenerator(seed: 2424, stream: "DoubleReadBackTests")
        var samples: [Double] = [
            0, .leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown,
            .greatestFiniteMagnitude, 9_007_199_254_740_991, 9_007_199_254_740_992,
            9_007_199_254_740_994, 4_503_599_627_370_497.5, 1e15.nextDown, 1e16.nextUp, 1e22,
            1e23, 0.1, 1.0.nextUp, 2.0.nextDown, 675_242_087.580_247_4,
        ]
        for _ in 0..<40_000 {
            // Any bit pattern: every binary exponent, subnormals included.
            samples.append(Double(bitPattern: random.next()))
            // Any mantissa at a binary exponent between 2^-60 and 2^60.
            samples.append(
                Double(
                    sign: .plus, exponentBitPattern: UInt(963 + random.next() % 121),
                    significandBitPattern: random.next() & 0x000F_FFFF_FFFF_FFFF))
            // Dates since 2001, from 1900 to 2300, with a sub-second part; amounts.
            let seconds = Double(Int64(random.next() % 12_600_000_000) - 4_200_000_000)
            samples.append(seconds + Double(random.next() % 10_000_000) / 1e7)
            samples.append(Double(random.next() % 100_000_000) / 100)
        }
        Self.expectWrittenReadBack(samples)
    }

    @Test func seededRandomDecimalsOfUpTo20DigitsReadAsSwiftReadsThem() {
        var random = SeededRandomNumberGenerator(seed: 2424, stream: "DoubleReadBackTests.t")
        for _ in 0..<4_000 {
            // 1–20 digits, the point anywhere, zeros often (runs after the point included).
            let count = random.int(in: 1...20)
            var digits = (0..<count).map { _ in
                random.int(in: 0...2) == 0 ? "0" : String(random.int(in: 0...9))
            }
            if digits.count > 1, digits[0] == "0" { digits[0] = String(random.int(in: 1...9)) }
            var text = digits.joined()
            let point = random.int(in: 0...count)
            if point > 0, point < count {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            } else if point == 0 {
                text = "0." + text
            }
            if random.int(in: 0...3) == 0 { text = "-" + text }
            Self.expectReadAsSwiftReads(text)
        }
    }

    @Test func theSixteenByteShortcutTakesTheUsualDoublesAndLeavesTheRest() {
        /// `readShortDecimal()` on `text` + `tail`: its value's bits and the position, or
        /// `nil` with the position checked unmoved.
        func shortcut(
            _ text: String, _ tail: String = ",\"note: cinema sushi cleaning\",18]"
        ) -> (UInt64, Int)? {
            var line = text + tail
            return line.withUTF8 { utf8 in
                var s = JSONScanner(UnsafeRawBufferPointer(utf8))
                guard let v = s.readShortDecimal() else {
                    #expect(s.position == 0, "\(text)|\(tail)")
                    return nil
                }
                return (v.bitPattern, s.position)
            }
        }
        for text in [
            "223.21", "-223.21", "675242087.5802474", "-675242087.5802474", "0", "-0.0", "7",
            "0.000123", "123456789012345", "900719925474099.2", "9.007199254740992",
            "1.000000000000001", "100.001",
        ] {
            let got = shortcut(text)
            #expect(got?.0 == Double(text)?.bitPattern, "\(text)")
            #expect(got?.1 == text.utf8.count, "\(text)")
        }
        // Taken with the 17th byte last before the range's end, left with fewer bytes.
        #expect(shortcut("675242087.5802474", " ") != nil)
        #expect(shortcut("675242087.5802474", "") == nil)
        #expect(shortcut("223.21", "          ") != nil)
        #expect(shortcut("223.21", "         ") == nil)
        // Left to the general path: more than 16 digits, above 2^53, exponents, malformed.
        for text in [
            "1653549287.5802474", "9007199254740993", "900719925474099.3", "1234567890123456",
            "-978307199.9999999", "999999999999999.9",
            "1.5e3", "1E3", "01", "00.5", "-", "-.5", ".5", "1.", "1.e5", "+1", "x", "1..2",
        ] {
            #expect(shortcut(text) == nil, "\(text)")
        }
    }
}
