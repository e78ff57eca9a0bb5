import Foundation
import ObjectGraph

/// The model's attribute rules, as the save checks them, for judging candidate values
/// before they are set (the seeder's counterpart of the engine's validation).
enum AttributeRules {
    /// Whether `value` passes `attribute`'s rules: optionality, limits, lengths and pattern.
    static func accepts(_ value: AttributeValue, _ attribute: AttributeDescription) -> Bool {
        if value.isNull { return attribute.isOptional }
        guard value.fits(attribute.type) else { return false }
        if let min = attribute.minValue, compare(value, min) == .orderedAscending { return false }
        if let max = attribute.maxValue, compare(value, max) == .orderedDescending { return false }
        if case .string(let s) = value {
            if let min = attribute.minLength, s.count < min { return false }
            if let max = attribute.maxLength, s.count > max { return false }
            if let pattern = attribute.pattern, !fullMatch(s, pattern) { return false }
        }
        return true
    }

    /// Numeric or date order; `nil` when the values are not comparable.
    static func compare(_ x: AttributeValue, _ y: AttributeValue) -> ComparisonResult? {
        switch (x, y) {
        case (.date(let a), .date(let b)): return order(a, b)
        case (.decimal, _), (_, .decimal):
            guard let a = decimal(x), let b = decimal(y) else { return nil }
            return order(a, b)
        default:
            guard let a = double(x), let b = double(y), !a.isNaN, !b.isNaN else { return nil }
            return order(a, b)
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }

    static func decimal(_ v: AttributeValue) -> Decimal? {
        switch v {
        case .decimal(let d): d
        case .integer(let i): Decimal(i)
        case .double, .float:
            v.coerced(to: .decimal).flatMap { if case .decimal(let d) = $0 { d } else { nil } }
        default: nil
        }
    }

    static func double(_ v: AttributeValue) -> Double? {
        switch v {
        case .integer(let i): Double(i)
        case .double(let d): d
        case .float(let f): Double(f)
        case .decimal(let d): NSDecimalNumber(decimal: d).doubleValue
        case .date(let d): d.timeIntervalSince1970
        default: nil
        }
    }

    private static let cache = PatternCache()

    /// Whether `pattern` (ICU, as the engine compiles it) matches the whole of `s`.
    static func fullMatch(_ s: String, _ pattern: String) -> Bool {
        guard let regex = cache.regex(pattern) else { return false }
        let range = NSRange(s.startIndex..., in: s)
        guard let match = regex.firstMatch(in: s, options: [.anchored], range: range) else {
            return false
        }
        return match.range == range
    }
}

/// Compiled regular expressions by pattern.
final class PatternCache: @unchecked Sendable {
    // Sendable: `regexes` is read and written only while holding `lock`; NSRegularExpression is immutable.
    private let lock = NSLock()
    private var regexes: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.withLock {
            if let r = regexes[pattern] { return r }
            guard let r = try? NSRegularExpression(pattern: pattern) else { return nil }
            regexes[pattern] = r
            return r
        }
    }
}
