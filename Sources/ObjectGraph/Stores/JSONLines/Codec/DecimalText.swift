import Foundation

/// The canonical text of a `Decimal`, fast: every significant digit, no exponent, no trailing
/// fractional zeros (`"0.1"`, `"-12.5"`, `"100000"`, `"NaN"`), exactly `Decimal.description`.
///
/// Foundation's `Decimal(string:)` and `description` cost 1–1.5 µs each, too slow for a
/// store that reopens 100k rows in 100 ms. This reads and builds the value's storage through
/// ``DecimalLayout`` where that layout is known; otherwise it falls back to Foundation.
enum DecimalText {
    /// A decimal as sign, mantissa and power of ten; `isNaN` for Foundation's NaN.
    typealias Parts = DecimalLayout.Parts

    /// Whether the storage layout is known and the fast paths are in use.
    static var usesLayout: Bool { DecimalLayout.isKnown }

    /// The canonical text of `value`.
    static func text(_ value: Decimal) -> String {
        guard usesLayout else { return value.description }
        return format(DecimalLayout.parts(value))
    }

    /// Appends the canonical text of `value` (``text(_:)``'s) to `w`, without building a
    /// `String` when its significand fits in 64 bits (a batch update writes one per row).
    static func write(_ value: Decimal, to w: JSONByteWriter) {
        guard usesLayout, let x = DecimalLayout.parts64(value) else {
            w.append(raw: text(value))
            return
        }
        var (m, e) = (x.mantissa, x.exponent)
        if m == 0 {
            w.append(0x30)
            return
        }
        while m % 10 == 0 {
            m /= 10
            e += 1
        }
        var length = 1  // digits of m
        var power: UInt64 = 10
        while length < 20 && m >= power {
            length += 1
            power = power &* 10
        }
        // At most a sign, "0." and 128 zeros before 20 digits, or 20 digits and 146 zeros.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 192) { buffer in
            var n = 0
            func put(_ byte: UInt8) {
                buffer[n] = byte
                n += 1
            }
            /// `v`'s last `width` digits, zero-padded.
            func digits(_ v: UInt64, width: Int) {
                var v = v
                for i in stride(from: n + width - 1, through: n, by: -1) {
                    buffer[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                    v /= 10
                }
                n += width
            }
            if x.isNegative { put(0x2D) }
            if e >= 0 {
                digits(m, width: length)
                for _ in 0..<e { put(0x30) }
            } else if length > -e {
                // Fewer than 20 fractional digits: 10^-e fits in 64 bits.
                var scale: UInt64 = 1
                for _ in 0..<(-e) { scale *= 10 }
                digits(m / scale, width: length + e)
                put(0x2E)
                digits(m % scale, width: -e)
            } else {
                put(0x30)
                put(0x2E)
                for _ in 0..<(-e - length) { put(0x30) }
                digits(m, width: length)
            }
            w.append(UnsafeRawBufferPointer(start: buffer.baseAddress, count: n))
        }
    }

    /// The decimal that `bytes` spell (`-`? digits (`.` digits)? (`e` `-`? digits)?, or `NaN`),
    /// or `nil` when the syntax is wrong or the value does not fit a `Decimal`.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Decimal? {
        guard let parts = scan(bytes) else { return nil }
        if usesLayout, let fast = DecimalLayout.make(parts) { return fast }
        if parts.isNaN { return .nan }
        let text = String(decoding: bytes, as: UTF8.self)
        return Decimal(posixText: text)
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
}
