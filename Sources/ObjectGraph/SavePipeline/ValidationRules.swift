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
// Sendable: `regexes` is guarded by `lock`; NSRegularExpression is immutable and thread-safe.
final class RegexCache: @unchecked Sendable {
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

/// Validation error factories: one message style for every rule.
enum ValidationErrors {
    static func throwCollected(_ errors: [ObjectGraphError]) throws {
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 {
            throw ObjectGraphError(.validationMultipleErrors,
                                   "\(errors.count) validation errors: " + errors.map(\.message).joined(separator: "; "),
                                   underlying: errors)
        }
    }

    private static func make(_ code: ObjectGraphError.Code, _ object: ManagedObject, _ key: String,
                             _ value: AttributeValue?, _ message: String) -> ObjectGraphError {
        ObjectGraphError(code, message, entityName: object.entity.name, key: key, value: value,
                         objectID: object.objectID,
                         extraUserInfo: [NSValidationObjectErrorKey: UncheckedSendable(object as Any)])
    }

    static func missing(_ o: ManagedObject, _ key: String) -> ObjectGraphError {
        make(.validationMissingMandatoryProperty, o, key, nil, "\(o.entity.name).\(key) is required")
    }

    static func limit(_ o: ManagedObject, _ a: AttributeDescription, _ v: AttributeValue, _ bound: AttributeValue,
                      tooSmall: Bool) -> ObjectGraphError {
        let isDate = a.type == .date
        let code: ObjectGraphError.Code = isDate ? (tooSmall ? .validationDateTooSoon : .validationDateTooLate)
            : (tooSmall ? .validationNumberTooSmall : .validationNumberTooLarge)
        let rule = isDate ? (tooSmall ? "must not be before" : "must not be after")
            : (tooSmall ? "must be at least" : "must be at most")
        return make(code, o, a.name, v, "\(o.entity.name).\(a.name) \(rule) \(display(bound)); got \(display(v))")
    }

    static func length(_ o: ManagedObject, _ a: AttributeDescription, _ s: String, _ bound: Int,
                       tooShort: Bool) -> ObjectGraphError {
        make(tooShort ? .validationStringTooShort : .validationStringTooLong, o, a.name, .string(s),
             "\(o.entity.name).\(a.name) must have \(tooShort ? "at least" : "at most") \(bound) "
                + "character\(bound == 1 ? "" : "s"); got \(s.count) (\"\(s.prefix(60))\")")
    }

    static func pattern(_ o: ManagedObject, _ a: AttributeDescription, _ s: String) -> ObjectGraphError {
        make(.validationStringPatternMatching, o, a.name, .string(s),
             "\(o.entity.name).\(a.name) must match \(a.pattern ?? ""); got \"\(s.prefix(60))\"")
    }

    static func tooFew(_ o: ManagedObject, _ r: RelationshipDescription, _ count: Int) -> ObjectGraphError {
        make(.validationRelationshipLacksMinimumCount, o, r.name, nil,
             "\(o.entity.name).\(r.name) must hold at least \(r.minCount) objects; holds \(count)")
    }

    static func tooMany(_ o: ManagedObject, _ r: RelationshipDescription, _ count: Int) -> ObjectGraphError {
        make(.validationRelationshipExceedsMaximumCount, o, r.name, nil,
             "\(o.entity.name).\(r.name) must hold at most \(r.maxCount) objects; holds \(count)")
    }

    static func denied(_ o: ManagedObject, _ r: RelationshipDescription, count: Int) -> ObjectGraphError {
        make(.validationRelationshipDeniedDelete, o, r.name, nil,
             "\(o.entity.name) \(o.objectID) cannot be deleted: \(r.name) still holds \(count) "
                + "\(r.destinationEntityName) object\(count == 1 ? "" : "s") (delete rule deny)")
    }

    static func display(_ v: AttributeValue) -> String {
        switch v {
        case .decimal(let d): "\(d)"
        case .integer(let i): "\(i)"
        case .double(let d): "\(d)"
        case .float(let f): "\(f)"
        case .date(let d): ISO8601DateFormatter().string(from: d)
        case .string(let s): "\"\(s)\""
        default: "\(v)"
        }
    }
}
