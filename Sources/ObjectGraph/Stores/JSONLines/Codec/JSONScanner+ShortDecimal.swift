// The usual double read from sixteen bytes at once: the digits on both sides of the point
// found by one test of each byte, the point taken out, and the digits made one integer in
// three multiplications for each eight.
extension JSONScanner {
    /// The usual double: `-`?, digits (no leading zero before another digit), then maybe `.`
    /// and digits, at most 16 digits in all making an integer ≤ 2^53, and no exponent; `nil`
    /// (the position unmoved) for anything else. Two limits of its own, beyond the value's:
    /// at most 15 integer digits (a 16-digit integer part goes to the general path), and at
    /// least 16 bytes from the first digit to the end of the scanned range, 18 when the
    /// fraction runs past the 16th byte (its 16th digit in the 17th byte, and the 18th read to
    /// see that no digit follows).
    ///
    /// The value is that integer over 10^(digits after the point): both exact (≤ 2^53, and
    /// 10^15 at most), so the one IEEE division is the correctly rounded quotient, the double
    /// ``double(_:)`` gives for the same number by Clinger's fast path.
    ///
    /// The sixteen bytes from the first digit are loaded as two words and each byte that is not
    /// a digit flagged (`nonDigitFlags(_:)`): the first flag ends the integer part, the next
    /// (when the first is the point) the fraction; a fraction reaching past the sixteen bytes
    /// has its 16th digit in the 17th byte, read alone. The bytes above the point move down
    /// one, and the digits are converted eight at a time (`eightDigits(_:)`), once for at most
    /// eight digits (an amount), twice for more (a date). ≈ 115 instructions a double (≈ 156
    /// with a row value's read around it), against ≈ 208 (≈ 247) with the digits taken eight
    /// at a time from each side of the point.
    @inline(__always)
    mutating func readShortDecimal() -> Double? {
        let negative = position < end && p[position] == 0x2D
        let first = negative ? position &+ 1 : position
        guard end &- first >= 16 else { return nil }
        // In bounds: sixteen bytes from `first` lie before `end`. `a` holds the first eight,
        // `b` the next eight, the first byte lowest.
        let a = UInt64(littleEndian: UnsafeRawPointer(p + first).loadUnaligned(as: UInt64.self))
        let b = UInt64(
            littleEndian: UnsafeRawPointer(p + (first &+ 8)).loadUnaligned(as: UInt64.self))
        let flagsA = nonDigitFlags(a)
        let flagsB = nonDigitFlags(b)
        // The integer part: 1–15 digits, no leading zero before another digit.
        let integerDigits =
            flagsA != 0 ? flagsA.trailingZeroBitCount &>> 3 : 8 &+ flagsB.trailingZeroBitCount &>> 3
        guard integerDigits > 0, integerDigits < 16, p[first] != 0x30 || integerDigits == 1
        else { return nil }
        var digits = integerDigits
        var last = first &+ integerDigits
        // The digits' bytes: the first eight in `high`, the rest in `low`.
        var high = a
        var low = b
        if p[last] == 0x2E {
            // The next flag after the point's ends the fraction, or none does within the
            // sixteen bytes: then a 16th digit may stand in the 17th byte, and no more.
            let restA = flagsA & (flagsA &- 1)
            let restB = flagsA != 0 ? flagsB : flagsB & (flagsB &- 1)
            var stop: Int
            var top: UInt64 = 0
            if restA != 0 {
                stop = restA.trailingZeroBitCount &>> 3
            } else if restB != 0 {
                stop = 8 &+ restB.trailingZeroBitCount &>> 3
            } else {
                // The 17th byte and the 18th (`last` below) must lie before `end`.
                guard end &- first >= 18 else { return nil }
                stop = 16
                if p[first &+ 16] &- 0x30 < 10 {
                    stop = 17
                    top = UInt64(p[first &+ 16]) &<< 56
                }
            }
            guard stop > integerDigits &+ 1 else { return nil }  // `1.` has no fraction digit
            // The bytes above the point move down one, the 17th byte's digit (if any) on top.
            if integerDigits < 8 {
                let below: UInt64 = (1 &<< (integerDigits &<< 3)) &- 1
                high = (a & below) | ((a &>> 8 | b &<< 56) & ~below)
                low = b &>> 8 | top
            } else {
                let below: UInt64 = (1 &<< ((integerDigits &- 8) &<< 3)) &- 1
                low = (b & below) | ((b &>> 8 | top) & ~below)
            }
            digits = stop &- 1
            last = first &+ stop
        }
        // `last` is in bounds: a flagged byte of the sixteen, or the 18th, checked above. A
        // digit there (the 18th byte) means more than 16 digits; `e` or `E` starts an exponent.
        guard p[last] &- 0x30 >= 10, p[last] | 0x20 != 0x65 else { return nil }
        // The digits' values moved to the top bytes, zeros below (the first digit, the most
        // significant, lowest): the bytes above the digits are whatever followed, shifted out.
        let mantissa: UInt64
        if digits <= 8 {
            mantissa = eightDigits((high &- 0x3030_3030_3030_3030) &<< ((8 &- digits) &<< 3))
        } else {
            mantissa =
                eightDigits(high &- 0x3030_3030_3030_3030) &* powerOfTen(digits &- 8)
                &+ eightDigits((low &- 0x3030_3030_3030_3030) &<< ((16 &- digits) &<< 3))
        }
        guard mantissa <= 1 << 53 else { return nil }
        position = last
        let v = Double(mantissa) / exactPowerOfTen(digits &- integerDigits)
        return negative ? -v : v
    }
}

/// `0x80` in each byte of `w` that is not an ASCII digit, `0` in each that is: exact for every
/// byte (no carry crosses a byte, unlike tests that add to the whole word).
///
/// A byte x ^ 0x30 is 0–9 for a digit; its low seven bits plus 0x76 reach bit 7 exactly when
/// they are 10 or more (at most 0x7F + 0x76 = 0xF5), and its own bit 7 flags the rest.
@inline(__always)
func nonDigitFlags(_ w: UInt64) -> UInt64 {
    let x = w ^ 0x3030_3030_3030_3030
    return (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
}

/// The integer spelled by eight digit values (0–9) in the bytes of `v`, the lowest byte the
/// most significant: neighbours combined pairwise, 8 digits → 4 → 2 → 1.
@inline(__always)
func eightDigits(_ v: UInt64) -> UInt64 {
    var v = ((v & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) &>> 8
    v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
    return ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
}
