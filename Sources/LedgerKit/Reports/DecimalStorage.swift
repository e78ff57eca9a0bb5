import Foundation

/// A `Decimal`'s sign, significand and exponent read straight from its storage, so a sum
/// of 100,000 amounts needs no `NSDecimalNumber` per amount.
///
/// The storage layout (byte 0 the exponent; byte 1 the significand's length in 16-bit words
/// in the high four bits and the sign in bit 3; the words from byte 4, little-endian) is
/// checked once against known values; on a Foundation with another layout ``isReadable``
/// is `false` and ``parts(_:)`` always returns `nil`, so callers take Foundation's path.
enum DecimalStorage {
    /// A decimal as `(-1)^negative × significand × 10^exponent`.
    struct Parts: Equatable {
        var negative: Bool
        var significand: UInt64
        var exponent: Int
    }

    /// The parts of `value`, or `nil` when the significand needs more than 64 bits, the
    /// value is NaN, or the layout is unknown.
    static func parts(_ value: Decimal) -> Parts? {
        guard isReadable else { return nil }
        return read(value)
    }

    /// Whether this Foundation's `Decimal` has the layout ``read(_:)`` knows.
    static let isReadable: Bool = {
        let posix = Locale(identifier: "en_US_POSIX")
        guard MemoryLayout<Decimal>.size == 20,
            let a = Decimal(string: "-1234.56", locale: posix),
            read(a) == Parts(negative: true, significand: 123_456, exponent: -2),
            let b = Decimal(string: "0.07", locale: posix),
            read(b) == Parts(negative: false, significand: 7, exponent: -2),
            read(Decimal(UInt64.max))
                == Parts(negative: false, significand: UInt64.max, exponent: 0),
            read(Decimal(0)) == Parts(negative: false, significand: 0, exponent: 0),
            let huge = Decimal(string: "123456789012345678901234567890", locale: posix),
            read(huge) == nil, read(Decimal.nan) == nil
        else { return false }
        return true
    }()

    private static func read(_ value: Decimal) -> Parts? {
        guard MemoryLayout<Decimal>.size == 20 else { return nil }
        return withUnsafeBytes(of: value) { raw -> Parts? in
            let words = Int(raw[1] >> 4)
            let negative = raw[1] & 0x08 != 0
            // Length 0 is zero, or NaN when the sign bit is set.
            if words == 0 {
                return negative ? nil : Parts(negative: false, significand: 0, exponent: 0)
            }
            guard words <= 4 else { return nil }
            var significand: UInt64 = 0
            for word in 0..<words {
                let low = UInt64(raw[4 + 2 * word])
                let high = UInt64(raw[5 + 2 * word])
                significand |= (low | high << 8) << (16 * UInt64(word))
            }
            return Parts(
                negative: negative, significand: significand,
                exponent: Int(Int8(bitPattern: raw[0])))
        }
    }
}
