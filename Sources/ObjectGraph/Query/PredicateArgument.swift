import Foundation

/// Converts format arguments and substitution values (`Any`) into constant expressions.
///
/// Accepted: `nil` (`Optional.none`, `NSNull`), `Bool`, every integer type, `Double`,
/// `Float`, `Decimal`, `NSNumber` (and `NSDecimalNumber`), `String`, `Substring`,
/// `Character`, `Date`, `UUID`, `URL`, `Data`, ``AttributeValue``, ``ManagedObjectID``,
/// ``ManagedObject`` (its `objectID`), any ``PredicateRecord`` (its `recordObjectID`),
/// ``FetchExpression``, and arrays, sets, ordered sets
/// and dictionaries (their values) of those, nested up to ``maxNesting`` levels. Sets and
/// dictionaries are put in a fixed order so that equal arguments give equal predicates.
enum PredicateArgument {
    /// The constant expression for `argument`, or `nil` when its type is not accepted.
    static func expression(from argument: Any) -> FetchExpression? {
        expression(from: argument, depth: 0)
    }

    /// Collections nested deeper than this are refused rather than recursed into.
    static let maxNesting = 64

    private static func expression(from argument: Any, depth: Int) -> FetchExpression? {
        guard depth <= maxNesting else { return nil }
        guard let value = unwrap(argument) else { return .constant(.null) }
        if value is NSNull { return .constant(.null) }
        if let scalar = scalar(value) { return .constant(scalar) }
        switch value {
        case let id as ManagedObjectID: return .object(id)
        case let object as ManagedObject: return .object(object.objectID)
        case let record as any PredicateRecord: return .object(record.recordObjectID)
        case let expression as FetchExpression: return expression
        case let array as [Any]: return aggregate(array, sorted: false, depth: depth)
        case let set as Set<AnyHashable>: return aggregate(Array(set), sorted: true, depth: depth)
        case let ordered as NSOrderedSet:
            return aggregate(ordered.array, sorted: false, depth: depth)
        case let set as NSSet: return aggregate(set.allObjects, sorted: true, depth: depth)
        case let dictionary as [AnyHashable: Any]:
            return aggregate(Array(dictionary.values), sorted: true, depth: depth)
        default: return nil
        }
    }

    private static func aggregate(_ elements: [Any], sorted: Bool, depth: Int) -> FetchExpression? {
        var converted: [FetchExpression] = []
        converted.reserveCapacity(elements.count)
        for element in elements {
            guard let e = expression(from: element, depth: depth + 1) else { return nil }
            converted.append(e)
        }
        if sorted { converted.sort { $0.description < $1.description } }
        return .aggregate(converted)
    }

    /// `argument` with every level of `Optional` removed; `nil` for `Optional.none`.
    static func unwrap(_ argument: Any) -> Any? {
        let mirror = Mirror(reflecting: argument)
        guard mirror.displayStyle == .optional else { return argument }
        guard let wrapped = mirror.children.first?.value else { return nil }
        return unwrap(wrapped)
    }

    /// The attribute value of a scalar argument, or `nil` for other types.
    static func scalar(_ value: Any) -> AttributeValue? {
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return scalar(number)
        }
        switch value {
        case let v as AttributeValue: return v
        case let v as Bool: return .boolean(v)
        case let v as Int: return .integer(Int64(v))
        case let v as Int64: return .integer(v)
        case let v as Int32: return .integer(Int64(v))
        case let v as Int16: return .integer(Int64(v))
        case let v as Int8: return .integer(Int64(v))
        case let v as UInt: return unsigned(UInt64(v))
        case let v as UInt64: return unsigned(v)
        case let v as UInt32: return .integer(Int64(v))
        case let v as UInt16: return .integer(Int64(v))
        case let v as UInt8: return .integer(Int64(v))
        case let v as Double: return .double(v)
        case let v as Float: return .float(v)
        case let v as Decimal: return .decimal(v)
        case let v as String: return .string(v)
        case let v as Substring: return .string(String(v))
        case let v as Character: return .string(String(v))
        case let v as Date: return .date(v)
        case let v as UUID: return .uuid(v)
        case let v as URL: return .uri(v)
        case let v as Data: return .data(v)
        default: return nil
        }
    }

    private static func unsigned(_ v: UInt64) -> AttributeValue {
        v <= UInt64(Int64.max) ? .integer(Int64(v)) : .decimal(Decimal(v))
    }

    private static func scalar(_ number: NSNumber) -> AttributeValue {
        if let decimal = number as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        switch String(cString: number.objCType) {
        case "c", "B":
            let v = number.int64Value
            return v == 0 || v == 1 ? .boolean(v == 1) : .integer(v)
        case "f": return .float(number.floatValue)
        case "d": return .double(number.doubleValue)
        case "Q", "L": return unsigned(number.uint64Value)
        default: return .integer(number.int64Value)
        }
    }

    /// An integer for `%d`-style specifiers (whole numbers of any numeric type, Booleans).
    static func integer(from argument: Any) -> Int64? {
        guard let value = unwrap(argument), let scalar = scalar(value),
            let n = PredicateNumber(scalar)
        else { return nil }
        switch n {
        case .integer(let v): return v
        case .double(let v): return v == v.rounded() ? Int64(exactly: v) : nil
        case .decimal(let v): return Int64(v.description)
        }
    }

    /// A double for `%f`-style specifiers (any number).
    static func double(from argument: Any) -> Double? {
        guard let value = unwrap(argument), let scalar = scalar(value),
            let n = PredicateNumber(scalar)
        else { return nil }
        return n.doubleValue
    }

    /// The text of a `%K` argument.
    static func string(from argument: Any) -> String? {
        switch unwrap(argument) {
        case let s as String: s
        case let s as Substring: String(s)
        default: nil
        }
    }
}
