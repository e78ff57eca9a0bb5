import Foundation

/// A scanned JSON number: its text and, when it has at most 19 significant digits, its exact
/// decimal value `mantissa × 10^exponent`.
package struct JSONNumber {
    /// Where the number's text lies in the scanned bytes.
    package var range: Range<Int>
    /// Whether it starts with `-`.
    package var isNegative = false
    /// The significant digits as an integer (exact when ``isExact``).
    package var mantissa: UInt64 = 0
    /// The power of ten to scale ``mantissa`` by.
    package var exponent = 0
    /// Whether ``mantissa`` and ``exponent`` hold the value exactly (≤ 19 significant digits).
    package var isExact = true
    /// Whether the text has no fraction and no exponent.
    package var isInteger = true
}

private let exactFloatPowersOfTen: [Float] = (0...10).map { powf(10, Float($0)) }

extension JSONScanner {
    /// Reads a number, checking RFC 8259's grammar (no leading zeros, no `+`, digits after `.`).
    package mutating func readNumber() throws -> JSONNumber {
        skipSpace()
        var n = JSONNumber(range: position..<position)
        let start = position
        if position < end, p[position] == 0x2D {
            n.isNegative = true
            position &+= 1
        }
        guard position < end, p[position] >= 0x30, p[position] <= 0x39 else {
            throw error("expected a value\(foundText)")
        }
        // Accumulate up to 19 significant digits; later ones only move the exponent (or, when
        // non-zero, make the value inexact).
        var significant = 0
        var mantissa: UInt64 = 0
        var exponent = 0
        var exact = true
        if p[position] == 0x30 {
            position &+= 1
            if position < end, p[position] >= 0x30, p[position] <= 0x39 {
                throw error("a number cannot have a leading zero")
            }
        } else {
            // Up to eight digits a step while they all count; the byte loop below takes what
            // remains, exactly as before.
            takeDigitRuns(&mantissa, &significant, limit: 19)
            while position < end, case let d = p[position] &- 0x30, d < 10 {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    significant &+= 1
                } else {
                    exponent &+= 1
                    if d != 0 { exact = false }
                }
                position &+= 1
            }
        }
        if position < end, p[position] == 0x2E {
            n.isInteger = false
            position &+= 1
            let first = position
            // Once the mantissa is non-zero every fraction digit counts as significant, so a
            // run of them is taken whole, as the byte loop would take them one by one.
            while mantissa != 0, case (let value, let count) = digitRun(atMost: 19 &- significant),
                count > 0
            {
                mantissa = mantissa &* powerOfTen(count) &+ value
                significant &+= count
                exponent &-= count
                position &+= count
                if count < 8 { break }
            }
            while position < end, case let d = p[position] &- 0x30, d < 10 {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    if mantissa != 0 { significant &+= 1 }
                    exponent &-= 1
                } else if d != 0 {
                    exact = false
                }
                position &+= 1
            }
            guard position > first else { throw error("expected a digit after '.'") }
        }
        n.mantissa = mantissa
        n.exponent = exponent
        n.isExact = exact
        if position < end, p[position] == 0x65 || p[position] == 0x45 {
            n.isInteger = false
            position &+= 1
            var negative = false
            if position < end, p[position] == 0x2B || p[position] == 0x2D {
                negative = p[position] == 0x2D
                position &+= 1
            }
            guard position < end, p[position] >= 0x30, p[position] <= 0x39 else {
                throw error("expected a digit in the exponent")
            }
            var e = 0
            while position < end, p[position] >= 0x30, p[position] <= 0x39 {
                e = min(e &* 10 &+ Int(p[position] &- 0x30), 1_000_000)
                position &+= 1
            }
            n.exponent &+= negative ? -e : e
        }
        n.range = start..<position
        return n
    }

    /// The value and length of the run of ASCII digits at the current position, read eight
    /// bytes at once: at most eight digits, and `(0, 0)` when the run is longer than `limit`
    /// digits within those eight, or when fewer than eight bytes remain (the caller's byte loop
    /// then reads them). Does not move the position.
    ///
    /// ≈ 20 instructions for up to eight digits, against ≈ 15 a digit byte by byte.
    @inline(__always)
    func digitRun(atMost limit: Int) -> (value: UInt64, count: Int) {
        guard position &+ 8 <= end else { return (0, 0) }
        // In bounds: `position + 8 <= end`, and `p` holds `end` bytes.
        let w = UInt64(littleEndian: UnsafeRawPointer(p + position).loadUnaligned(as: UInt64.self))
        // A byte is a digit when its high nibble is 3 and adding 6 keeps it so. Adding 6 carries
        // out of a byte only from a byte ≥ 0xFA, itself flagged by the first test, and a carry
        // moves only towards later bytes: the first flagged byte is the first non-digit.
        let nibbles = w & 0xF0F0_F0F0_F0F0_F0F0
        let raised = (w &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        let wrong = (nibbles ^ 0x3030_3030_3030_3030) | (raised ^ 0x3030_3030_3030_3030)
        // Each non-zero byte of `wrong` to its high bit, with no carry between bytes.
        let flagged =
            (((wrong & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | wrong)
            & 0x8080_8080_8080_8080
        let count = flagged.trailingZeroBitCount &>> 3
        guard count > 0, count <= limit else { return (0, 0) }
        // The digits' values moved to the top bytes, leading zeros below (the first digit is
        // the lowest byte, the most significant), then combined (`eightDigits(_:)`).
        return (eightDigits((w &- 0x3030_3030_3030_3030) &<< UInt64((8 &- count) &* 8)), count)
    }

    /// Reads an integer that fits `Int64` (no fraction, no exponent).
    package mutating func readInt64() throws -> Int64 {
        skipSpace()
        // The usual case: 1–18 digits, no sign, no leading zero, then neither a digit, a
        // fraction nor an exponent.
        if position < end, case let first = p[position] &- 0x31, first < 9 {
            var value = Int64(first) &+ 1
            var i = position &+ 1
            while i < end, i &- position < 18, case let d = p[i] &- 0x30, d < 10 {
                value = value &* 10 &+ Int64(d)
                i &+= 1
            }
            if i >= end || !(p[i] &- 0x30 < 10 || p[i] == 0x2E || p[i] | 0x20 == 0x65) {
                position = i
                return value
            }
        }
        let n = try readNumber()
        guard n.isInteger, n.isExact, n.exponent == 0 else {
            throw JSONScanError(
                offset: n.range.lowerBound, message: "expected an integer, found \(text(n))")
        }
        if n.isNegative {
            guard n.mantissa <= UInt64(Int64.max) + 1 else {
                throw JSONScanError(
                    offset: n.range.lowerBound, message: "integer \(text(n)) does not fit 64 bits")
            }
            return n.mantissa == UInt64(Int64.max) + 1 ? .min : -Int64(n.mantissa)
        }
        guard n.mantissa <= UInt64(Int64.max) else {
            throw JSONScanError(
                offset: n.range.lowerBound, message: "integer \(text(n)) does not fit 64 bits")
        }
        return Int64(n.mantissa)
    }

    /// Reads a number as the nearest `Double`; a literal that overflows is an error.
    ///
    /// A short decimal (`readShortDecimal()`, sixteen bytes at once) is read in one pass;
    /// anything else is read again from its start by ``readNumber()`` and ``double(_:)``, so
    /// every error is theirs. Inlined into its two callers (a row's double or date, a batch
    /// line's): the call and the second skip of spaces cost ≈ 20 instructions a double.
    @inline(__always)
    package mutating func readDouble() throws -> Double {
        skipSpace()
        if let v = readShortDecimal() { return v }
        let n = try readNumber()
        return try double(n)
    }

    /// Takes digits at the position eight at a time (`digitRun(atMost:)`), appending them to
    /// `mantissa` and counting them in `digits`, while at most `limit` are counted in all; stops
    /// after a shorter run. The caller's byte loop takes what remains (``readNumber()``).
    ///
    /// - Returns: Whether a shorter run (one of 1–7 digits) ended it.
    @inline(__always) @discardableResult
    private mutating func takeDigitRuns(
        _ mantissa: inout UInt64, _ digits: inout Int, limit: Int
    ) -> Bool {
        while case (let value, let count) = digitRun(atMost: limit &- digits), count > 0 {
            mantissa = mantissa &* powerOfTen(count) &+ value
            digits &+= count
            position &+= count
            if count < 8 { return true }
        }
        return false
    }

    /// The nearest `Double` to a scanned number.
    package func double(_ n: JSONNumber) throws -> Double {
        if n.isExact, n.mantissa <= 1 << 53, n.exponent >= -22, n.exponent <= 22 {
            // Clinger's fast path: both operands exact, so one rounding.
            let m = Double(n.mantissa)
            let v =
                n.exponent >= 0
                ? m * exactPowerOfTen(n.exponent) : m / exactPowerOfTen(-n.exponent)
            return n.isNegative ? -v : v
        }
        if n.isExact, n.mantissa != 0, n.exponent >= -19, n.exponent <= 19 {
            // 17–19 digit mantissas (shortest spellings of most doubles): exact integer
            // arithmetic, then one correct rounding.
            let v: Double
            if n.exponent >= 0 {
                let product = n.mantissa.multipliedFullWidth(by: powerOfTen(n.exponent))
                v = roundToDouble(
                    UInt128(product.high) << 64 | UInt128(product.low), sticky: false, scale: 0)
            } else {
                v = roundedQuotient(n.mantissa, powerOfTen(-n.exponent))
            }
            return n.isNegative ? -v : v
        }
        guard let v = Double(text(n)), v.isFinite else {
            throw JSONScanError(
                offset: n.range.lowerBound,
                message: "number \(text(n)) is out of range for a double")
        }
        return v
    }

    /// The nearest `Float` to a scanned number (rounded once, not through `Double`).
    package func float(_ n: JSONNumber) throws -> Float {
        if n.isExact, n.mantissa <= 1 << 24, n.exponent >= -10, n.exponent <= 10 {
            let m = Float(n.mantissa)
            let v =
                n.exponent >= 0
                ? m * exactFloatPowersOfTen[n.exponent] : m / exactFloatPowersOfTen[-n.exponent]
            return n.isNegative ? -v : v
        }
        guard let v = Float(text(n)), v.isFinite else {
            throw JSONScanError(
                offset: n.range.lowerBound, message: "number \(text(n)) is out of range for a float"
            )
        }
        return v
    }

    /// The text of a scanned number.
    package func text(_ n: JSONNumber) -> String {
        String(
            decoding: UnsafeBufferPointer(start: p + n.range.lowerBound, count: n.range.count),
            as: UTF8.self)
    }
}

/// 10^`k` for 0 ≤ `k` ≤ 19 (1 otherwise), from a constant table: a global array costs a
/// `swift_once` check at each use (the scanner's numbers and `JSONByteWriter.digitCount(_:)`).
@inline(__always)
func powerOfTen(_ k: Int) -> UInt64 {
    switch k {
    case 1: 10
    case 2: 100
    case 3: 1000
    case 4: 10000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    case 19: 10_000_000_000_000_000_000
    default: 1
    }
}

/// 10^`k` as a `Double` for 0 ≤ `k` ≤ 22, every one exact (10^k = 5^k × 2^k, and
/// 5^22 < 2^53), from a constant table as `powerOfTen(_:)`; 1 otherwise.
@inline(__always)
func exactPowerOfTen(_ k: Int) -> Double {
    switch k {
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    case 22: 1e22
    default: 1
    }
}

/// The double nearest to `m / d` (both positive), rounding ties to even.
private func roundedQuotient(_ m: UInt64, _ d: UInt64) -> Double {
    let shift = max(0, 56 + (64 - d.leadingZeroBitCount) - (64 - m.leadingZeroBitCount))
    let numerator = UInt128(m) << shift
    let (q, r) = d.dividingFullWidth(
        (high: UInt64(numerator >> 64), low: UInt64(truncatingIfNeeded: numerator)))
    return roundToDouble(UInt128(q), sticky: r != 0, scale: -shift)
}

/// The double nearest to `(v + ε) × 2^scale`, where `sticky` says whether ε (< 1) is non-zero;
/// ties to even. The result must be a normal number.
private func roundToDouble(_ v: UInt128, sticky: Bool, scale: Int) -> Double {
    let bits = 128 - v.leadingZeroBitCount
    guard bits > 53 else {
        return Double(sign: .plus, exponent: scale, significand: Double(UInt64(v)))
    }
    var drop = bits - 53
    var mantissa = UInt64(v >> drop)
    let rest = v & ((1 << drop) - 1)
    let half = UInt128(1) << (drop - 1)
    if rest > half || (rest == half && (sticky || mantissa & 1 == 1)) {
        mantissa += 1
        if mantissa == 1 << 53 {
            mantissa >>= 1
            drop += 1
        }
    }
    return Double(sign: .plus, exponent: drop + scale, significand: Double(mantissa))
}
