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
    /// - Returns: `nil`, the single error, or a `.multipleValidationErrors` (1560) error.
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
            if own.reason == .multipleValidationErrors && !own.underlying.isEmpty {
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
        list.append(.wrapping(error))
    }

    /// A validation error of your own rule, shaped like the model's: Core Data's domain, the
    /// code of `reason` (default ``Reason/validationFailed``, 1550, Core Data's generic
    /// validation error), the object under `NSValidationObjectErrorKey`, the key and the value.
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
    ///   - reason: A validation reason (1550–1690), e.g. ``Reason/stringTooLong``; default
    ///     ``Reason/validationFailed`` (1550).
    /// - Note: Mirrors the `NSError`s Core Data builds for predicate-based validation (1550).
    public static func validationError(
        _ message: String, object: ManagedObject, key: String? = nil, value: AttributeValue? = nil,
        reason: Reason = .validationFailed
    ) -> ObjectGraphError {
        ObjectGraphError(
            reason, message, entityName: object.entity.name, key: key, value: value,
            objectID: object.objectID, userInfo: [NSValidationObjectErrorKey: object])
    }
}
