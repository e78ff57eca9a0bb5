import Foundation

/// The one error type ObjectGraph throws: Core Data's domain and numeric codes, a message a
/// person can act on, and the entity, key, value and objects involved.
///
/// Bridges to `NSError` through `CustomNSError`: `(error as NSError).domain` is
/// `NSCocoaErrorDomain`, `.code` is Core Data's number (1570, 133020, 134030, …) and
/// `.userInfo` carries Core Data's keys (`NSValidationKeyErrorKey`, `NSDetailedErrorsKey`,
/// …), so code written against Core Data's errors keeps working. On Linux,
/// `catch let e as NSError` does not match a Swift error; write `error as NSError`.
///
/// The ``message`` text is not API; ``code`` is.
///
/// - Note: Mirrors the `NSError`s Core Data returns (`CoreDataErrors.h`).
public struct ObjectGraphError: Error, CustomNSError, LocalizedError, CustomStringConvertible {
    /// The numeric code: Core Data's value wherever Core Data has one.
    public let code: Code
    /// What went wrong, in one sentence that names what is at fault.
    public let message: String
    /// The entity involved, if any.
    public let entityName: String?
    /// The property key involved, if any.
    public let key: String?
    /// The offending value, if any.
    public let value: AttributeValue?
    /// The object involved, by ID, if any.
    public let objectID: ManagedObjectID?
    /// The file involved (stores, models, fixtures), if any.
    public let file: String?
    /// The 1-based line in ``file``, if known.
    public let line: Int?
    /// The 1-based column in ``file`` or in a parsed string, if known.
    public let column: Int?
    /// The errors this one collects (each validation failure of a 1560, for instance).
    public let underlying: [ObjectGraphError]
    /// Extra userInfo entries, under Core Data's keys (conflict lists, validation objects).
    public let extraUserInfo: [String: UncheckedSendable<Any>]
    /// The error of another domain this entry stands for, unchanged (a custom validation
    /// error collected into a 1560's list); `nil` for ObjectGraph's own errors.
    ///
    /// In `NSDetailedErrorsKey` such an entry appears as that error itself (its own domain,
    /// code and userInfo); see ``init(wrapping:)``.
    public let originalError: (any Error)?

    /// Creates an error. Prefer the static factories, which keep wording consistent.
    public init(
        _ code: Code, _ message: String, entityName: String? = nil, key: String? = nil,
        value: AttributeValue? = nil, objectID: ManagedObjectID? = nil, file: String? = nil,
        line: Int? = nil, column: Int? = nil, underlying: [ObjectGraphError] = [],
        extraUserInfo: [String: UncheckedSendable<Any>] = [:]
    ) {
        self.code = code
        self.message = message
        self.entityName = entityName
        self.key = key
        self.value = value
        self.objectID = objectID
        self.file = file
        self.line = line
        self.column = column
        self.underlying = underlying
        self.extraUserInfo = extraUserInfo
        self.originalError = nil
    }

    /// Wraps an error of another domain so it can sit in ``underlying`` unchanged.
    ///
    /// The wrapper takes the error's code and `localizedDescription`; bridging a 1560 back
    /// to `NSError` puts the original error itself in `NSDetailedErrorsKey`. An
    /// `ObjectGraphError` passed here is returned as is.
    public init(wrapping error: any Error) {
        if let own = error as? ObjectGraphError {
            self = own
            return
        }
        let ns = error as NSError
        self.code = Code(rawValue: ns.code)
        self.message = ns.localizedDescription
        self.entityName = nil
        self.key = ns.userInfo[NSValidationKeyErrorKey] as? String
        self.value = nil
        self.objectID = nil
        self.file = nil
        self.line = nil
        self.column = nil
        self.underlying = []
        self.extraUserInfo = [:]
        self.originalError = error
    }

    /// `NSCocoaErrorDomain`, as Core Data uses.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// Core Data's numeric code.
    public var errorCode: Int { code.rawValue }
    /// Core Data's userInfo: description, key, value, object and detailed errors.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let key { info[NSValidationKeyErrorKey] = key }
        if let value, !value.isNull { info[NSValidationValueErrorKey] = value.bridgedObject }
        if let file { info[NSFilePathErrorKey] = file }
        if !underlying.isEmpty { info[NSDetailedErrorsKey] = underlying.map(\.bridgedNSError) }
        for (k, v) in extraUserInfo { info[k] = v.value }
        return info
    }
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
    /// The message with its code, e.g. `"error 1570: Transaction.date is required"`.
    public var description: String { "error \(code.rawValue): \(message)" }

    /// The error and everything under it, one per line, indented two spaces per level.
    ///
    /// Each line is the code and message (``description``); an error of another domain
    /// shows its domain too (`MyAppErrors 7: …`). Conflict lists are listed under a 133020
    /// or 133021, one conflict per line.
    ///
    /// ```
    /// error 1560: 2 validation errors: Parcel.slug is required; Parcel.name is required
    ///   error 1570: Parcel.slug is required
    ///   error 1570: Parcel.name is required
    /// ```
    public var treeDescription: String {
        var lines: [String] = []
        func walk(_ e: ObjectGraphError, _ depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            if let original = e.originalError {
                let ns = original as NSError
                lines.append(indent + "\(ns.domain) \(ns.code): \(ns.localizedDescription)")
                for nested in ns.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [] {
                    walk(ObjectGraphError(wrapping: nested), depth + 1)
                }
                return
            }
            lines.append(indent + e.description)
            for u in e.underlying { walk(u, depth + 1) }
            for conflict in e.extraUserInfo[NSPersistentStoreSaveConflictsErrorKey]?.value as? [Any]
                ?? []
            {
                lines.append(indent + "  conflict: \(conflict)")
            }
        }
        walk(self, 0)
        return lines.joined(separator: "\n")
    }

    /// The error as a real `NSError`: the original for a wrapped error, else Core Data's
    /// domain, code and userInfo.
    var bridgedNSError: NSError {
        if let originalError { return originalError as NSError }
        return NSError(domain: Self.errorDomain, code: errorCode, userInfo: errorUserInfo)
    }
}

/// A value carried across threads inside an error without a compile-time `Sendable` proof.
///
/// Errors must be `Sendable`; Core Data's userInfo holds objects that are not (managed
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
