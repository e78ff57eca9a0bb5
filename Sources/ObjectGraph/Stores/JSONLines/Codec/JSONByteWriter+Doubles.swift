import Foundation

// A double's and a float's shortest round-trip spelling, written straight into the buffer:
// the fast paths for short decimals and for 16–17-digit values, and the general path through
// `description`'s `write(to:)`.
extension JSONByteWriter {
    /// Appends a finite double's shortest round-trip spelling (Swift's `description`),
    /// without building a `String`.
    package func append(shortest value: Double) {
        if appendShortDecimal(value) || appendLongDecimal(value) { return }
        var target = self
        value.write(to: &target)
    }

    /// Writes `value` when its shortest round-trip spelling has 16 or 17 significant digits
    /// and it lies between 1 and 10^15 in magnitude, not an integer nor a power of two, in the
    /// form `description` uses (`675242087.5802474`); returns `false`, writing nothing,
    /// otherwise (and when two spellings are equally near, which `description` decides).
    /// Dates since 2001 with a sub-second part and products of short decimals are mostly
    /// spelled so; `description` took ≈ 575 instructions for each. Called only after
    /// ``appendShortDecimal(_:)`` refused the value.
    ///
    /// Exact: `value` is m / 2^k (m of 53 bits, 1 ≤ k ≤ 52); the decimals that read back as
    /// it are those within half a unit in the last place, (2m ± 1) / 2^(k+1), the boundaries
    /// included when m is even (ties round to even). Scaled by 10^p they are integers below
    /// 2^111 divided by a power of two, so each try is a few shifts. When no decimal of 15
    /// significant digits lies in that interval, none shorter does either (a shorter one is
    /// one of 15 digits too); the first of 16 and 17 digits that has one gives the spelling,
    /// and of its candidates the one nearest the value is `description`'s.
    private func appendLongDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 1, magnitude < 1e15 else { return false }
        let whole = UInt64(magnitude)
        guard Double(whole) != magnitude else { return false }
        var integerDigits = 1
        var wholeLimit: UInt64 = 10
        while whole >= wholeLimit {
            integerDigits &+= 1
            wholeLimit &*= 10
        }
        let m = UInt64(1) &<< 52 | value.significandBitPattern
        let k = UInt128(truncatingIfNeeded: 52 &- Int(magnitude.exponent))
        let inclusive = m & 1 == 0
        let unit = (UInt128(1) &<< (k &+ 1)) &- 1
        let rounding = UInt128(1) &<< (k &- 1)  // half of 2^k
        let fraction = (UInt128(1) &<< k) &- 1
        /// The decimal nearest the value with the places of `power` (10^p) after the point, if
        /// one reads back as the value.
        func nearest(_ power: UInt64) -> LongDecimal {
            let product = m.multipliedFullWidth(by: power)
            let scaled = UInt128(product.high) &<< 64 | UInt128(product.low)  // m · 10^p
            let low = scaled &<< 1 &- UInt128(power)  // (2m − 1) · 10^p
            let high = scaled &<< 1 &+ UInt128(power)  // (2m + 1) · 10^p
            var lowest = low &>> (k &+ 1)
            if !(inclusive && low & unit == 0) { lowest &+= 1 }
            var highest = high &>> (k &+ 1)
            if !inclusive && high & unit == 0 { highest &-= 1 }
            guard lowest <= highest else { return .none }
            let rest = scaled & fraction
            guard rest != rounding else { return .undecided }
            let digits = scaled &>> k &+ (rest > rounding ? 1 : 0)
            guard digits >= lowest, digits <= highest else { return .undecided }
            return .digits(UInt64(truncatingIfNeeded: digits))
        }
        // 10^(15 − integer digits): the places of a decimal of 15 significant digits. Above
        // 10^8 the short decimal's tries covered them.
        var power = 1_000_000_000_000_000 / wholeLimit
        if integerDigits < 9 {
            guard case .none = nearest(power) else { return false }
        }
        for places in (16 &- integerDigits)...(17 &- integerDigits) {
            power &*= 10
            switch nearest(power) {
            case .none: continue
            case .digits(let digits):
                writeDecimal(digits, places: places, power: power, negative: value < 0)
                return true
            case .undecided: return false
            }
        }
        return false
    }

    /// What one try of ``appendLongDecimal(_:)`` found.
    private enum LongDecimal {
        /// No decimal with that many places reads back as the value.
        case none
        /// The nearest that does, in units of its last place.
        case digits(UInt64)
        /// Two are equally near (or the arithmetic disagrees): left to `description`.
        case undecided
    }

    /// Writes `digits / power` (`power` = 10^`places`, `places` ≥ 1) with `places` digits
    /// after the point.
    private func writeDecimal(_ digits: UInt64, places: Int, power: UInt64, negative: Bool) {
        reserve(24)
        if negative { append(0x2D) }
        let integer = digits / power
        append(integer: Int64(integer))
        append(0x2E)
        var rest = digits &- integer &* power
        let out = UnsafeMutableRawPointer(base + used)
        var i = places
        decimalPairs.withUnsafeBufferPointer { pairs in
            while i >= 2 {
                let quotient = rest / 100
                i &-= 2
                out.storeBytes(
                    of: pairs[Int(truncatingIfNeeded: rest &- quotient &* 100)], toByteOffset: i,
                    as: UInt16.self)
                rest = quotient
            }
        }
        if i == 1 { out.storeBytes(of: UInt8(truncatingIfNeeded: rest) &+ 0x30, as: UInt8.self) }
        used &+= places
    }

    /// Writes `value` when it is a decimal of at most 15 significant digits with at most six
    /// after the point, between 0.001 and 2^53 in magnitude (or an integer below 2^53), in
    /// the form `description` uses (`523.45`, `1700000000.0`); returns `false`, writing
    /// nothing, otherwise. Two different decimals of at most 15 significant digits never
    /// round to the same double, so such a decimal is the shortest that reads back; the
    /// division `m / 10^k` of exact operands is correctly rounded, so the check is exact.
    private func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 9_007_199_254_740_992 else { return false }
        // Conversions to integers truncate, and rounding through them spares a call to libm's
        // `round` per try (x86-64 has no inline rounding instruction before SSE 4.1): below
        // 2^53 truncation tells an integer exactly, and below 10^16 adding ½ is exact or
        // lands at or above 10^15, which is refused either way.
        let whole = UInt64(magnitude)
        var k = 0
        var digits = whole
        if Double(whole) != magnitude, magnitude < 1e9 {
            // Below 10^9 one try at six places stands for the six tries below: a decimal
            // d / 10^k (k ≤ 6) that reads back as `magnitude` is D = d · 10^(6−k) < 10^15 at
            // six places, `magnitude · 10^6` lies within 0.22 of D (two roundings of at most
            // 2^-53 each), so adding ½ and truncating gives D, and D / 10^6 is correctly
            // rounded; dropping D's trailing zeros gives the shortest d. A value that fails
            // here fails every try (products such as `amount * 1.2`, one ulp off a short
            // decimal, went through all six tries before reaching `description`).
            let rounded = UInt64(magnitude * 1e6 + 0.5)
            guard Double(rounded) / 1e6 == magnitude else { return false }
            k = 6
            digits = rounded
            while digits % 10 == 0 {
                digits /= 10
                k -= 1
            }
        } else if Double(whole) != magnitude {
            var scale = 1.0
            k = -1
            for tried in 1...6 {
                scale *= 10
                let scaled = magnitude * scale
                guard scaled < 1e16 else { return false }
                let rounded = UInt64(scaled + 0.5)
                guard rounded < 1_000_000_000_000_000 else { return false }
                if Double(rounded) / scale == magnitude {
                    k = tried
                    digits = rounded
                    break
                }
            }
            guard k > 0 else { return false }
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
