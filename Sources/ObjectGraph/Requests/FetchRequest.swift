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
    /// The entity: the one the request was made with, or, for a request made with a name
    /// (or by its result class), the context's entity once the request has been executed.
    ///
    /// - Note: Mirrors `entity`, which Core Data fills when a context first uses a request
    ///   made with `init(entityName:)` (it raises before that; here it is `nil`).
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
    ///
    /// Object, ID and count results honour it. Dictionary results (and their aggregates)
    /// always reflect the persistent store alone, whatever this says: they never include the
    /// context's pending inserts, updates or deletes, nor, in a child context, its parent's
    /// unsaved changes.
    public var includesPendingChanges = true

    /// The stores the request reads; `nil` (the default) for every store of the coordinator.
    ///
    /// Rows of other stores are left out, and so are this context's pending objects that
    /// live in, or will be saved to, another store (an unsaved object's store is the one
    /// ``ManagedObjectContext/assign(_:to:)`` chose, else the one the coordinator would choose
    /// now). A store that is no longer open is read as empty. See <doc:SeveralStores>.
    ///
    /// - Note: Mirrors `affectedStores`.
    public var affectedStores: [any PersistentStore]?
    /// Whether the fetch reads the matching objects' values along with their IDs. Default
    /// `true`.
    ///
    /// With `false`, only IDs are read: the objects come back as faults with nothing cached
    /// for them, so each fault reads its row from upstream when it fires (worth it when the
    /// values will not be needed, for example to delete the objects). Objects already
    /// registered with values, and objects with unsaved changes, are returned as they are.
    /// ``returnsObjectsAsFaults`` has no effect then. Only object results use it.
    ///
    /// - Note: Mirrors `includesPropertyValues`.
    public var includesPropertyValues = true
    /// Whether objects come back as faults (`true`, the default) or with values filled.
    public var returnsObjectsAsFaults = true
    /// Whether objects already registered in the context get the store's current values.
    /// Default `false`.
    ///
    /// By default a fetch leaves an object that is already registered with values as it is,
    /// even when its row has changed since (another context's save, a batch update): the
    /// context keeps what it read. With `true`, such an object is refreshed from the row the
    /// fetch read, its unsaved changes kept on top (as `refresh(_:mergeChanges: true)`).
    /// Only object results use it.
    ///
    /// - Note: Mirrors `shouldRefreshRefetchedObjects`.
    public var shouldRefreshRefetchedObjects = false
    /// Related objects to fill along with the results (to-one and to-many key paths).
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// For dictionary results: the columns, as property names, `PropertyDescription`s, dotted
    /// key paths or ``ExpressionDescription``s (aggregates such as `sum:(amount)` included);
    /// `nil` fetches every stored attribute. A to-many relationship is not a column.
    ///
    /// - Note: Mirrors `propertiesToFetch` (see <doc:PredicateLanguage#Dictionary-fetches>).
    public var propertiesToFetch: [Any]?
    /// For dictionary results: the properties, key paths or expressions to group by. Every
    /// fetched column must then be grouped, an aggregate or a constant.
    ///
    /// - Note: Mirrors `propertiesToGroupBy`.
    public var propertiesToGroupBy: [Any]?
    /// For grouped dictionary results: which groups to keep. It names an expression
    /// description's value as `$NAME` (`"$total > 100"`); other key paths are the entity's,
    /// read from the group's first row. A bare expression name or an aggregate function is
    /// refused, as Core Data refuses them.
    ///
    /// - Note: Mirrors `havingPredicate`.
    public var havingPredicate: FetchPredicate?
    /// For dictionary results: whether duplicate dictionaries are removed.
    public var returnsDistinctResults = false
    /// A Foundation `#Predicate` over the result type, applied to the objects after ``predicate``.
    ///
    /// It is evaluated over materialised objects, after the store has applied ``predicate``,
    /// so prefer converting it with `FetchPredicate(_:)` (from a `Predicate`) into
    /// ``predicate``, which the store filters by; keep here what does not convert (computed
    /// properties, `String.count`, …). Object, ID and count results honour it; the window
    /// (``fetchOffset``, ``fetchLimit``) applies after it.
    public var swiftPredicate: Predicate<Result>?
    /// Foundation key-path sort descriptors over the result type, applied after
    /// ``sortDescriptors`` (materialised objects, like ``swiftPredicate``); convert them with
    /// ``FetchSortDescriptor/init(_:)`` to sort in the store.
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

    /// An independent copy: every setting copied, so changing one request leaves the other
    /// as it was (predicates, sort descriptors and expression descriptions are values).
    ///
    /// ```swift
    /// let counting = request.copy()
    /// counting.resultType = .countResultType      // `request` is unchanged
    /// ```
    ///
    /// - Note: Mirrors `copy()` (`NSCopying`), which returns `Any`; this returns the request's
    ///   own type, so `request.copy() as! FetchRequest<T>` still compiles.
    public func copy() -> FetchRequest<Result> {
        let copy = FetchRequest<Result>()
        copy.entityName = entityName
        copy.entity = entity
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.fetchLimit = fetchLimit
        copy.fetchOffset = fetchOffset
        copy.fetchBatchSize = fetchBatchSize
        copy.resultType = resultType
        copy.includesSubentities = includesSubentities
        copy.includesPendingChanges = includesPendingChanges
        copy.affectedStores = affectedStores
        copy.includesPropertyValues = includesPropertyValues
        copy.returnsObjectsAsFaults = returnsObjectsAsFaults
        copy.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        copy.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        copy.propertiesToFetch = propertiesToFetch
        copy.propertiesToGroupBy = propertiesToGroupBy
        copy.havingPredicate = havingPredicate
        copy.returnsDistinctResults = returnsDistinctResults
        copy.swiftPredicate = swiftPredicate
        copy.swiftSortDescriptors = swiftSortDescriptors
        return copy
    }

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
