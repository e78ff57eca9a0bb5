import Foundation

/// What a fetch returns.
///
/// - Note: Mirrors `NSFetchRequestResultType` (same raw values).
public enum FetchRequestResultType: Int, Sendable, Hashable {
    /// Managed objects (the default).
    case managedObjectResultType = 0
    /// Object IDs.
    case managedObjectIDResultType = 1
    /// Dictionaries of the properties to fetch (`[String: Any]`).
    case dictionaryResultType = 2
    /// One `Int`: the number of matches.
    case countResultType = 4
}

/// A description of which objects to fetch, in which order, and in what form.
///
/// ```swift
/// let request = FetchRequest<Transaction>(entityName: "Transaction")
/// request.predicate = try FetchPredicate(format: "amount > %@", 10)
/// request.sortDescriptors = [FetchSortDescriptor(key: "date", ascending: false)]
/// request.fetchLimit = 20
/// let recent = try context.fetch(request)
/// ```
///
/// `Result` is what ``ManagedObjectContext/fetch(_:)`` returns: a managed-object class for
/// object results, `ManagedObjectID`, `[String: Any]` or `Int` for the other result types.
///
/// - Note: Mirrors `NSFetchRequest<ResultType>`. A request is plain data; build it on any
///   queue, use it on one at a time.
public final class FetchRequest<Result>: CustomStringConvertible {
    /// The entity's name; resolved against the context's model when executed.
    public var entityName: String?
    /// The entity, if already resolved.
    public var entity: EntityDescription?
    /// Which objects match; `nil` matches all.
    public var predicate: FetchPredicate?
    /// The order of the results; empty gives the store's stable order (see the docs).
    public var sortDescriptors: [FetchSortDescriptor] = []
    /// The most results to return; 0 (the default) means no limit.
    public var fetchLimit = 0
    /// How many matching results to skip first. Default 0.
    public var fetchOffset = 0
    /// How many objects to fill at a time when results are faults; 0 fills all at once.
    public var fetchBatchSize = 0
    /// What the fetch returns. Default `.managedObjectResultType`.
    public var resultType: FetchRequestResultType = .managedObjectResultType
    /// Whether objects of subentities match too. Default `true`.
    public var includesSubentities = true
    /// Whether the context's unsaved changes are taken into account. Default `true`.
    public var includesPendingChanges = true
    /// Whether objects come back as faults (`true`, the default) or with values filled.
    public var returnsObjectsAsFaults = true
    /// Related objects to fill along with the results (to-one and to-many key paths).
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// For dictionary results: the properties (names) or expressions to fetch.
    public var propertiesToFetch: [Any]?
    /// For dictionary results: the properties to group by.
    public var propertiesToGroupBy: [Any]?
    /// For grouped dictionary results: which groups to keep.
    public var havingPredicate: FetchPredicate?
    /// For dictionary results: whether duplicate dictionaries are removed.
    public var returnsDistinctResults = false
    /// A Foundation `#Predicate` over the result type, applied to the objects after ``predicate``.
    ///
    /// It is evaluated over materialised objects (it cannot be pushed down to a store), so
    /// prefer ``predicate`` for large entities. Only object results honour it.
    public var swiftPredicate: Predicate<Result>?
    /// Foundation key-path sort descriptors over the result type, applied after
    /// ``sortDescriptors`` (materialised objects, like ``swiftPredicate``).
    public var swiftSortDescriptors: [SortDescriptor<Result>] = []

    /// A request for objects of the entity named `entityName`.
    public init(entityName: String) { self.entityName = entityName }

    /// A request for objects of `entity`.
    public init(entity: EntityDescription) {
        self.entity = entity
        self.entityName = entity.name
    }

    /// A request whose entity is found by `Result`'s class when executed.
    public init() {}

    /// The entity, predicate, sort and window.
    public var description: String {
        var parts = ["FetchRequest(\(entityName ?? String(describing: Result.self))"]
        if let predicate { parts.append("where \(predicate)") }
        if !sortDescriptors.isEmpty {
            parts.append("sorted by \(sortDescriptors.map { "\($0)" }.joined(separator: ", "))")
        }
        if fetchOffset > 0 { parts.append("offset \(fetchOffset)") }
        if fetchLimit > 0 { parts.append("limit \(fetchLimit)") }
        return parts.joined(separator: " ") + ")"
    }
}
