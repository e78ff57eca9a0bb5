import Foundation

extension ObjectGraphError {
    /// Combines validation failures the way Core Data does: `nil` for none, the error
    /// itself for one (whatever its domain), and a 1560 listing every failure for several.
    ///
    /// Nested 1560s are flattened, so the list holds single failures only. Errors of other
    /// domains are kept unchanged: a custom error thrown alone comes back as is, and inside
    /// a 1560 it appears in `NSDetailedErrorsKey` with its own domain, code and userInfo.
    /// Use it in `validateForInsert()` / `validateForUpdate()` overrides to combine your
    /// errors with `super`'s:
    ///
    /// ```swift
    /// override func validateForInsert() throws {
    ///     var errors: [any Error] = []
    ///     do { try super.validateForInsert() } catch { errors.append(error) }
    ///     if let end, let start, end < start {
    ///         errors.append(ObjectGraphError.validationError("Trip.end must not be before Trip.start",
    ///                                                        object: self, key: "end"))
    ///     }
    ///     if let error = ObjectGraphError.combining(errors) { throw error }
    /// }
    /// ```
    ///
    /// - Returns: `nil`, the single error, or a `.validationMultipleErrors` (1560) error.
    /// - Note: Mirrors the error combining Core Data's documentation asks subclasses to do
    ///   (`errorFromOriginalError:error:` in Apple's sample code).
    public static func combining(_ errors: [any Error]) -> (any Error)? {
        var flat: [ObjectGraphError] = []
        for error in errors { flatten(error, into: &flat) }
        switch flat.count {
        case 0: return nil
        case 1: return flat[0].originalError ?? flat[0]
        default: return ValidationErrors.multiple(flat)
        }
    }

    private static func flatten(_ error: any Error, into list: inout [ObjectGraphError]) {
        if let own = error as? ObjectGraphError {
            if own.code == .validationMultipleErrors && own.originalError == nil
                && !own.underlying.isEmpty
            {
                for entry in own.underlying { flatten(entry, into: &list) }
            } else if let original = own.originalError {
                flatten(original, into: &list)
            } else {
                list.append(own)
            }
            return
        }
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain, ns.code == NSValidationMultipleErrorsError,
            let nested = ns.userInfo[NSDetailedErrorsKey] as? [NSError], !nested.isEmpty
        {
            for entry in nested { flatten(entry, into: &list) }
            return
        }
        list.append(ObjectGraphError(wrapping: error))
    }

    /// A validation error of your own rule, shaped like the model's: Core Data's domain,
    /// `code` (default 1550, the generic validation error), the object under
    /// `NSValidationObjectErrorKey`, the key and the value.
    ///
    /// ```swift
    /// throw ObjectGraphError.validationError("Category.name must not be \"Uncategorized\"",
    ///                                        object: self, key: "name", value: "Uncategorized")
    /// ```
    ///
    /// - Parameters:
    ///   - message: What is wrong, naming entity, key and value (it is the
    ///     `localizedDescription`).
    ///   - object: The object that failed.
    ///   - key: The property that failed, if one did.
    ///   - value: The offending value, if any.
    ///   - code: One of the validation codes (1550–1690); default `.validation` (1550).
    /// - Note: Mirrors the `NSError`s Core Data builds for predicate-based validation (1550).
    public static func validationError(
        _ message: String, object: ManagedObject, key: String? = nil, value: AttributeValue? = nil,
        code: Code = .validation
    ) -> ObjectGraphError {
        ObjectGraphError(
            code, message, entityName: object.entity.name, key: key, value: value,
            objectID: object.objectID,
            extraUserInfo: [NSValidationObjectErrorKey: UncheckedSendable(object as Any)])
    }
}

/// Validation error factories: one message style for every rule.
enum ValidationErrors {
    static func multiple(_ errors: [ObjectGraphError]) -> ObjectGraphError {
        ObjectGraphError(
            .validationMultipleErrors,
            "\(errors.count) validation errors: " + errors.map(\.message).joined(separator: "; "),
            underlying: errors)
    }

    static func make(
        _ code: ObjectGraphError.Code, _ object: ManagedObject, _ key: String,
        _ value: AttributeValue?, _ message: String
    ) -> ObjectGraphError {
        ObjectGraphError.validationError(
            message, object: object, key: key, value: value, code: code)
    }

    /// A value failing one of the attribute's validation predicates: 1550 with the model's
    /// warning as its message (its `localizedDescription`), as Core Data reports it.
    static func predicate(
        _ o: ManagedObject, _ a: AttributeDescription, _ v: AttributeValue,
        _ predicate: FetchPredicate, warning: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .validation, warning, entityName: o.entity.name, key: a.name, value: v,
            objectID: o.objectID,
            extraUserInfo: [
                NSValidationObjectErrorKey: UncheckedSendable(o as Any),
                NSValidationPredicateErrorKey: UncheckedSendable(predicate as Any),
            ])
    }

    static func missing(_ o: ManagedObject, _ key: String) -> ObjectGraphError {
        make(
            .validationMissingMandatoryProperty, o, key, nil, "\(o.entity.name).\(key) is required")
    }

    static func wrongType(_ o: ManagedObject, _ key: String, expected: String, got value: Any?)
        -> ObjectGraphError
    {
        make(
            .validation, o, key, nil,
            "\(o.entity.name).\(key) must be \(expected); got \(value.map { "\($0) (\(type(of: $0)))" } ?? "nil")"
        )
    }

    static func limit(
        _ o: ManagedObject, _ a: AttributeDescription, _ v: AttributeValue, _ bound: AttributeValue,
        tooSmall: Bool
    ) -> ObjectGraphError {
        let isDate = a.type == .date
        let code: ObjectGraphError.Code =
            isDate
            ? (tooSmall ? .validationDateTooSoon : .validationDateTooLate)
            : (tooSmall ? .validationNumberTooSmall : .validationNumberTooLarge)
        let rule =
            isDate
            ? (tooSmall ? "must not be before" : "must not be after")
            : (tooSmall ? "must be at least" : "must be at most")
        return make(
            code, o, a.name, v,
            "\(o.entity.name).\(a.name) \(rule) \(display(bound)); got \(display(v))")
    }

    static func length(
        _ o: ManagedObject, _ a: AttributeDescription, _ s: String, _ bound: Int,
        tooShort: Bool
    ) -> ObjectGraphError {
        make(
            tooShort ? .validationStringTooShort : .validationStringTooLong, o, a.name, .string(s),
            "\(o.entity.name).\(a.name) must have \(tooShort ? "at least" : "at most") \(bound) "
                + "character\(bound == 1 ? "" : "s"); got \(s.count) (\"\(EchoedText.capped(s, limit: 60))\")"
        )
    }

    static func pattern(_ o: ManagedObject, _ a: AttributeDescription, _ s: String)
        -> ObjectGraphError
    {
        make(
            .validationStringPatternMatching, o, a.name, .string(s),
            "\(o.entity.name).\(a.name) must match \(a.pattern ?? ""); got \"\(EchoedText.capped(s, limit: 60))\""
        )
    }

    static func tooFew(_ o: ManagedObject, _ r: RelationshipDescription, _ count: Int)
        -> ObjectGraphError
    {
        make(
            .validationRelationshipLacksMinimumCount, o, r.name, nil,
            "\(o.entity.name).\(r.name) must hold at least \(r.minCount) object\(r.minCount == 1 ? "" : "s"); "
                + "holds \(count)")
    }

    static func tooMany(_ o: ManagedObject, _ r: RelationshipDescription, _ count: Int)
        -> ObjectGraphError
    {
        make(
            .validationRelationshipExceedsMaximumCount, o, r.name, nil,
            "\(o.entity.name).\(r.name) must hold at most \(r.maxCount) object\(r.maxCount == 1 ? "" : "s"); "
                + "holds \(count)")
    }

    static func denied(_ o: ManagedObject, _ r: RelationshipDescription, count: Int)
        -> ObjectGraphError
    {
        make(
            .validationRelationshipDeniedDelete, o, r.name, nil,
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
