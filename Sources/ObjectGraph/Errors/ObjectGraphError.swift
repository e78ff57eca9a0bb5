import Foundation

/// The one error type ObjectGraph throws: a real `NSError` in `NSCocoaErrorDomain` with Core
/// Data's numeric codes and userInfo keys, a ``reason`` that names the condition, a message a
/// person can act on, and the entity, key, value and objects involved.
///
/// Because every error is an `NSError` instance, code written against Core Data's errors
/// ports unchanged, on Linux too: `catch let error as NSError`, `error as NSError`,
/// `error.code == NSValidationMissingMandatoryPropertyError` and
/// `userInfo[NSValidationKeyErrorKey]` all work. Match a condition by its ``reason``, never by
/// the message:
///
/// ```swift
/// do {
///     try context.save()
/// } catch ObjectGraphError.missingMandatoryProperty {
///     // 1570
/// } catch let error as ObjectGraphError where error.reason == .constraintConflict {
///     // 133021
/// } catch let error as NSError {
///     print(error.domain, error.code, error.localizedDescription)
/// }
/// ```
///
/// The ``message`` (also the `localizedDescription`) is not API; ``reason`` and `code` are.
///
/// - Note: Mirrors the `NSError`s Core Data returns (`CoreDataErrors.h`).
public final class ObjectGraphError: NSError, LocalizedError, @unchecked Sendable {
    // Sendable: every stored property is a `let` of a Sendable type. The userInfo values that
    // are not Sendable (the managed objects and conflicts Core Data puts there too) are read
    // on their context's queue, as in Core Data.

    /// The condition: a stable identity to match (`catch ObjectGraphError.stringTooLong`,
    /// `error.reason == .mergeConflict`). Its ``Reason/code`` is the error's `code`.
    public let reason: Reason
    /// What went wrong, in one sentence that names what is at fault (the
    /// `localizedDescription`).
    public let message: String
    /// The entity involved, if any.
    public let entityName: String?
    /// The property key involved, if any (also `userInfo[NSValidationKeyErrorKey]`).
    public let key: String?
    /// The offending value, if any (also `userInfo[NSValidationValueErrorKey]`).
    public let value: AttributeValue?
    /// The object involved, by ID, if any.
    public let objectID: ManagedObjectID?
    /// The file involved (stores, models, fixtures), if any (also
    /// `userInfo[NSFilePathErrorKey]`).
    public let file: String?
    /// The 1-based line in ``file``, if known.
    public let line: Int?
    /// The 1-based column in ``file`` or in a parsed string, if known.
    public let column: Int?
    /// The errors this one collects (each validation failure of a 1560, for instance); the
    /// same errors as `NSError`s are under `userInfo[NSDetailedErrorsKey]`.
    public let underlying: [ObjectGraphError]
    /// The error of another domain this entry stands for, unchanged (your own validation error
    /// collected into a 1560's list); `nil` for ObjectGraph's own errors.
    ///
    /// Such an entry has the original's domain and code and the reason ``Reason/otherError``;
    /// in `NSDetailedErrorsKey` it appears as the original error itself.
    public let originalError: (any Error)?

    /// Creates an error of `reason`, with Core Data's domain, `reason`'s code and a userInfo
    /// built from the arguments.
    ///
    /// ObjectGraph builds its errors with one factory per condition, beside the subsystem
    /// that throws it; a store of your own throws the reasons its protocol documents
    /// (``Reason/storeSaveConflict``, ``Reason/danglingReference``, …) with this initializer:
    ///
    /// ```swift
    /// throw ObjectGraphError(.storeSaveConflict, "store: \(id) changed since it was read",
    ///                        entityName: id.entity.name, objectID: id)
    /// ```
    ///
    /// - Parameters:
    ///   - reason: The condition; its code is the error's `code`.
    ///   - message: One sentence naming what is wrong (the `localizedDescription`).
    ///   - entityName: The entity involved.
    ///   - key: The property involved (`NSValidationKeyErrorKey`).
    ///   - value: The offending value (`NSValidationValueErrorKey`).
    ///   - objectID: The object involved.
    ///   - file: The file involved (`NSFilePathErrorKey`).
    ///   - line: The 1-based line in `file`.
    ///   - column: The 1-based column in `file` or in a parsed string.
    ///   - underlying: The errors this one collects (`NSDetailedErrorsKey`).
    ///   - extra: Entries added to the userInfo built from the other arguments (conflict
    ///     lists, the object that failed validation).
    public init(
        _ reason: Reason, _ message: String, entityName: String? = nil, key: String? = nil,
        value: AttributeValue? = nil, objectID: ManagedObjectID? = nil, file: String? = nil,
        line: Int? = nil, column: Int? = nil, underlying: [ObjectGraphError] = [],
        userInfo extra: [String: Any] = [:]
    ) {
        self.reason = reason
        self.message = message
        self.entityName = entityName
        self.key = key
        self.value = value
        self.objectID = objectID
        self.file = file
        self.line = line
        self.column = column
        self.underlying = underlying
        self.originalError = nil
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let key { info[NSValidationKeyErrorKey] = key }
        if let value, !value.isNull { info[NSValidationValueErrorKey] = value.bridgedObject }
        if let file { info[NSFilePathErrorKey] = file }
        if !underlying.isEmpty { info[NSDetailedErrorsKey] = underlying.map(\.detailedError) }
        info.merge(extra) { _, new in new }
        super.init(domain: NSCocoaErrorDomain, code: reason.code, userInfo: info)
    }

    /// Wraps an error of another domain so it can sit in ``underlying`` unchanged: the
    /// wrapper has its domain, code, userInfo and `localizedDescription`. An
    /// `ObjectGraphError` passed here is returned as is.
    package static func wrapping(_ error: any Error) -> ObjectGraphError {
        if let own = error as? ObjectGraphError { return own }
        return ObjectGraphError(other: error)
    }

    private init(other error: any Error) {
        let ns = error as NSError
        self.reason = .otherError
        self.message = ns.localizedDescription
        self.entityName = nil
        self.key = ns.userInfo[NSValidationKeyErrorKey] as? String
        self.value = nil
        self.objectID = nil
        self.file = nil
        self.line = nil
        self.column = nil
        self.underlying = []
        self.originalError = error
        super.init(domain: ns.domain, code: ns.code, userInfo: ns.userInfo)
    }

    /// Unavailable: ObjectGraph's errors are not archived.
    public required init?(coder: NSCoder) { nil }

    /// The message, for `localizedDescription` (`LocalizedError`).
    public var errorDescription: String? { message }
    /// The message, as `NSError` reports it.
    public override var localizedDescription: String { message }
    /// The message with its code, e.g. `"error 1570: Transaction.date is required"`.
    public override var description: String {
        originalError == nil ? "error \(code): \(message)" : "\(domain) \(code): \(message)"
    }

    /// The error as a `detailedErrors` entry: the original for a wrapped error, else itself.
    var detailedError: NSError { originalError.map { $0 as NSError } ?? self }

    /// The same error with another message and place: a reader that knows the file and line
    /// (a model file, a fixture) rewords what a lower layer reported, keeping its reason.
    package func relocated(
        message: String, file: String?, line: Int? = nil, column: Int? = nil,
        underlying: [ObjectGraphError]? = nil, userInfo extra: [String: Any] = [:]
    ) -> ObjectGraphError {
        ObjectGraphError(
            reason, message, entityName: entityName, key: key, value: value, objectID: objectID,
            file: file, line: line, column: column, underlying: underlying ?? self.underlying,
            userInfo: ownUserInfo.merging(extra) { _, new in new })
    }

    /// The userInfo entries that ``init(_:_:entityName:key:value:objectID:file:line:column:underlying:userInfo:)``
    /// does not rebuild from the other properties.
    var ownUserInfo: [String: Any] {
        userInfo.filter {
            ![
                NSLocalizedDescriptionKey, NSValidationKeyErrorKey, NSValidationValueErrorKey,
                NSFilePathErrorKey, NSDetailedErrorsKey,
            ].contains($0.key)
        }
    }
}

/// A value carried across threads without a compile-time `Sendable` proof.
///
/// Core Data's notifications and errors carry objects that are not `Sendable` (managed
/// objects, conflict records). Read such values only on the queue they came from.
public struct UncheckedSendable<Value>: @unchecked Sendable {
    // Sendable: by contract only; the wrapped value is read on its owner's queue.
    /// The wrapped value.
    public let value: Value
    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }
}

extension AttributeValue {
    /// The value as the Foundation object Core Data would hand out (`NSNumber`, `NSString`,
    /// `NSDate`, …), for `NSError` userInfo and `NSDictionary` results.
    public var bridgedObject: Any {
        switch self {
        case .null: NSNull()
        case .integer(let v): NSNumber(value: v)
        case .decimal(let v): NSDecimalNumber(decimal: v)
        case .double(let v): NSNumber(value: v)
        case .float(let v): NSNumber(value: v)
        case .string(let v): v
        case .boolean(let v): NSNumber(value: v)
        case .date(let v): v
        case .data(let v): v
        case .uuid(let v): v
        case .uri(let v): v
        case .transformable(let v): v
        }
    }
}
