import Foundation

/// `Decimal`'s storage, read and built directly: the one place that knows its bytes.
///
/// Foundation's `Decimal(string:)`, `description` and comparisons cost hundreds of
/// nanoseconds to microseconds on Linux, too slow for stores that reopen 100k rows, scans
/// that compare every row and sums of 100k amounts. The 20-byte value is: byte 0 the
/// exponent (signed); byte 1 the significand's length in 16-bit words (high four bits), the
/// sign (bit 3) and the compact flag (bit 2); from byte 4, eight 16-bit significand words,
/// little-endian. A length of 0 is zero, or NaN when the sign bit is set.
///
/// The layout is checked once per process against values Foundation builds
/// (``isKnown``); where it differs (another Foundation), callers use Foundation's own
/// operations instead.
package enum DecimalLayout {
    /// A decimal as sign, significand and power of ten; `isNaN` for Foundation's NaN.
    package struct Parts: Equatable, Sendable {
        package var isNegative = false
        package var isNaN = false
        package var mantissa: UInt128 = 0
        package var exponent = 0

        package init(
            isNegative: Bool = false, isNaN: Bool = false, mantissa: UInt128 = 0,
            exponent: Int = 0
        ) {
            self.isNegative = isNegative
            self.isNaN = isNaN
            self.mantissa = mantissa
            self.exponent = exponent
        }

        /// The same value with no trailing zero in the significand (zero as `0e0`).
        var normalized: Parts {
            guard mantissa != 0 else { return Parts(isNaN: isNaN) }
            var parts = self
            while parts.mantissa % 10 == 0 && parts.exponent < 127 {
                parts.mantissa /= 10
                parts.exponent += 1
            }
            return parts
        }
    }

    /// Whether this Foundation's `Decimal` has the layout this code reads and builds.
    package static let isKnown: Bool = check()

    /// The parts of `value`.
    ///
    /// - Precondition: ``isKnown``.
    package static func parts(_ value: Decimal) -> Parts {
        withUnsafeBytes(of: value) { b in
            var parts = Parts()
            let flags = b[1]
            let length = Int(flags >> 4)
            parts.isNegative = flags & 0x08 != 0
            if length == 0 {
                parts.isNaN = parts.isNegative
                parts.isNegative = false
                return parts
            }
            parts.exponent = Int(Int8(bitPattern: b[0]))
            for word in (0..<length).reversed() {
                parts.mantissa =
                    parts.mantissa << 16 | UInt128(b[4 + 2 * word]) | UInt128(b[5 + 2 * word]) << 8
            }
            return parts
        }
    }

    /// The sign, significand and exponent of `value` when its significand fits in 64 bits;
    /// `nil` for NaN and wider significands. The fast path of comparisons and sums.
    ///
    /// - Precondition: ``isKnown``.
    @inline(__always)
    package static func parts64(_ value: Decimal) -> (
        isNegative: Bool, mantissa: UInt64, exponent: Int
    )? {
        withUnsafeBytes(of: value) { raw in
            let flags = raw[1]
            let length = Int(flags >> 4)
            let negative = flags & 0x08 != 0
            if length == 0 { return negative ? nil : (false, 0, 0) }
            guard length <= 4 else { return nil }
            let words = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            let mantissa = length == 4 ? words : words & ((1 << (16 * UInt64(length))) - 1)
            return (negative && mantissa != 0, mantissa, Int(Int8(bitPattern: raw[0])))
        }
    }

    /// The decimal with these parts, built from bytes as Foundation builds it (trailing
    /// zeros moved into the exponent), or `nil` when it needs rounding (an exponent outside
    /// −128…127 after that, or a significand marked too wide with `exponent == Int.max`).
    ///
    /// - Precondition: ``isKnown``.
    package static func make(_ value: Parts) -> Decimal? {
        var result = Decimal()
        if value.isNaN { return .nan }
        if value.mantissa == 0 { return result }
        guard value.exponent != Int.max else { return nil }
        let parts = value.normalized
        guard parts.exponent >= -128, parts.exponent <= 127 else { return nil }
        var length = 0
        withUnsafeMutableBytes(of: &result) { b in
            var rest = parts.mantissa
            while rest != 0 {
                b[4 + 2 * length] = UInt8(truncatingIfNeeded: rest)
                b[5 + 2 * length] = UInt8(truncatingIfNeeded: rest >> 8)
                rest >>= 16
                length += 1
            }
            b[0] = UInt8(bitPattern: Int8(parts.exponent))
            b[1] = UInt8(length << 4) | (parts.isNegative ? 0x08 : 0) | 0x04
        }
        return result
    }

    /// Reads and builds known values and compares them with what Foundation parses.
    private static func check() -> Bool {
        guard MemoryLayout<Decimal>.size == 20 else { return false }
        let samples: [(String, Parts)] = [
            ("0", Parts()), ("1", Parts(mantissa: 1)),
            ("-1.5", Parts(isNegative: true, mantissa: 15, exponent: -1)),
            ("523.17", Parts(mantissa: 52317, exponent: -2)),
            ("0.000001", Parts(mantissa: 1, exponent: -6)),
            ("100000", Parts(mantissa: 100_000)),
            ("-0.1", Parts(isNegative: true, mantissa: 1, exponent: -1)),
            ("7e-20", Parts(mantissa: 7, exponent: -20)),
            ("-1234.56", Parts(isNegative: true, mantissa: 123_456, exponent: -2)),
            ("18446744073709551615", Parts(mantissa: UInt128(UInt64.max))),
            (
                "12345678901234567890123456789012345678",
                Parts(mantissa: 12_345_678_901_234_567_890_123_456_789_012_345_678)
            ),
            ("340282366920938463463374607431768211455", Parts(mantissa: .max)),
            (
                "99999999999999999999999999999999999999e50",
                Parts(mantissa: 99_999_999_999_999_999_999_999_999_999_999_999_999, exponent: 50)
            ),
            ("1e-120", Parts(mantissa: 1, exponent: -120)),
            ("4294967296.65536", Parts(mantissa: 429_496_729_665_536, exponent: -5)),
        ]
        for (text, expected) in samples {
            guard let reference = Decimal(posixText: text),
                parts(reference).normalized == expected.normalized,
                let built = make(expected), bytes(of: built) == bytes(of: reference)
            else { return false }
            // The 64-bit reader agrees with the full one wherever the significand fits.
            let full = parts(reference)
            if let small = UInt64(exactly: full.mantissa) {
                guard let narrow = parts64(reference), narrow.mantissa == small,
                    narrow.exponent == full.exponent, narrow.isNegative == full.isNegative
                else { return false }
            } else if parts64(reference) != nil {
                return false
            }
        }
        return parts(.nan) == Parts(isNaN: true) && parts64(.nan) == nil
            && bytes(of: make(Parts(isNaN: true))!) == bytes(of: .nan)
    }

    private static func bytes(of value: Decimal) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }
}
