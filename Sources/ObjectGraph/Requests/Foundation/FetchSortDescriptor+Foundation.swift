import Foundation

extension FetchSortDescriptor {
    /// Converts a Foundation key-path sort descriptor, so the store sorts by it.
    ///
    /// The key path must name an `@Attribute` property, directly or through to-one
    /// relationships (`\Transaction.category?.name`); the order and, for strings, the
    /// `.lexical` comparator (the only one Foundation has on Linux, and what a plain
    /// `SortDescriptor` over a `String` uses) map to ``ascending`` and ``Comparison/plain``.
    ///
    /// ```swift
    /// request.sortDescriptors = [try FetchSortDescriptor(SortDescriptor(\Transaction.amount, order: .reverse))]
    /// ```
    ///
    /// A descriptor that cannot be converted still works in memory through
    /// `FetchRequest.swiftSortDescriptors`.
    ///
    /// - Throws: ``ObjectGraphError`` `.invalidSortKey` (134060) when the key path is not such a
    ///   chain of properties (a computed property, a to-many) or the string comparator has no
    ///   counterpart.
    /// - Note: Mirrors `NSSortDescriptor.init(_ sortDescriptor: SortDescriptor<Compared>)`,
    ///   which cannot fail: Core Data reads any Objective-C key path's name, and Swift on
    ///   Linux keeps none, so a key path that is not a property chain is reported.
    public init<Root: ManagedObject>(_ descriptor: SortDescriptor<Root>) throws {
        guard let keyPath = descriptor.keyPath,
            case .properties(let keys)? = KeyPathProbe.resolve(keyPath, rootType: Root.self),
            !keys.isEmpty
        else {
            let shown = descriptor.keyPath.map { "\($0)" } ?? "(none)"
            throw ObjectGraphError(
                .invalidSortKey,
                "FetchSortDescriptor: the sort key path \(shown) is not an @Attribute property "
                    + "(or a to-one chain ending in one); sort by it with "
                    + "FetchRequest.swiftSortDescriptors, in memory")
        }
        if let comparator = descriptor.stringComparator, comparator != .lexical,
            comparator != String.StandardComparator(.lexical, order: .reverse)
        {
            throw ObjectGraphError(
                .invalidSortKey,
                "FetchSortDescriptor: the string comparator \(comparator) has no counterpart; "
                    + "sort with FetchRequest.swiftSortDescriptors, in memory")
        }
        self.init(key: keys.joined(separator: "."), ascending: descriptor.order == .forward)
    }
}
