import Foundation

/// The storable type of an attribute: Core Data's `NSAttributeType`, without the `NS`.
///
/// Each case maps to one ``AttributeValue`` case (the integer widths share `.integer`,
/// range-checked against the width). `rawValue` is the spelling used by the JSON model
/// format (`"integer16"`, `"binaryData"`, …).
///
/// - Note: Mirrors `NSAttributeType`. `objectIDAttributeType` and `compositeAttributeType`
///   have no counterpart; `undefined` is accepted only for transient attributes.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A 16-bit signed integer (`Int16`), stored as ``AttributeValue/integer(_:)``.
    case integer16
    /// A 32-bit signed integer (`Int32`), stored as ``AttributeValue/integer(_:)``.
    case integer32
    /// A 64-bit signed integer (`Int64`), stored as ``AttributeValue/integer(_:)``.
    case integer64
    /// An exact decimal number (`Decimal`), every digit kept.
    case decimal
    /// A 64-bit IEEE 754 floating-point number (`Double`), bit pattern kept.
    case double
    /// A 32-bit IEEE 754 floating-point number (`Float`), bit pattern kept.
    case float
    /// A Unicode string.
    case string
    /// A Boolean.
    case boolean
    /// An instant (`Date`), its exact time interval kept.
    case date
    /// Raw bytes (`Data`): Core Data's Binary Data.
    case binaryData
    /// A `UUID`.
    case uuid
    /// A URL: Core Data's URI type.
    case uri
    /// A `Codable` payload kept as its JSON encoding: Core Data's Transformable.
    case transformable
    /// No storable type: transient attributes only, holding any ``AttributeValue``.
    case undefined

    /// Whether the type is one of the three integer widths.
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Whether values of the type are numbers (integers, decimal, double, float).
    public var isNumeric: Bool {
        isInteger || self == .decimal || self == .double || self == .float
    }

    /// The inclusive range an integer type can hold, or `nil` for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}
