import Foundation

extension ObjectGraphError.Reason {
    /// 1550 (`NSManagedObjectValidationError`): a rule of your own failed (see
    /// ``ObjectGraphError/validationError(_:object:key:value:reason:)``).
    public static let validationFailed = Self("validationFailed", code: 1550)
    /// 1550 (`NSManagedObjectValidationError`): a value of the wrong type for its property.
    public static let wrongValueType = Self("wrongValueType", code: 1550)
    /// 1560 (`NSValidationMultipleErrorsError`): several failures, listed in
    /// ``ObjectGraphError/underlying`` and `NSDetailedErrorsKey`.
    public static let multipleValidationErrors = Self("multipleValidationErrors", code: 1560)
    /// 1570 (`NSValidationMissingMandatoryPropertyError`): a non-optional property is nil.
    public static let missingMandatoryProperty = Self("missingMandatoryProperty", code: 1570)
    /// 1580 (`NSValidationRelationshipLacksMinimumCountError`): a to-many below its minimum.
    public static let relationshipLacksMinimumCount = Self(
        "relationshipLacksMinimumCount", code: 1580)
    /// 1590 (`NSValidationRelationshipExceedsMaximumCountError`): a to-many above its maximum.
    public static let relationshipExceedsMaximumCount = Self(
        "relationshipExceedsMaximumCount", code: 1590)
    /// 1600 (`NSValidationRelationshipDeniedDeleteError`): a deny delete rule refused.
    public static let relationshipDeniedDelete = Self("relationshipDeniedDelete", code: 1600)
    /// 1610 (`NSValidationNumberTooLargeError`): a number above its maximum.
    public static let numberTooLarge = Self("numberTooLarge", code: 1610)
    /// 1620 (`NSValidationNumberTooSmallError`): a number below its minimum.
    public static let numberTooSmall = Self("numberTooSmall", code: 1620)
    /// 1630 (`NSValidationDateTooLateError`): a date after its maximum.
    public static let dateTooLate = Self("dateTooLate", code: 1630)
    /// 1640 (`NSValidationDateTooSoonError`): a date before its minimum.
    public static let dateTooSoon = Self("dateTooSoon", code: 1640)
    /// 1650 (`NSValidationInvalidDateError`): an invalid date.
    public static let invalidDate = Self("invalidDate", code: 1650)
    /// 1660 (`NSValidationStringTooLongError`): a string longer than its maximum.
    public static let stringTooLong = Self("stringTooLong", code: 1660)
    /// 1670 (`NSValidationStringTooShortError`): a string shorter than its minimum.
    public static let stringTooShort = Self("stringTooShort", code: 1670)
    /// 1680 (`NSValidationStringPatternMatchingError`): a string that does not match its pattern.
    public static let stringPatternMatching = Self("stringPatternMatching", code: 1680)
    /// 1690 (`NSValidationInvalidURIError`): a URI that cannot be represented.
    public static let invalidURI = Self("invalidURI", code: 1690)
}

extension ObjectGraphError {
    /// ``Reason/validationFailed`` (1550), for `catch ObjectGraphError.validationFailed`.
    public static var validationFailed: Reason { .validationFailed }
    /// ``Reason/wrongValueType`` (1550), for `catch` clauses.
    public static var wrongValueType: Reason { .wrongValueType }
    /// ``Reason/multipleValidationErrors`` (1560), for `catch` clauses.
    public static var multipleValidationErrors: Reason { .multipleValidationErrors }
    /// ``Reason/missingMandatoryProperty`` (1570), for `catch` clauses.
    public static var missingMandatoryProperty: Reason { .missingMandatoryProperty }
    /// ``Reason/relationshipLacksMinimumCount`` (1580), for `catch` clauses.
    public static var relationshipLacksMinimumCount: Reason { .relationshipLacksMinimumCount }
    /// ``Reason/relationshipExceedsMaximumCount`` (1590), for `catch` clauses.
    public static var relationshipExceedsMaximumCount: Reason { .relationshipExceedsMaximumCount }
    /// ``Reason/relationshipDeniedDelete`` (1600), for `catch` clauses.
    public static var relationshipDeniedDelete: Reason { .relationshipDeniedDelete }
    /// ``Reason/numberTooLarge`` (1610), for `catch` clauses.
    public static var numberTooLarge: Reason { .numberTooLarge }
    /// ``Reason/numberTooSmall`` (1620), for `catch` clauses.
    public static var numberTooSmall: Reason { .numberTooSmall }
    /// ``Reason/dateTooLate`` (1630), for `catch` clauses.
    public static var dateTooLate: Reason { .dateTooLate }
    /// ``Reason/dateTooSoon`` (1640), for `catch` clauses.
    public static var dateTooSoon: Reason { .dateTooSoon }
    /// ``Reason/invalidDate`` (1650), for `catch` clauses.
    public static var invalidDate: Reason { .invalidDate }
    /// ``Reason/stringTooLong`` (1660), for `catch` clauses.
    public static var stringTooLong: Reason { .stringTooLong }
    /// ``Reason/stringTooShort`` (1670), for `catch` clauses.
    public static var stringTooShort: Reason { .stringTooShort }
    /// ``Reason/stringPatternMatching`` (1680), for `catch` clauses.
    public static var stringPatternMatching: Reason { .stringPatternMatching }
    /// ``Reason/invalidURI`` (1690), for `catch` clauses.
    public static var invalidURI: Reason { .invalidURI }
}

/// Validation error factories: one message style for every rule.
enum ValidationErrors {
    static func multiple(_ errors: [ObjectGraphError]) -> ObjectGraphError {
        ObjectGraphError(
            .multipleValidationErrors,
            "\(errors.count) validation errors: " + errors.map(\.message).joined(separator: "; "),
            underlying: errors)
    }

    static func make(
        _ reason: ObjectGraphError.Reason, _ object: ManagedObject, _ key: String,
        _ value: AttributeValue?, _ message: String
    ) -> ObjectGraphError {
        ObjectGraphError.validationError(
            message, object: object, key: key, value: value, reason: reason)
    }

    /// A value failing one of the attribute's validation predicates: 1550 with the model's
    /// warning as its message (its `localizedDescription`), as Core Data reports it.
    static func predicate(
        _ o: ManagedObject, _ a: AttributeDescription, _ v: AttributeValue,
        _ predicate: FetchPredicate, warning: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .validationFailed, warning, entityName: o.entity.name, key: a.name, value: v,
            objectID: o.objectID,
            userInfo: [NSValidationObjectErrorKey: o, NSValidationPredicateErrorKey: predicate])
    }

    static func missing(_ o: ManagedObject, _ key: String) -> ObjectGraphError {
        make(
            .missingMandatoryProperty, o, key, nil, "\(o.entity.name).\(key) is required")
    }

    static func wrongType(_ o: ManagedObject, _ key: String, expected: String, got value: Any?)
        -> ObjectGraphError
    {
        make(
            .wrongValueType, o, key, nil,
            "\(o.entity.name).\(key) must be \(expected); got \(value.map { "\($0) (\(type(of: $0)))" } ?? "nil")"
        )
    }

    static func limit(
        _ o: ManagedObject, _ a: AttributeDescription, _ v: AttributeValue, _ bound: AttributeValue,
        tooSmall: Bool
    ) -> ObjectGraphError {
        let isDate = a.type == .date
        let reason: ObjectGraphError.Reason =
            isDate
            ? (tooSmall ? .dateTooSoon : .dateTooLate)
            : (tooSmall ? .numberTooSmall : .numberTooLarge)
        let rule =
            isDate
            ? (tooSmall ? "must not be before" : "must not be after")
            : (tooSmall ? "must be at least" : "must be at most")
        return make(
            reason, o, a.name, v,
            "\(o.entity.name).\(a.name) \(rule) \(display(bound)); got \(display(v))")
    }

    static func length(
        _ o: ManagedObject, _ a: AttributeDescription, _ s: String, _ bound: Int,
        tooShort: Bool
    ) -> ObjectGraphError {
        make(
            tooShort ? .stringTooShort : .stringTooLong, o, a.name, .string(s),
            "\(o.entity.name).\(a.name) must have \(tooShort ? "at least" : "at most") \(bound) "
                + "character\(bound == 1 ? "" : "s"); got \(s.count) (\"\(EchoedText.capped(s, limit: 60))\")"
        )
    }

    static func pattern(_ o: ManagedObject, _ a: AttributeDescription, _ s: String)
        -> ObjectGraphError
    {
        make(
            .stringPatternMatching, o, a.name, .string(s),
            "\(o.entity.name).\(a.name) must match \(a.pattern ?? ""); got \"\(EchoedText.capped(s, limit: 60))\""
        )
    }

    static func tooFew(_ o: ManagedObject, _ r: RelationshipDescription, _ count: Int)
        -> ObjectGraphError
    {
        make(
            .relationshipLacksMinimumCount, o, r.name, nil,
            "\(o.entity.name).\(r.name) must hold at least \(r.minCount) object\(r.minCount == 1 ? "" : "s"); "
                + "holds \(count)")
    }

    static func tooMany(_ o: ManagedObject, _ r: RelationshipDescription, _ count: Int)
        -> ObjectGraphError
    {
        make(
            .relationshipExceedsMaximumCount, o, r.name, nil,
            "\(o.entity.name).\(r.name) must hold at most \(r.maxCount) object\(r.maxCount == 1 ? "" : "s"); "
                + "holds \(count)")
    }

    static func denied(_ o: ManagedObject, _ r: RelationshipDescription, count: Int)
        -> ObjectGraphError
    {
        make(
            .relationshipDeniedDelete, o, r.name, nil,
            "\(o.entity.name) \(o.objectID) cannot be deleted: \(r.name) still holds \(count) "
                + "\(r.destinationEntityName) object\(count == 1 ? "" : "s") (delete rule deny); "
                + "delete or reassign \(count == 1 ? "it" : "them") first")
    }

    /// A value as a message shows it: numbers plainly, strings quoted, dates in ISO 8601.
    static func display(_ v: AttributeValue) -> String {
        switch v {
        case .null: "nil"
        case .decimal(let d): "\(d)"
        case .integer(let i): "\(i)"
        case .double(let d): "\(d)"
        case .float(let f): "\(f)"
        case .boolean(let b): "\(b)"
        case .date(let d): ISO8601DateFormatter().string(from: d)
        case .string(let s): "\"\(EchoedText.capped(s, limit: 60))\""
        case .uuid(let u): u.uuidString
        case .uri(let u): EchoedText.capped(u.absoluteString, limit: 60)
        case .data(let d), .transformable(let d): "<\(d.count) bytes>"
        }
    }
}
