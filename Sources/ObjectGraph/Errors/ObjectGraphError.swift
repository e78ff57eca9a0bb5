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
        if !underlying.isEmpty {
            info[NSDetailedErrorsKey] = underlying.map { NSError(domain: Self.errorDomain, code: $0.errorCode,
                                                                  userInfo: $0.errorUserInfo) }
        }
        for (k, v) in extraUserInfo { info[k] = v.value }
        return info
    }
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
    /// The message with its code, e.g. `"error 1570: Transaction.date is required"`.
    public var description: String { "error \(code.rawValue): \(message)" }

    /// The error and everything under it, one per line, indented by depth.
    public var treeDescription: String {
        var lines: [String] = []
        func walk(_ e: ObjectGraphError, _ depth: Int) {
            lines.append(String(repeating: "  ", count: depth) + e.description)
            for u in e.underlying { walk(u, depth + 1) }
        }
        walk(self, 0)
        return lines.joined(separator: "\n")
    }
}

/// A value carried across threads inside an error without a compile-time `Sendable` proof.
///
/// Errors must be `Sendable`; Core Data's userInfo holds objects that are not (managed
/// objects, conflict records). Read such values only on the queue they came from.
// Sendable: by contract only; the wrapped value is read on its owner's queue.
public struct UncheckedSendable<Value>: @unchecked Sendable {
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
