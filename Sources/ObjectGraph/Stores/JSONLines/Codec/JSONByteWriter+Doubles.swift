import Foundation

// A double's and a float's shortest round-trip spelling, written straight into the buffer:
// the fast paths for values with a fraction between 1 and 2^52 and for short decimals and
// integers, and the general path through `description`'s `write(to:)`.
extension JSONByteWriter {
    /// Appends a finite double's shortest round-trip spelling (Swift's `description`),
    /// without building a `String`.
    package func append(shortest value: Double) {
        if appendFractional(value) || appendShortDecimal(value) { return }
        var target = self
        value.write(to: &target)
    }

    /// Writes `value` when it lies between 1 and 2^52 in magnitude and is not an integer, in
    /// the form `description` uses (`223.21`, `675242087.5802474`): the integer part, then the
    /// fewest digits after the point that read back as `value`, the last one the nearest;
    /// returns `false`, writing nothing, when two spellings of that length are equally near
    /// (which `description` decides). Amounts, dates with a sub-second part and products
    /// such as `amount * 1.2` are spelled so, two places a step (≈ 12 instructions a step;
    /// one place a step took ≈ 18 a digit).
    ///
    /// Exact, in 64-bit integers: `value` is m / 2^k (m of 53 bits, 1 ≤ k ≤ 52), its integer
    /// part m >> k and its fraction f / 2^k. The decimals that read back as `value` are those
    /// within half a unit in the last place, 2^-(k+1) (the bound included when m is even: ties
    /// round to even). After n digits of the fraction, in units of 10^-n / 2^(k+1), the rest
    /// r = 2f · 10^n mod 2^(k+1) is the distance down to the n-place decimal below the value,
    /// 2^(k+1) − r the distance up to the one above, and half a unit is 10^n; r < 2^53 and
    /// 10^n ≤ 10^16, so r · 100 fits 64 bits. The first n at which the nearer of the two lies
    /// within half a unit is the fewest places (and so the fewest significant digits: every
    /// candidate has the same integer part, the integers beside it being doubles of their
    /// own), and the nearer is `description`'s digit. Its last digit is never 0 (one place
    /// fewer would have been found) and rounding up never carries (the result would end in 0).
    ///
    /// The test holds at every n from the first on (the n-place decimals are among the
    /// (n + 1)-place ones), so the loop takes two places at a time, from `decimalPairs`,
    /// while the test fails at the second; when it holds there, the first of the two is
    /// tried alone, and the last place is the first or the second: the same digits, the
    /// same refusals, as one place a step.
    private func appendFractional(_ value: Double) -> Bool {
        let bits = value.bitPattern
        let exponent = Int(truncatingIfNeeded: bits &>> 52 & 0x7FF) &- 1023
        guard exponent >= 0, exponent < 52 else { return false }
        let k = UInt64(truncatingIfNeeded: 52 &- exponent)
        let m = bits & 0x000F_FFFF_FFFF_FFFF | 1 &<< 52
        let fraction = m & (1 &<< k &- 1)
        guard fraction != 0 else { return false }
        reserve(40)  // a sign, 16 integer digits, the point and at most 16 places
        let start = used
        if bits &>> 63 != 0 { append(0x2D) }
        append(integer: Int64(bitPattern: m &>> k))
        var out = base + used
        out.pointee = 0x2E
        out += 1
        let shift = k &+ 1
        let unit = UInt64(1) &<< shift  // 2^(k+1)
        let mask = unit &- 1
        var rest = fraction &<< 1
        var half: UInt64 = 1
        // The bound itself reads back when m is even (ties to even); a decimal on it needs
        // k + 1 places, and `value` itself has k, so the loop stops first: kept for safety.
        let inclusive = m & 1 == 0
        /// Whether a decimal `rest` above the one below and `up` below the one above, in a
        /// unit where half a unit in the last place is `half`, has the nearer within it.
        @inline(__always) func within(_ rest: UInt64, _ up: UInt64, _ half: UInt64) -> Bool {
            let near = min(rest, up)
            return near < half || (inclusive && near == half)
        }
        /// Writes the last place, `digit` or the one above by the rest: `false`, writing
        /// nothing, on a tie or a carry.
        @inline(__always) func last(_ digit: UInt8, _ rest: UInt64, _ up: UInt64) -> Bool {
            if rest == up {
                used = start
                return false
            }
            if rest < up {
                out.pointee = 0x30 &+ digit
            } else {
                guard digit < 9 else {  // unreachable (see above); left to `description`
                    used = start
                    return false
                }
                out.pointee = 0x31 &+ digit
            }
            used = base.distance(to: out) &+ 1
            return true
        }
        let pairs = decimalPairs
        while true {
            let rest2 = rest &* 100
            let half2 = half &* 100
            let next = rest2 & mask
            if within(next, unit &- next, half2) {
                let rest1 = rest &* 10
                let first = UInt8(truncatingIfNeeded: rest1 &>> shift)
                let r1 = rest1 & mask
                if within(r1, unit &- r1, half &* 10) { return last(first, r1, unit &- r1) }
                out.pointee = 0x30 &+ first
                out += 1
                return last(UInt8(truncatingIfNeeded: (r1 &* 10) &>> shift), next, unit &- next)
            }
            UnsafeMutableRawPointer(out).storeBytes(
                of: pairs.loadUnaligned(
                    fromByteOffset: Int(truncatingIfNeeded: rest2 &>> shift) &<< 1,
                    as: UInt16.self),
                as: UInt16.self)
            out += 2
            rest = next
            half = half2
        }
    }

    /// Writes `value` when it is an integer below 2^53 in magnitude, or a decimal of at most
    /// 15 significant digits with at most six after the point between 0.001 and 10^9 in
    /// magnitude, in the form `description` uses (`0.25`, `1700000000.0`); returns `false`,
    /// writing nothing, otherwise. Called after ``appendFractional(_:)``, so its decimals are
    /// those below 1 (the ties that one leaves, at 2^50, are above its 10^9 bound and go to
    /// `description`). Two different
    /// decimals of at most 15 significant digits never round to the same double, so such a
    /// decimal is the shortest that reads back; the division `m / 10^k` of exact operands is
    /// correctly rounded, so the check is exact.
    private func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 9_007_199_254_740_992 else { return false }
        // Conversions to integers truncate, and rounding through them spares a call to libm's
        // `round` (x86-64 has no inline rounding instruction before SSE 4.1): below 2^53
        // truncation tells an integer exactly.
        let whole = UInt64(magnitude)
        var k = 0
        var digits = whole
        if Double(whole) != magnitude {
            guard magnitude < 1e9 else { return false }
            // One try at six places: a decimal d / 10^k (k ≤ 6) that reads back as
            // `magnitude` is D = d · 10^(6−k) < 10^15 at six places, `magnitude · 10^6` lies
            // within 0.22 of D (two roundings of at most 2^-53 each), so adding ½ and
            // truncating gives D, and D / 10^6 is correctly rounded; dropping D's trailing
            // zeros gives the shortest d. A value that fails here fails at every number of
            // places.
            let rounded = UInt64(magnitude * 1e6 + 0.5)
            guard Double(rounded) / 1e6 == magnitude else { return false }
            k = 6
            digits = rounded
            while digits % 10 == 0 {
                digits /= 10
                k -= 1
            }
        }
        let power = Self.powersOfTen[k]
        reserve(24)
        if value < 0 { append(0x2D) }
        append(integer: Int64(digits / power))
        append(0x2E)
        if k == 0 {
            append(0x30)
        } else {
            var fraction = digits % power
            let out = base + used
            for i in stride(from: k - 1, through: 0, by: -1) {
                out[i] = UInt8(truncatingIfNeeded: fraction % 10) &+ 0x30
                fraction /= 10
            }
            used &+= k
        }
        return true
    }

    private static let powersOfTen: [UInt64] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000]

    /// Appends a finite float's shortest round-trip spelling (Swift's `description`).
    package func append(shortest value: Float) {
        var target = self
        value.write(to: &target)
    }
}
