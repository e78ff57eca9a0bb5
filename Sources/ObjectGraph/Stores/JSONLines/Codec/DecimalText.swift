import Foundation

/// The canonical text of a `Decimal`, fast: every significant digit, no exponent, no trailing
/// fractional zeros (`"0.1"`, `"-12.5"`, `"100000"`, `"NaN"`), exactly `Decimal.description`.
///
/// Foundation's `Decimal(string:)` and `description` cost 1–1.5 µs each, too slow for a
/// store that reopens 100k rows in 100 ms. This reads and builds the 20-byte value directly
/// (exponent byte; length, sign and compact flags; eight little-endian 16-bit mantissa words),
/// but only after checking, once per process, that this layout gives exactly what Foundation
/// gives on a set of samples; otherwise it falls back to Foundation.
enum DecimalText {
    /// A decimal as sign, mantissa and power of ten; `isNaN` for Foundation's NaN.
    struct Parts: Equatable {
        var isNegative = false
        var isNaN = false
        var mantissa: UInt128 = 0
        var exponent = 0
    }

    /// Whether the layout check passed and the fast paths are in use.
    static let usesLayout: Bool = checkLayout()

    /// The canonical text of `value`.
    static func text(_ value: Decimal) -> String {
        guard usesLayout else { return value.description }
        return format(parts(value))
    }

    /// The decimal that `bytes` spell (`-`? digits (`.` digits)? (`e` `-`? digits)?, or `NaN`),
    /// or `nil` when the syntax is wrong or the value does not fit a `Decimal`.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Decimal? {
        guard let parts = scan(bytes) else { return nil }
        if usesLayout, let fast = make(parts) { return fast }
        if parts.isNaN { return .nan }
        let text = String(decoding: bytes, as: UTF8.self)
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    // MARK: Text

    static func format(_ value: Parts) -> String {
        if value.isNaN { return "NaN" }
        var m = value.mantissa
        var e = value.exponent
        if m == 0 { return "0" }
        while m % 10 == 0 {
            m /= 10
            e += 1
        }
        var digits = digitText(m)
        if e >= 0 {
            digits += String(repeating: "0", count: e)
        } else if digits.count > -e {
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: e))
        } else {
            digits = "0." + String(repeating: "0", count: -e - digits.count) + digits
        }
        return value.isNegative ? "-" + digits : digits
    }

    private static func digitText(_ m: UInt128) -> String {
        if let small = UInt64(exactly: m) { return String(small) }
        let chunk: UInt128 = 10_000_000_000_000_000_000
        let (high, low) = m.quotientAndRemainder(dividingBy: chunk)
        let lowText = String(UInt64(low))
        return digitText(high) + String(repeating: "0", count: 19 - lowText.count) + lowText
    }

    static func scan(_ bytes: UnsafeRawBufferPointer) -> Parts? {
        var parts = Parts()
        if bytes.elementsEqual("NaN".utf8) {
            parts.isNaN = true
            return parts
        }
        var i = 0
        let n = bytes.count
        if i < n, bytes[i] == 0x2D {
            parts.isNegative = true
            i += 1
        }
        var digits = 0
        var overflow = false
        func take(_ d: UInt8) {
            let (times10, o1) = parts.mantissa.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt128(d))
            if o1 || o2 { overflow = true } else { parts.mantissa = sum }
        }
        while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            take(bytes[i] - 0x30)
            digits += 1
            i += 1
        }
        if i < n, bytes[i] == 0x2E {
            i += 1
            var fraction = 0
            while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                take(bytes[i] - 0x30)
                fraction += 1
                i += 1
            }
            guard fraction > 0 else { return nil }
            digits += fraction
            parts.exponent -= fraction
        }
        guard digits > 0 else { return nil }
        if i < n, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            var negative = false
            if i < n, bytes[i] == 0x2D || bytes[i] == 0x2B {
                negative = bytes[i] == 0x2D
                i += 1
            }
            var e = 0
            let first = i
            while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                e = min(e * 10 + Int(bytes[i] - 0x30), 100_000)
                i += 1
            }
            guard i > first else { return nil }
            parts.exponent += negative ? -e : e
        }
        guard i == n else { return nil }
        if overflow { parts.exponent = Int.max }  // too many digits: only Foundation can round it
        return parts
    }

    // MARK: Layout

    /// The parts of a decimal, read from its bytes (requires ``usesLayout``).
    static func parts(_ value: Decimal) -> Parts {
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

    /// The decimal with these parts built from bytes, or `nil` when it needs rounding.
    static func make(_ value: Parts) -> Decimal? {
        var result = Decimal()
        if value.isNaN { return .nan }
        var m = value.mantissa
        var e = value.exponent
        if m == 0 { return result }
        guard e != Int.max else { return nil }
        while m % 10 == 0 && e < 127 {
            m /= 10
            e += 1
        }
        guard e >= -128, e <= 127 else { return nil }
        var length = 0
        withUnsafeMutableBytes(of: &result) { b in
            var rest = m
            while rest != 0 {
                b[4 + 2 * length] = UInt8(truncatingIfNeeded: rest)
                b[5 + 2 * length] = UInt8(truncatingIfNeeded: rest >> 8)
                rest >>= 16
                length += 1
            }
            b[0] = UInt8(bitPattern: Int8(e))
            b[1] = UInt8(length << 4) | (value.isNegative ? 0x08 : 0) | 0x04
        }
        return result
    }

    private static func checkLayout() -> Bool {
        guard MemoryLayout<Decimal>.size == 20 else { return false }
        let samples = [
            "0", "1", "-1.5", "523.17", "0.000001", "100000", "-0.1", "7e-20",
            "12345678901234567890123456789012345678", "340282366920938463463374607431768211455",
            "99999999999999999999999999999999999999e50", "1e-120", "4294967296.65536",
        ]
        let posix = Locale(identifier: "en_US_POSIX")
        for sample in samples {
            guard let reference = Decimal(string: sample, locale: posix),
                let parts = sample.utf8
                    .withContiguousStorageIfAvailable({ scan(UnsafeRawBufferPointer($0)) }) ?? nil,
                let built = make(parts)
            else { return false }
            let same = withUnsafeBytes(of: reference) { r in
                withUnsafeBytes(of: built) { Array(r) == Array($0) }
            }
            guard same, format(Self.parts(reference)) == reference.description else { return false }
        }
        return format(parts(.nan)) == "NaN"
            && withUnsafeBytes(of: Decimal.nan) { Array($0) }
                == withUnsafeBytes(of: make(Parts(isNaN: true))!) { Array($0) }
    }
}
