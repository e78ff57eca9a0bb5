import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The two word-at-a-time tricks the sixteen-byte double read (`readShortDecimal()`) and the
/// digit runs stand on, tested directly: `nonDigitFlags(_:)` on every byte value in every
/// position, `eightDigits(_:)` on seeded eight-digit strings and the two extremes.
@Suite struct ShortDecimalBitTrickTests {
    /// Every one of the 256 byte values in each of the 8 positions, the other seven bytes
    /// digits (each of 0–9 in turn): `0x80` in that byte exactly when it is not an ASCII digit,
    /// nothing in any other byte.
    @Test func nonDigitFlagsFlagsExactlyTheBytesThatAreNotDigits() {
        var wrong: [String] = []
        for position in 0..<8 {
            for byte in 0...255 {
                for filler in 0..<10 {
                    var w: UInt64 = 0
                    for i in 0..<8 {
                        let b = i == position ? UInt64(byte) : UInt64(0x30 + (filler + i) % 10)
                        w |= b << (i * 8)
                    }
                    let isDigit = byte >= 0x30 && byte <= 0x39
                    let expected: UInt64 = isDigit ? 0 : 0x80 << (position * 8)
                    if nonDigitFlags(w) != expected {
                        wrong.append("byte \(byte) at \(position), filler \(filler)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10)) (\(wrong.count) in all)")
    }

    /// The integer `eightDigits(_:)` gives for the eight-digit `text`, its digits' values in
    /// the word's bytes, the first (most significant) lowest.
    private static func eightDigits(of text: String) -> UInt64 {
        var v: UInt64 = 0
        for (i, c) in text.utf8.enumerated() { v |= UInt64(c - 0x30) << (i * 8) }
        return ObjectGraph.eightDigits(v)
    }

    /// 00000000, 99999999 and 10,000 seeded eight-digit strings (leading zeros included) read
    /// as the integers they spell.
    @Test func eightDigitsReadsEightDigitStringsAsTheirIntegers() {
        var random = SeededRandomNumberGenerator(seed: 2424, stream: "ShortDecimalBitTrickTests")
        var texts = ["00000000", "99999999", "12345678", "87654321", "00000001", "10000000"]
        for _ in 0..<10_000 {
            texts.append(String((0..<8).map { _ in Character(String(random.int(in: 0...9))) }))
        }
        var wrong: [String] = []
        for text in texts where Self.eightDigits(of: text) != UInt64(text) {
            wrong.append(text)
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10)) (\(wrong.count) in all)")
    }
}
