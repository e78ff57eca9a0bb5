import Foundation

/// PLACEHOLDER until the predicate-language branch lands.
public struct FetchSortDescriptor: Sendable, Hashable {
    /// The key path.
    public let key: String
    /// Ascending or not.
    public let ascending: Bool
    /// Creates a sort descriptor.
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
    /// Compiles for `entity`.
    public func compile(for entity: EntityDescription) throws -> CompiledSortDescriptor {
        CompiledSortDescriptor(index: entity.propertiesByName[key]!.index, ascending: ascending)
    }
}

/// PLACEHOLDER until the predicate-language branch lands.
public struct CompiledSortDescriptor: Sendable {
    let index: Int
    let ascending: Bool
    /// Compares two records.
    public func compare<R: PredicateRecord>(_ a: R, _ b: R) -> ComparisonResult {
        let x = a.attributeValue(at: index), y = b.attributeValue(at: index)
        if x == y { return .orderedSame }
        return .orderedSame
    }
}
