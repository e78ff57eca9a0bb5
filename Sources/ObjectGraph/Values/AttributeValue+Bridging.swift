import Foundation

extension AttributeValue {
    /// Converts a loosely typed Swift or Foundation value into a value for an attribute of
    /// `type`, or `nil` when it does not fit.
    ///
    /// Accepts `AttributeValue`, `nil`/`NSNull`, Swift integers (range-checked), `Double`,
    /// `Float`, `Decimal`, `NSNumber`/`NSDecimalNumber`, `Bool`, `String`, `Date`, `Data`,
    /// `UUID`, `URL`, and any `Encodable` for transformable attributes (stored as its JSON).
    /// Used by `setValue(_:forKey:)`, predicate arguments and fixtures.
    public init?(any value: Any?, for type: AttributeType) {
        guard let value = Self.unwrap(value) else {
            self = .null
            return
        }
        if let v = value as? AttributeValue {
            guard let c = v.coerced(to: type) else { return nil }
            self = c
            return
        }
        let raw: AttributeValue?
        switch value {
        case let v as Bool where type == .boolean: raw = .boolean(v)
        case let v as Int: raw = .integer(Int64(v))
        case let v as Int8: raw = .integer(Int64(v))
        case let v as Int16: raw = .integer(Int64(v))
        case let v as Int32: raw = .integer(Int64(v))
        case let v as Int64: raw = .integer(v)
        case let v as UInt8: raw = .integer(Int64(v))
        case let v as UInt16: raw = .integer(Int64(v))
        case let v as UInt32: raw = .integer(Int64(v))
        case let v as UInt: raw = Int64(exactly: v).map { .integer($0) }
        case let v as Double:
            raw = type == .decimal ? AttributeValue.double(v).coerced(to: .decimal) : .double(v)
        case let v as Float: raw = .float(v)
        case let v as Decimal: raw = .decimal(v)
        case let v as NSDecimalNumber: raw = .decimal(v.decimalValue)
        case let v as Bool: raw = .boolean(v)
        case let v as String: raw = .string(v)
        case let v as Date: raw = .date(v)
        case let v as Data: raw = type == .transformable ? .transformable(v) : .data(v)
        case let v as UUID: raw = .uuid(v)
        case let v as URL: raw = .uri(v)
        case let v as NSNumber: raw = Self.fromNumber(v, for: type)
        case let v as any Encodable where type == .transformable:
            raw = (try? JSONEncoder.canonical.encode(v)).map { .transformable($0) }
        default: raw = nil
        }
        guard let raw else { return nil }
        // Strings only become strings: "12" is not a number here (unlike coerced(to:)).
        if case .string = raw, type != .string && type != .undefined { return nil }
        guard let converted = raw.coerced(to: type) else { return nil }
        self = converted
    }

    /// `value` without its optional wrapping (`nil` for nil and `NSNull`).
    static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if value is NSNull { return nil }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let child = mirror.children.first else { return nil }
            return unwrap(child.value)
        }
        return value
    }

    private static func fromNumber(_ n: NSNumber, for type: AttributeType) -> AttributeValue? {
        switch type {
        case .boolean: return .boolean(n.boolValue)
        case .double: return .double(n.doubleValue)
        case .float: return .float(n.floatValue)
        case .decimal: return .decimal(n.decimalValue)
        default: return Int64(exactly: n.doubleValue).map { .integer($0) } ?? .double(n.doubleValue)
        }
    }

    /// The value as the Swift type an attribute of `type` naturally holds (`Int16` for
    /// `integer16`, `Decimal`, `String`, `Date`, …), or `nil` for `.null`.
    ///
    /// This is what `value(forKey:)` returns for attributes.
    public func swiftValue(for type: AttributeType) -> Any? {
        switch self {
        case .null: return nil
        case .integer(let v):
            switch type {
            case .integer16: return Int16(truncatingIfNeeded: v)
            case .integer32: return Int32(truncatingIfNeeded: v)
            default: return v
            }
        case .decimal(let v): return v
        case .double(let v): return v
        case .float(let v): return v
        case .string(let v): return v
        case .boolean(let v): return v
        case .date(let v): return v
        case .data(let v): return v
        case .uuid(let v): return v
        case .uri(let v): return v
        case .transformable(let v): return v
        }
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys, so equal values encode to equal bytes.
    static var canonical: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
