import Foundation

/// A sort descriptor resolved against one entity: compares two records of it.
///
/// - Note: Mirrors `NSSortDescriptor.compare(_:to:)`.
public struct CompiledSortDescriptor: Sendable {
    /// The to-one slots to follow before reading the attribute.
    let relationships: [Int]
    /// The attribute's slot on the last entity.
    let slot: Int
    /// Whether smaller values come first.
    public let ascending: Bool
    /// How strings compare.
    public let comparison: FetchSortDescriptor.Comparison

    /// How `a` and `b` are ordered by this key and direction (`nil` first when ascending).
    ///
    /// - Precondition: Both records are of the compiled entity or its subentities.
    /// - Complexity: O(number of relationships in the key path).
    public func compare<R: PredicateRecord>(_ a: R, _ b: R) -> ComparisonResult {
        compareValues(value(of: a), value(of: b))
    }

    /// How two values of the sort key are ordered, applying direction and comparison.
    public func compareValues(_ a: AttributeValue, _ b: AttributeValue) -> ComparisonResult {
        let order = SortOrder.compare(a, b, comparison)
        return ascending ? order : order.reversed
    }

    /// The sort key's value for `record` (`.null` when a relationship on the way is nil).
    public func value<R: PredicateRecord>(of record: R) -> AttributeValue {
        guard !relationships.isEmpty else { return record.attributeValue(at: slot) }
        var current = record
        for r in relationships {
            guard let next = current.toOneRecord(at: r) else { return .null }
            current = next
        }
        return current.attributeValue(at: slot)
    }
}

/// The total order of attribute values used for sorting.
///
/// `nil` first; numbers by value (NaN after every other number); strings by the chosen
/// comparison; dates by instant; UUIDs by their text; URLs by their text; bytes
/// lexicographically. Values of different kinds are ordered by kind in that order.
enum SortOrder {
    static func compare(
        _ a: AttributeValue, _ b: AttributeValue,
        _ comparison: FetchSortDescriptor.Comparison
    ) -> ComparisonResult {
        switch (a, b) {
        case (.date(let x), .date(let y)):
            return PredicateNumber.order(
                x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate
            )
            .comparisonResult
        case (.string(let x), .string(let y)):
            return compare(x, y, comparison)
        default:
            break
        }
        if let x = PredicateNumber(a), let y = PredicateNumber(b) {
            let order = PredicateNumber.compare(x, y)
            if order != .unordered { return order.comparisonResult }
            let xNaN = x.doubleValue.isNaN
            let yNaN = y.doubleValue.isNaN
            return xNaN == yNaN ? .orderedSame : xNaN ? .orderedDescending : .orderedAscending
        }
        let ra = rank(a)
        let rb = rank(b)
        if ra != rb { return ra < rb ? .orderedAscending : .orderedDescending }
        switch (a, b) {
        case (.uuid(let x), .uuid(let y)): return plain(x.uuidString, y.uuidString)
        case (.uri(let x), .uri(let y)): return plain(x.absoluteString, y.absoluteString)
        case (.data(let x), .data(let y)), (.transformable(let x), .transformable(let y)):
            return bytes(x, y)
        default: return .orderedSame
        }
    }

    private static func rank(_ v: AttributeValue) -> Int {
        switch v {
        case .null: 0
        case .integer, .decimal, .double, .float, .boolean: 1
        case .string: 2
        case .date: 3
        case .uuid: 4
        case .uri: 5
        case .data: 6
        case .transformable: 7
        }
    }

    static func compare(_ x: String, _ y: String, _ comparison: FetchSortDescriptor.Comparison)
        -> ComparisonResult
    {
        switch comparison {
        case .plain: return plain(x, y)
        case .caseInsensitive:
            let folding = StringFolding(.caseInsensitive)
            return plain(folding.fold(x), folding.fold(y))
        case .localizedStandard: return x.localizedStandardCompare(y)
        }
    }

    private static func plain(_ x: String, _ y: String) -> ComparisonResult {
        x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
    }

    private static func bytes(_ x: Data, _ y: Data) -> ComparisonResult {
        for (p, q) in zip(x, y) where p != q {
            return p < q ? .orderedAscending : .orderedDescending
        }
        return x.count == y.count
            ? .orderedSame : x.count < y.count ? .orderedAscending : .orderedDescending
    }
}
