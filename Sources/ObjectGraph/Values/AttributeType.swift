import Foundation

/// The storable type of an attribute: Core Data's `NSAttributeType`, without the `NS`.
///
/// Each case maps to one ``AttributeValue`` case (the integer widths share `.integer`,
/// range-checked against the width). `rawValue` is the spelling used by the JSON model
/// format and by version hashes (`"integer16"`, `"binaryData"`, …); ``coreDataRawValue`` is
/// Core Data's number for the type (`integer16` is 100, `transformable` 1800), for code that
/// stores or compares those numbers.
///
/// ```swift
/// AttributeType.decimal.coreDataRawValue                  // 400
/// AttributeType(coreDataRawValue: 1100)                   // .uuid
/// ```
///
/// - Note: Mirrors `NSAttributeType`. `compositeAttributeType` has no counterpart;
///   `undefined` is accepted only for transient attributes, and ``objectID`` only as the
///   result type of an ``ExpressionDescription``.
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
    /// An object ID: the result type of an ``ExpressionDescription`` that fetches objects'
    /// IDs (`SELF`, or a to-one key path) in dictionary results. Never an attribute's type.
    case objectID

    /// Core Data's number for the type (`NSAttributeType`'s raw value).
    ///
    /// `undefined` 0, `integer16` 100, `integer32` 200, `integer64` 300, `decimal` 400,
    /// `double` 500, `float` 600, `string` 700, `boolean` 800, `date` 900, `binaryData`
    /// 1000, `uuid` 1100, `uri` 1200, `transformable` 1800, `objectID` 2000.
    ///
    /// - Note: Mirrors `NSAttributeType.rawValue`.
    public var coreDataRawValue: UInt {
        switch self {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binaryData: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        }
    }

    /// The type whose Core Data number is `coreDataRawValue`, or `nil` for a number with no
    /// counterpart (Core Data's composite type, 2100, or any other).
    ///
    /// - Note: Mirrors `NSAttributeType(rawValue:)`.
    public init?(coreDataRawValue: UInt) {
        guard let type = Self.allCases.first(where: { $0.coreDataRawValue == coreDataRawValue })
        else { return nil }
        self = type
    }

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
