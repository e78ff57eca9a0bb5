import Foundation

extension FetchSortDescriptor {
    /// A sort descriptor for a Swift key path of managed-object properties.
    ///
    /// ```swift
    /// FetchSortDescriptor(keyPath: \Category.name, ascending: true)
    /// FetchSortDescriptor(keyPath: \Transaction.category?.name, ascending: false)
    /// ```
    ///
    /// The key path becomes the dotted key of the properties it goes through (`"name"`,
    /// `"category.name"`), as Core Data derives it; it is checked against the entity when the
    /// fetch runs, like ``init(key:ascending:comparison:)``'s.
    ///
    /// - Precondition: `keyPath` reads `@Attribute` and `@Relationship` properties of
    ///   `Root` (a computed property is followed to the wrapped properties it reads).
    /// - Note: Mirrors `NSSortDescriptor(keyPath:ascending:)`.
    public init<Root: ManagedObject, Value>(
        keyPath: KeyPath<Root, Value>, ascending: Bool = true,
        comparison: Comparison = .plain
    ) {
        self.init(
            key: KeyPathProbe.dottedKey(keyPath), ascending: ascending, comparison: comparison)
    }
}
