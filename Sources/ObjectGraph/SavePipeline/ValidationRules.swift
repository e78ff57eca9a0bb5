import Foundation

/// The model's attribute rules, checked at save and by `validateValue(_:forKey:)`.
enum ValidationRules {
    static func check(_ value: AttributeValue, _ a: AttributeDescription, _ object: ManagedObject) -> ObjectGraphError? {
        if value.isNull {
            return a.isOptional || a.isDerived ? nil : ValidationErrors.missing(object, a.name)
        }
        if let min = a.minValue, let order = compare(value, min), order == .orderedAscending {
            return ValidationErrors.limit(object, a, value, min, tooSmall: true)
        }
        if let max = a.maxValue, let order = compare(value, max), order == .orderedDescending {
            return ValidationErrors.limit(object, a, value, max, tooSmall: false)
        }
        if case .string(let s) = value {
            let length = s.count
            if let min = a.minLength, length < min { return ValidationErrors.length(object, a, s, min, tooShort: true) }
            if let max = a.maxLength, length > max { return ValidationErrors.length(object, a, s, max, tooShort: false) }
            if let pattern = a.pattern, !fullMatch(s, pattern) { return ValidationErrors.pattern(object, a, s) }
        }
        return nil
    }

    /// Numeric or date order of two values; `nil` when they are not comparable.
    static func compare(_ x: AttributeValue, _ y: AttributeValue) -> ComparisonResult? {
        switch (x, y) {
        case (.date(let a), .date(let b)): return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.decimal, _), (_, .decimal):
            guard let a = decimal(x), let b = decimal(y) else { return nil }
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        default:
            guard let a = double(x), let b = double(y), !a.isNaN, !b.isNaN else { return nil }
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        }
    }

    private static func decimal(_ v: AttributeValue) -> Decimal? {
        switch v {
        case .decimal(let d): d
        case .integer(let i): Decimal(i)
        case .double(let d): AttributeValue.double(d).coerced(to: .decimal).flatMap { if case .decimal(let x) = $0 { x } else { nil } }
        case .float(let f): AttributeValue.double(Double(f)).coerced(to: .decimal).flatMap { if case .decimal(let x) = $0 { x } else { nil } }
        default: nil
        }
    }

    private static func double(_ v: AttributeValue) -> Double? {
        switch v {
        case .integer(let i): Double(i)
        case .double(let d): d
        case .float(let f): Double(f)
        default: nil
        }
    }

    private static let cache = RegexCache()

    static func fullMatch(_ s: String, _ pattern: String) -> Bool {
        guard let regex = cache.regex(pattern) else { return false }
        let range = NSRange(s.startIndex..., in: s)
        guard let match = regex.firstMatch(in: s, options: [.anchored], range: range) else { return false }
        return match.range == range
    }
}

/// Compiled regular expressions by pattern.
final class RegexCache: @unchecked Sendable {
    // Sendable: `regexes` is guarded by `lock`; NSRegularExpression is immutable and thread-safe.
    private let lock = NSLock()
    private var regexes: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock(); defer { lock.unlock() }
        if let r = regexes[pattern] { return r }
        guard let r = try? NSRegularExpression(pattern: pattern) else { return nil }
        regexes[pattern] = r
        return r
    }
}
