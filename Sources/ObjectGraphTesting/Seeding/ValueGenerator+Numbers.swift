import Foundation
import ObjectGraph

/// Decimals, doubles, floats and dates within their limits.
extension ValueGenerator {
    func decimal(
        _ a: AttributeDescription, key: String, attempt: Int,
        _ random: inout SeededRandomNumberGenerator
    ) -> Decimal? {
        let plausible = plausibleReal(key)
        let lo = a.minValue.flatMap(AttributeRules.decimal)
        let hi = a.maxValue.flatMap(AttributeRules.decimal)
        var range = (Decimal(plausible.lo), Decimal(plausible.hi))
        let bounds = (lo ?? -Decimal(1_000_000_000_000), hi ?? Decimal(1_000_000_000_000))
        if attempt > 3 || range.1 < bounds.0 || range.0 > bounds.1 {
            range = bounds
        } else {
            range = (max(range.0, bounds.0), min(range.1, bounds.1))
        }
        guard range.0 <= range.1 else { return nil }
        for scale in plausible.scale...12 {
            let start = Self.round(range.0, scale, .up)
            let end = Self.round(range.1, scale, .down)
            guard start <= end else { continue }
            let unit = Decimal(sign: .plus, exponent: -scale, significand: 1)
            var steps = (end - start) / unit
            if steps > Decimal(1_000_000_000_000_000) { steps = Decimal(1_000_000_000_000_000) }
            let k = random.int64(
                in: 0...NSDecimalNumber(decimal: Self.round(steps, 0, .down)).int64Value)
            return start + Decimal(k) * unit
        }
        return range.0
    }

    static func round(_ value: Decimal, _ scale: Int, _ mode: NSDecimalNumber.RoundingMode)
        -> Decimal
    {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, scale, mode)
        return result
    }

    func floating(
        _ a: AttributeDescription, key: String, attempt: Int,
        _ random: inout SeededRandomNumberGenerator
    ) -> Double? {
        let plausible = plausibleReal(key)
        let lo = a.minValue.flatMap(AttributeRules.double)
        let hi = a.maxValue.flatMap(AttributeRules.double)
        let bounds = (lo ?? -1e12, hi ?? 1e12)
        var range = (plausible.lo, plausible.hi)
        if attempt > 3 || range.1 < bounds.0 || range.0 > bounds.1 {
            range = bounds
        } else {
            range = (max(range.0, bounds.0), min(range.1, bounds.1))
        }
        guard range.0 <= range.1, range.0.isFinite, range.1.isFinite else { return nil }
        let factor = pow(10, Double(plausible.scale))
        let start = (range.0 * factor).rounded(.up)
        let end = (range.1 * factor).rounded(.down)
        let candidate: Double
        if start <= end, end - start < 9e15 {
            candidate = (start + Double(random.int64(in: 0...Int64(end - start)))) / factor
        } else {
            candidate = range.0 + (range.1 - range.0) * random.uniform()
        }
        return Swift.min(Swift.max(candidate, range.0), range.1)
    }

    func float(
        _ a: AttributeDescription, key: String, attempt: Int,
        _ random: inout SeededRandomNumberGenerator
    ) -> Float? {
        guard let d = floating(a, key: key, attempt: attempt, &random) else { return nil }
        var f = Float(d)
        if case .float(let min)? = a.minValue, f < min { f = min }
        if case .float(let max)? = a.maxValue, f > max { f = max }
        return f.isFinite ? f : nil
    }

    /// A date in whole seconds within the limits, near ``referenceDate`` as the key suggests:
    /// birth dates 18 to 80 years back, due dates up to half a year ahead, others the past year.
    func date(_ a: AttributeDescription, key: String, _ random: inout SeededRandomNumberGenerator)
        -> Date?
    {
        let now = referenceDate.timeIntervalSince1970
        let day = 86_400.0
        func has(_ parts: String...) -> Bool { parts.contains(where: key.contains) }
        var range: (Double, Double)
        if has("birth", "dob") {
            range = (now - 80 * 365.25 * day, now - 18 * 365.25 * day)
        } else if has("due", "deadline", "expir", "until", "end", "next") {
            range = (now, now + 182 * day)
        } else {
            range = (now - 365 * day, now)
        }
        let lo = a.minValue.flatMap(AttributeRules.double)
        let hi = a.maxValue.flatMap(AttributeRules.double)
        let bounds = (lo ?? -.greatestFiniteMagnitude, hi ?? .greatestFiniteMagnitude)
        let width = range.1 - range.0
        if range.1 < bounds.0 {
            range = (bounds.0, Swift.min(bounds.1, bounds.0 + width))
        } else if range.0 > bounds.1 {
            range = (Swift.max(bounds.0, bounds.1 - width), bounds.1)
        } else {
            range = (Swift.max(range.0, bounds.0), Swift.min(range.1, bounds.1))
        }
        guard range.0 <= range.1 else { return nil }
        let start = range.0.rounded(.up)
        let end = range.1.rounded(.down)
        let seconds =
            start <= end
            ? start + Double(random.int64(in: 0...Int64(end - start))) : (range.0 + range.1) / 2
        return Date(timeIntervalSince1970: seconds)
    }
}
