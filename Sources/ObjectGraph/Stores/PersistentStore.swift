import Foundation

/// A backend that keeps rows: the seam that makes stores pluggable.
///
/// A store knows models, values, rows and requests, never contexts or managed objects.
/// The coordinator calls a store from one thread at a time (it serialises access with
/// its own lock), but a store must still be `Sendable`: it is created on one thread and
/// used from others. Every store must pass the conformance suite in `ObjectGraphTesting`
/// (`StoreConformance`).
///
/// To add a backend (SQLite, a server), implement this protocol and register a factory
/// with ``PersistentStoreCoordinator/registerStoreType(_:factory:)``.
///
/// - Note: Mirrors `NSIncrementalStore`: ``row(for:)`` is `newValuesForObjectWithID`,
///   ``relatedObjectIDs(_:of:)`` is `newValueForRelationship`, ``allocatePrimaryKeys(for:count:)``
///   is `obtainPermanentIDsForObjects`, ``commit(_:)`` is a save request.
public protocol PersistentStore: AnyObject, Sendable {
    /// The store's UUID string, recorded in its metadata and in permanent object IDs.
    var identifier: String { get }
    /// The store type name, e.g. `"InMemory"` or `"JSONLines"`.
    var type: String { get }
    /// Where the store lives, or `nil` (or `/dev/null`) for a RAM store.
    var url: URL? { get }
    /// The model the store was opened with.
    var model: ManagedObjectModel { get }
    /// Whether the store refuses commits.
    var isReadOnly: Bool { get }
    /// The name of the model configuration whose entities the store holds, or
    /// ``PersistentStoreCoordinator/defaultConfigurationName`` for every entity (the default
    /// implementation's answer).
    ///
    /// - Note: Mirrors `NSPersistentStore.configurationName`.
    var configurationName: String { get }
    /// Messages about what opening the store repaired or noticed (a torn last line, …).
    var recoveryNotices: [String] { get }

    /// The rows matching `request`, filtered, sorted and windowed as it asks.
    ///
    /// - Throws: ``ObjectGraphError`` — `.storeOperationFailed` (134070) on I/O failure.
    /// - Complexity: O(n log n) in the rows of the entity, at most.
    func fetch(_ request: StoreFetchRequest) throws -> [StoreRow]
    /// How many rows match `request` (ignoring its sort; honouring offset and limit).
    func count(_ request: StoreFetchRequest) throws -> Int
    /// The current row of `objectID`, or `nil` when it does not exist.
    func row(for objectID: ManagedObjectID) throws -> StoreRow?
    /// The destinations of a to-many relationship the row does not keep (derived from its
    /// to-one inverse), or of any relationship; in order for ordered relationships.
    func relatedObjectIDs(_ relationship: RelationshipDescription, of objectID: ManagedObjectID)
        throws
        -> [ManagedObjectID]
    /// Reserves `count` new primary keys for `entity`'s hierarchy; never reused, even after
    /// a failed save.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64]
    /// Applies a change set atomically: all of it, or (on a throw) none of it.
    ///
    /// A store never writes a reference to a row that will not exist once the change set is
    /// applied: every to-one target and to-many member an inserted row holds, and every one
    /// an updated row changes or points at a row the change set deletes, must be a row the
    /// store keeps or one the change set inserts. Deleting a row does not touch the rows that
    /// point at it (delete rules are the context's business; a batch delete applies none).
    ///
    /// In a save over several stores, a store of your own commits after the built-in stores
    /// have written their parts (which are taken back if it throws); when it throws after
    /// another store of your own committed, the save fails with `.incompleteSave` (134040,
    /// <doc:SeveralStores>).
    ///
    /// - Throws: ``ObjectGraphError`` — `.storeSaveConflict` (134050) when an updated or
    ///   deleted row's version is not the one the change set expects, or an inserted ID
    ///   exists; `.danglingReference` (1550, "Dangling reference to an invalid object")
    ///   naming the source row and relationship when a written reference's target will not
    ///   exist; `.storeWriteFailed` (134030) on I/O failure; `.readOnlyStore` (134030) when
    ///   read-only. Build them with
    ///   ``ObjectGraphError/init(_:_:entityName:key:value:objectID:file:line:column:underlying:userInfo:)``.
    func commit(_ changes: StoreChangeSet) throws
    /// Whether ``commit(_:)`` takes updates as patches (``StoreChangeSet/patched``) besides
    /// complete rows. The default is `false`: the coordinator then turns every patch into the
    /// complete row before committing (``StoreChangeSet/completingPatches(reading:)``), so a
    /// store that only knows complete rows never sees one.
    ///
    /// A store that says `true` checks a patch as an update (its row exists at
    /// `version - 1`; the references it changes, and those the row keeps to rows the change
    /// set deletes, name rows that will exist) and leaves the row's other slots as they are.
    var acceptsRowPatches: Bool { get }
    /// Releases what the store holds (files, locks) as ``PersistentStoreCoordinator/remove(_:)``
    /// takes it out of `coordinator`; the store is not used afterwards. The default does
    /// nothing.
    ///
    /// - Throws: ``ObjectGraphError`` `.storeOperation` (134070) when something could not be
    ///   released cleanly (the resources are released all the same).
    /// - Note: Mirrors `NSPersistentStore.willRemove(from:)`, which cannot fail; a file store's
    ///   last sync can, and `remove(_:)` reports it.
    func willRemove(from coordinator: PersistentStoreCoordinator?) throws
    /// Whether the store keeps earlier generations for contexts pinned to one (see
    /// ``currentQueryGeneration()``). The default is `false`.
    ///
    /// - Note: Core Data's SQLite store in WAL mode does; its other stores do not.
    var supportsQueryGenerations: Bool { get }
    /// Pins the store's current generation: the returned reader keeps answering as the store is
    /// now, whatever is committed afterwards, for as long as it is alive.
    ///
    /// Pinning the same unchanged state twice may return the same reader. The store releases
    /// what it keeps for a generation when the last reference to its reader goes away.
    ///
    /// - Throws: ``ObjectGraphError`` `.queryGenerationsUnsupported` (134091, the default
    ///   implementation's error) when the store keeps no generations; `.storeOperationFailed`
    ///   (134070) when it is closed.
    /// - Note: Stands for the part of `NSQueryGenerationToken` a store provides.
    func currentQueryGeneration() throws -> any PersistentStoreGeneration

    /// Whether the store records persistent history (it was opened with
    /// `NSPersistentHistoryTrackingKey`). The default is `false`.
    var tracksHistory: Bool { get }
    /// The number of the last transaction committed to the store; 0 for none. The default
    /// throws ``ObjectGraphError/Reason/historyNotTracked`` (134091).
    func currentHistoryTransactionNumber() throws -> Int64
    /// The history transactions after transaction `number` (all it holds for `nil`), oldest
    /// first, with their changes.
    ///
    /// - Throws: ``ObjectGraphError/Reason/historyTokenExpired`` (134301) when history after
    ///   `number` was deleted, never a partial list; ``ObjectGraphError/Reason/historyNotTracked``
    ///   (134091) when the store does not track history (the default implementation).
    /// - Complexity: O(log n + k) for k transactions returned.
    func history(after number: Int64?) throws -> [StoreHistoryTransaction]
    /// Deletes the history transactions numbered below `number`; tokens of deleted
    /// transactions expire. Returns how many it deleted.
    ///
    /// - Throws: ``ObjectGraphError/Reason/historyNotTracked`` (134091) when the store does
    ///   not track history (the default implementation); the store's write errors.
    func deleteHistory(before number: Int64) throws -> Int
}

extension PersistentStore {
    /// `false`: a store keeps no earlier generations unless it says so.
    public var supportsQueryGenerations: Bool { false }

    /// Throws `.queryGenerationsUnsupported` (134091): a store keeps no earlier generations
    /// unless it implements this.
    public func currentQueryGeneration() throws -> any PersistentStoreGeneration {
        throw QueryGenerationErrors.unsupported(self)
    }
}

extension PersistentStore {
    /// ``PersistentStoreCoordinator/defaultConfigurationName``: a store holds every entity
    /// unless it says otherwise.
    public var configurationName: String { PersistentStoreCoordinator.defaultConfigurationName }

    /// `false`: a store is handed complete rows unless it says it takes patches.
    public var acceptsRowPatches: Bool { false }

    /// Does nothing: a store without files or locks has nothing to release.
    public func willRemove(from coordinator: PersistentStoreCoordinator?) throws {}

    /// `false`: a store that does not implement history does not track it.
    public var tracksHistory: Bool { false }

    /// Throws ``ObjectGraphError/Reason/historyNotTracked`` (134091).
    public func currentHistoryTransactionNumber() throws -> Int64 {
        throw HistoryErrors.unsupported(self)
    }

    /// Throws ``ObjectGraphError/Reason/historyNotTracked`` (134091).
    public func history(after number: Int64?) throws -> [StoreHistoryTransaction] {
        throw HistoryErrors.unsupported(self)
    }

    /// Throws ``ObjectGraphError/Reason/historyNotTracked`` (134091).
    public func deleteHistory(before number: Int64) throws -> Int {
        throw HistoryErrors.unsupported(self)
    }
}

/// What a store is asked to fetch: plain, `Sendable` data.
///
/// - Note: The store-level part of `NSFetchRequest`.
public struct StoreFetchRequest: Sendable {
    /// The entity to fetch.
    public var entity: EntityDescription
    /// Which rows; `nil` matches all.
    public var predicate: FetchPredicate?
    /// The order; empty means the store's stable order (ascending primary key per entity).
    public var sortDescriptors: [FetchSortDescriptor]
    /// The most rows to return; 0 means no limit.
    public var fetchLimit: Int
    /// How many matching rows to skip.
    public var fetchOffset: Int
    /// Whether rows of subentities match too (default `true`).
    public var includesSubentities: Bool

    /// Creates a request.
    public init(
        entity: EntityDescription, predicate: FetchPredicate? = nil,
        sortDescriptors: [FetchSortDescriptor] = [], fetchLimit: Int = 0,
        fetchOffset: Int = 0, includesSubentities: Bool = true
    ) {
        self.entity = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.includesSubentities = includesSubentities
    }
}

/// One save's changes, as a store commits them: all or nothing.
///
/// Updated rows carry their *new* version (the old one plus one); deleted IDs carry the
/// version the saver last saw. The store checks both against its current rows. An update
/// comes either as a complete row (``updated``) or, to a store that accepts them
/// (``PersistentStore/acceptsRowPatches``), as the slots it changes (``patched``); an
/// object is updated once in a change set.
public struct StoreChangeSet: Sendable {
    /// New rows, with permanent IDs and version 1.
    public var inserted: [StoreRow]
    /// Changed rows, complete, with their new versions.
    public var updated: [StoreRow]
    /// Changed rows given as the slots they change, with their new versions; applied after
    /// ``updated``. Empty for a store that does not accept patches.
    public var patched: [StoreRowPatch]
    /// Deleted objects and the version each had when the saver read it.
    public var deleted: [(objectID: ManagedObjectID, version: Int64)]
    /// The saving context's `transactionAuthor`.
    public var author: String?
    /// The saving context's `name`.
    public var contextName: String?
    /// When the save happened, from the coordinator's clock.
    public var timestamp: Date
    /// The saving context's objects that share patched rows, letting go of them while the
    /// rows are patched (see ``StoreRowHandoff``); `nil` when none does. Not part of the
    /// changes, and only for the engine's own stores: the coordinator clears it for any other
    /// store, whose objects' overlays the saver then converts after the save.
    var rowHandoff: StoreRowHandoff? = nil

    /// Creates a change set.
    public init(
        inserted: [StoreRow] = [], updated: [StoreRow] = [],
        deleted: [(objectID: ManagedObjectID, version: Int64)] = [],
        patched: [StoreRowPatch] = [],
        author: String? = nil, contextName: String? = nil, timestamp: Date
    ) {
        self.inserted = inserted
        self.updated = updated
        self.patched = patched
        self.deleted = deleted
        self.author = author
        self.contextName = contextName
        self.timestamp = timestamp
    }

    /// Whether there is nothing to commit.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && patched.isEmpty
    }

    /// The change set with every patch made the complete row it leaves (appended to
    /// ``updated``, in order): what a store that does not accept patches commits.
    ///
    /// - Parameter row: The current row of an ID (a store's ``PersistentStore/row(for:)``).
    /// - Throws: ``ObjectGraphError`` `.storeSaveConflict` (134050) when a patched row no
    ///   longer exists, as a store's own check would; whatever `row` throws.
    /// - Complexity: O(patches × slots), one read per patch.
    public func completingPatches(reading row: (ManagedObjectID) throws -> StoreRow?) throws
        -> StoreChangeSet
    {
        guard !patched.isEmpty else { return self }
        var complete = self
        complete.patched = []
        // Nothing is patched: nothing to hand off.
        complete.rowHandoff = nil
        complete.updated.reserveCapacity(updated.count + patched.count)
        for patch in patched {
            guard let current = try row(patch.objectID) else {
                throw StoreErrors.conflict(patch.objectID, "was deleted by another save")
            }
            complete.updated.append(patch.applied(to: current))
        }
        return complete
    }
}
