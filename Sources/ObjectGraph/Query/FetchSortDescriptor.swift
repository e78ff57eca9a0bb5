import Foundation

/// One sort key of a fetch: a key path (through to-one relationships) to an attribute, a
/// direction, and how strings compare.
///
/// ```swift
/// FetchSortDescriptor(key: "date", ascending: false)
/// FetchSortDescriptor(key: "category.name", comparison: .localizedStandard)
/// ```
///
/// `nil` is the smallest value: first when ascending, last when descending. Numbers compare
/// by value across integer, decimal and floating-point; dates by instant; strings as chosen
/// by ``comparison``. Ties are left to the caller (the next descriptor, then a stable order).
///
/// - Note: Mirrors `NSSortDescriptor(key:ascending:selector:)` with `compare:`,
///   `caseInsensitiveCompare:` and `localizedStandardCompare:`.
public struct FetchSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// How strings compare.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        /// By Unicode scalar values (after canonical normalisation): Core Data's `compare:`.
        case plain
        /// Ignoring case: `caseInsensitiveCompare:`.
        case caseInsensitive
        /// As the Finder sorts names (case-insensitive, digits by numeric value, current
        /// locale): `localizedStandardCompare:`.
        case localizedStandard
    }

    /// The key path, e.g. `"date"` or `"category.name"`.
    public let key: String
    /// Whether smaller values come first (default `true`).
    public let ascending: Bool
    /// How strings compare (default `.plain`).
    public let comparison: Comparison

    /// Creates a sort descriptor.
    ///
    /// The key path is checked when the descriptor is compiled for an entity.
    public init(key: String, ascending: Bool = true, comparison: Comparison = .plain) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The same key and comparison in the opposite direction.
    ///
    /// - Note: Mirrors `NSSortDescriptor.reversedSortDescriptor`.
    public var reversed: FetchSortDescriptor {
        FetchSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    /// `key` followed by the direction and comparison, e.g. `"date desc"`.
    public var description: String {
        key + (ascending ? " asc" : " desc")
            + (comparison == .plain ? "" : " \(comparison.rawValue)")
    }

    /// Resolves the key path against `entity`.
    ///
    /// - Throws: ``ObjectGraphError`` ``ObjectGraphError/Reason/invalidSortKey`` (134060)
    ///   naming the entity and key when a
    ///   component names no property, a step before the last is not a to-one relationship,
    ///   or the last is not an attribute.
    public func compile(for entity: EntityDescription) throws -> CompiledSortDescriptor {
        var current = entity
        var relationships: [Int] = []
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map(
            String.init)
        for (i, component) in components.enumerated() {
            guard let property = current.propertiesByName[component] else {
                throw PredicateErrors.invalidSortKey(
                    key, entity: entity,
                    reason: "names no property: \(current.name) has no '\(component)'")
            }
            let isLast = i == components.count - 1
            if let relationship = property as? RelationshipDescription {
                guard !relationship.isToMany else {
                    throw PredicateErrors.invalidSortKey(
                        key, entity: entity,
                        reason: "crosses the to-many relationship '\(component)'")
                }
                guard !isLast, let destination = relationship.destinationEntity else {
                    throw PredicateErrors.invalidSortKey(
                        key, entity: entity,
                        reason: "ends at a relationship; name an attribute")
                }
                relationships.append(property.index)
                current = destination
            } else {
                guard isLast else {
                    throw PredicateErrors.invalidSortKey(
                        key, entity: entity,
                        reason: "goes through the attribute '\(component)'")
                }
                return CompiledSortDescriptor(
                    relationships: relationships, slot: property.index,
                    ascending: ascending, comparison: comparison)
            }
        }
        throw PredicateErrors.invalidSortKey(key, entity: entity, reason: "is empty")
    }
}
