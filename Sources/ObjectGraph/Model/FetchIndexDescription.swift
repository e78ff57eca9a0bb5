import Foundation

/// A store index over one or more of an entity's properties: a hint that stores may use to
/// speed up fetches filtering or sorting on those properties.
///
/// ```swift
/// FetchIndexDescription(name: "byDate", elements: [.init(property: "date", isAscending: false)])
/// ```
///
/// Elements name stored attributes or to-one relationships of the entity (inherited ones
/// included); building the model checks them. Indexes do not change version hashes.
///
/// - Note: Mirrors `NSFetchIndexDescription` (without `partialIndexPredicate`); Xcode's older
///   compound indexes read as fetch indexes too.
public struct FetchIndexDescription: Sendable, Hashable {
    /// The index's name, unique in its entity.
    public let name: String
    /// The indexed properties, most significant first.
    public let elements: [Element]

    /// Creates an index.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }

    /// One property of a fetch index and how it is ordered.
    ///
    /// - Note: Mirrors `NSFetchIndexElementDescription`.
    public struct Element: Sendable, Hashable {
        /// The indexed property's name.
        public let propertyName: String
        /// How values are compared in the index (default `.binary`).
        public let collationType: CollationType
        /// Whether the index sorts ascending (default `true`).
        public let isAscending: Bool

        /// Creates an index element.
        public init(
            property: String, collationType: CollationType = .binary, isAscending: Bool = true
        ) {
            self.propertyName = property
            self.collationType = collationType
            self.isAscending = isAscending
        }
    }

    /// How an index element compares values.
    ///
    /// - Note: Mirrors `NSFetchIndexElementType`.
    public enum CollationType: String, Sendable, Hashable, CaseIterable {
        /// Ordinary ordering of values.
        case binary
        /// An R-tree, for range queries over two-dimensional values.
        case rTree
    }
}
