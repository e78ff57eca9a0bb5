import Foundation

/// A Swift type an ``Attribute`` property can have: converts to and from ``AttributeValue``.
///
/// Built in: the integer types, `Double`, `Float`, `Decimal`, `Bool`, `String`, `Date`,
/// `Data`, `UUID`, `URL`, and `Optional` of any of them. A non-optional property reads a
/// missing value as ``nullValue`` (0, `false`, `""`, …), as Core Data's scalar accessors do.
///
/// The built-in conformances are inlinable: ``Attribute``'s accessors, specialised in the
/// caller's module, convert without a call through the protocol.
public protocol AttributeConvertible {
    /// The value from a stored value, or `nil` when the stored value has another type.
    static func fromAttributeValue(_ value: AttributeValue) -> Self?
    /// The stored form of the value.
    var attributeValue: AttributeValue { get }
    /// What a missing (`.null`) value reads as.
    static var nullValue: Self { get }
    /// Whether a key-path probe (how `FetchSortDescriptor(_:)` and `FetchPredicate(_:)` learn
    /// a property's key from a Swift key path) tells this type's properties by a marker
    /// value, so that `@Attribute` need not hand it the property's own key path.
    ///
    /// `true` for every built-in conformer. The default, `false`, is right for a type of your
    /// own: the probe then compares the key path it converts with the property's own, so a
    /// computed property of the same type is never taken for the attribute it reads. It costs
    /// that type's accessors a key path made on each access.
    ///
    /// - Note: No Core Data counterpart: Core Data reads key paths by their Objective-C names.
    static var probesByMarker: Bool { get }
}

extension AttributeConvertible {
    /// `false`: the probe compares key paths (see ``probesByMarker``).
    @inlinable public static var probesByMarker: Bool { false }
}

extension Optional: AttributeConvertible where Wrapped: AttributeConvertible {
    /// `nil` for `.null`, else the wrapped conversion.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Self? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromAttributeValue(value).map { .some($0) }
    }
    /// `.null` for `nil`.
    @inlinable public var attributeValue: AttributeValue { self?.attributeValue ?? .null }
    /// `nil`.
    @inlinable public static var nullValue: Self { nil }
    /// The wrapped type's.
    @inlinable public static var probesByMarker: Bool { Wrapped.probesByMarker }
}

extension String: AttributeConvertible {
    /// The string of a `.string` value.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> String? {
        if case .string(let s) = value { s } else { nil }
    }
    /// `.string`.
    @inlinable public var attributeValue: AttributeValue { .string(self) }
    /// `""`.
    @inlinable public static var nullValue: String { "" }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Bool: AttributeConvertible {
    /// The Boolean of a `.boolean` value (or an integer 0/1).
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Bool? {
        switch value {
        case .boolean(let b): b
        case .integer(let i): i != 0
        default: nil
        }
    }
    /// `.boolean`.
    @inlinable public var attributeValue: AttributeValue { .boolean(self) }
    /// `false`.
    @inlinable public static var nullValue: Bool { false }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Decimal: AttributeConvertible {
    /// The decimal of a `.decimal` (or `.integer`) value.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Decimal? {
        switch value {
        case .decimal(let d): d
        case .integer(let i): Decimal(i)
        default: nil
        }
    }
    /// `.decimal`.
    @inlinable public var attributeValue: AttributeValue { .decimal(self) }
    /// 0.
    @inlinable public static var nullValue: Decimal { 0 }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Double: AttributeConvertible {
    /// The number of a `.double`, `.float` or `.integer` value.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Double? {
        switch value {
        case .double(let d): d
        case .float(let f): Double(f)
        case .integer(let i): Double(i)
        default: nil
        }
    }
    /// `.double`.
    @inlinable public var attributeValue: AttributeValue { .double(self) }
    /// 0.
    @inlinable public static var nullValue: Double { 0 }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Float: AttributeConvertible {
    /// The number of a `.float` value (or a `.double`, narrowed).
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Float? {
        switch value {
        case .float(let f): f
        case .double(let d): Float(d)
        case .integer(let i): Float(i)
        default: nil
        }
    }
    /// `.float`.
    @inlinable public var attributeValue: AttributeValue { .float(self) }
    /// 0.
    @inlinable public static var nullValue: Float { 0 }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Date: AttributeConvertible {
    /// The date of a `.date` value.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Date? {
        if case .date(let d) = value { d } else { nil }
    }
    /// `.date`.
    @inlinable public var attributeValue: AttributeValue { .date(self) }
    /// 1970-01-01T00:00:00Z.
    @inlinable public static var nullValue: Date { Date(timeIntervalSince1970: 0) }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Data: AttributeConvertible {
    /// The bytes of a `.data` or `.transformable` value.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Data? {
        switch value {
        case .data(let d), .transformable(let d): d
        default: nil
        }
    }
    /// `.data`.
    @inlinable public var attributeValue: AttributeValue { .data(self) }
    /// Empty data.
    @inlinable public static var nullValue: Data { Data() }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension UUID: AttributeConvertible {
    /// The UUID of a `.uuid` value.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> UUID? {
        if case .uuid(let u) = value { u } else { nil }
    }
    /// `.uuid`.
    @inlinable public var attributeValue: AttributeValue { .uuid(self) }
    /// The all-zero UUID.
    @inlinable public static var nullValue: UUID {
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension URL: AttributeConvertible {
    /// The URL of a `.uri` value.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> URL? {
        if case .uri(let u) = value { u } else { nil }
    }
    /// `.uri`.
    @inlinable public var attributeValue: AttributeValue { .uri(self) }
    /// `about:blank`.
    @inlinable public static var nullValue: URL { URL(string: "about:blank")! }
    /// `true`: the probe has a marker value of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

/// Integer conformances share one implementation, range-checked on read.
public protocol IntegerAttribute: AttributeConvertible, FixedWidthInteger {}

extension IntegerAttribute {
    /// The integer of an `.integer` value, when it fits this type.
    @inlinable public static func fromAttributeValue(_ value: AttributeValue) -> Self? {
        if case .integer(let i) = value { return Self(exactly: i) }
        return nil
    }
    /// `.integer`.
    @inlinable public var attributeValue: AttributeValue { .integer(Int64(self)) }
    /// 0.
    @inlinable public static var nullValue: Self { 0 }
    /// `true`: the probe has integer markers.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Int: IntegerAttribute {}
extension Int16: IntegerAttribute {}
extension Int32: IntegerAttribute {}
extension Int64: IntegerAttribute {}
