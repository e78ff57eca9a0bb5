import Foundation

/// One storable value: the closed set of values that attributes hold and stores keep.
///
/// Every ``AttributeType`` maps to one case; `.null` is the absent value (Core Data's nil).
/// Equality and hashing are by *stored identity*: floating-point values compare by bit
/// pattern (so `NaN == NaN` and `-0.0 != 0.0` here) and strings by their Unicode scalars (a
/// precomposed "é" differs from "e" and a combining accent, as `NSString`'s literal comparison
/// has it), which is what change tracking and round-trip tests need. Predicates compare
/// numerically instead (see the predicate docs).
///
/// - Note: Core Data keeps values as `NSObject`s (`NSNumber`, `NSString`, …); this enum
///   is their typed counterpart.
public enum AttributeValue: Sendable {
    /// No value (Core Data's `nil`).
    case null
    /// An integer of any width (`integer16`, `integer32`, `integer64`).
    case integer(Int64)
    /// An exact decimal (`decimal`).
    case decimal(Decimal)
    /// A `Double` (`double`).
    case double(Double)
    /// A `Float` (`float`).
    case float(Float)
    /// A string (`string`).
    case string(String)
    /// A Boolean (`boolean`).
    case boolean(Bool)
    /// An instant (`date`).
    case date(Date)
    /// Bytes (`binaryData`).
    case data(Data)
    /// A UUID (`uuid`).
    case uuid(UUID)
    /// A URL (`uri`).
    case uri(URL)
    /// The JSON encoding of a `Codable` payload (`transformable`).
    case transformable(Data)

    /// Whether this is `.null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The attribute type whose values use this case, or `nil` for `.null` and integers
    /// (whose width the value alone does not tell).
    public var naturalType: AttributeType? {
        switch self {
        case .null, .integer: nil
        case .decimal: .decimal
        case .double: .double
        case .float: .float
        case .string: .string
        case .boolean: .boolean
        case .date: .date
        case .data: .binaryData
        case .uuid: .uuid
        case .uri: .uri
        case .transformable: .transformable
        }
    }

    /// Whether this value may be stored in an attribute of `type` (`.null` fits every type;
    /// integers must lie within the type's range).
    public func fits(_ type: AttributeType) -> Bool {
        // Switched on alone, not as a `(self, type)` tuple: making the tuple copied the value
        // (a retain and release of a string's storage) on every attribute write.
        if type == .undefined { return true }
        switch self {
        case .null: return true
        case .integer(let v): return type.integerRange?.contains(v) ?? false
        default: return naturalType == type
        }
    }

    /// The value's case as a number (its payload left alone), for a quick "different case"
    /// test before ``==(_:_:)``.
    @inline(__always)
    var caseNumber: UInt8 {
        switch self {
        case .null: 0
        case .integer: 1
        case .decimal: 2
        case .double: 3
        case .float: 4
        case .string: 5
        case .boolean: 6
        case .date: 7
        case .data: 8
        case .uuid: 9
        case .uri: 10
        case .transformable: 11
        }
    }
}

extension AttributeValue: Hashable {
    /// Stored-identity equality: floating-point values compare by bit pattern, strings by their
    /// Unicode scalars (not by canonical equivalence).
    public static func == (lhs: AttributeValue, rhs: AttributeValue) -> Bool {
        // Switched on one value, then the other, not on a `(lhs, rhs)` tuple: making the tuple
        // copied both values (a retain and release of each payload's storage) on every
        // comparison, and attribute writes and batch updates compare on every row.
        switch lhs {
        case .null: if case .null = rhs { return true }
        case .integer(let a): if case .integer(let b) = rhs { return a == b }
        case .decimal(let a): if case .decimal(let b) = rhs { return decimalsEqual(a, b) }
        case .double(let a):
            if case .double(let b) = rhs { return a.bitPattern == b.bitPattern }
        case .float(let a): if case .float(let b) = rhs { return a.bitPattern == b.bitPattern }
        case .string(let a): if case .string(let b) = rhs { return sameScalars(a, b) }
        case .boolean(let a): if case .boolean(let b) = rhs { return a == b }
        case .date(let a):
            if case .date(let b) = rhs {
                return a.timeIntervalSinceReferenceDate.bitPattern
                    == b.timeIntervalSinceReferenceDate.bitPattern
            }
        case .data(let a): if case .data(let b) = rhs { return a == b }
        case .uuid(let a): if case .uuid(let b) = rhs { return a == b }
        case .uri(let a): if case .uri(let b) = rhs { return a.absoluteString == b.absoluteString }
        case .transformable(let a): if case .transformable(let b) = rhs { return a == b }
        }
        return false
    }

    /// String equality by stored identity: the same Unicode scalars, as `NSString`'s literal
    /// `isEqual(to:)` compares (a precomposed "é" and "e" with a combining accent differ), where
    /// Swift's `==` compares by canonical equivalence.
    private static func sameScalars(_ a: String, _ b: String) -> Bool {
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        guard count > 0 else { return true }
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                memcmp(x.baseAddress!, y.baseAddress!, count) == 0
            }
        }
        if let same = compared ?? nil { return same }
        return a.utf8.elementsEqual(b.utf8)
    }

    /// Decimal equality by stored identity: the same value written the same way.
    private static func decimalsEqual(_ a: Decimal, _ b: Decimal) -> Bool {
        // Two values that differ read from storage differ for Foundation too, without its
        // comparison (hundreds of nanoseconds on Linux: a batch update compares every row's old
        // and new amount); equal ones still compare as before.
        if let x = DecimalParts(a), let y = DecimalParts(b), DecimalParts.compare(x, y) != .same {
            return false
        }
        return a == b && a.description == b.description
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .integer(let v):
            hasher.combine(1)
            hasher.combine(v)
        case .decimal(let v):
            hasher.combine(2)
            hasher.combine(v.description)
        case .double(let v):
            hasher.combine(3)
            hasher.combine(v.bitPattern)
        case .float(let v):
            hasher.combine(4)
            hasher.combine(v.bitPattern)
        case .string(let v):
            hasher.combine(5)
            hasher.combine(v)
        case .boolean(let v):
            hasher.combine(6)
            hasher.combine(v)
        case .date(let v):
            hasher.combine(7)
            hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v):
            hasher.combine(8)
            hasher.combine(v)
        case .uuid(let v):
            hasher.combine(9)
            hasher.combine(v)
        case .uri(let v):
            hasher.combine(10)
            hasher.combine(v.absoluteString)
        case .transformable(let v):
            hasher.combine(11)
            hasher.combine(v)
        }
    }
}
