import Foundation

/// A store that keeps its rows in RAM only: Core Data's `/dev/null` SQLite store.
///
/// Fast, volatile and fully featured: the same fetches, constraints, delete rules and
/// conflicts as the file store, so tests on it mean something. Open it with a
/// `PersistentStoreDescription` whose URL is `/dev/null` (or whose type is `"InMemory"`).
/// ``snapshot()`` and ``init(model:table:url:options:)`` copy a whole store in O(1), which is
/// how the fixture provider gives each test its own world.
///
/// - Note: Mirrors Core Data's SQLite store at `/dev/null` (preferred over
///   `NSInMemoryStoreType`, whose behaviour differs).
public final class InMemoryStore: PersistentStore, StagedCommitting, @unchecked Sendable {
    // Sendable: `table`, `generations`, `historyLog`, `transactionCount` and `reporting` are
    // read and written only while holding `lock`.
    /// The store type name, `"InMemory"`.
    public static let storeType = "InMemory"

    /// The store's UUID string.
    public let identifier: String
    /// `"InMemory"`.
    public var type: String { Self.storeType }
    /// The URL it was opened at (`/dev/null`), if any.
    public let url: URL?
    /// The model it holds rows of.
    public let model: ManagedObjectModel
    /// Whether commits are refused.
    public let isReadOnly: Bool
    /// The model configuration the store holds (``StoreOptions/configurationName``), or
    /// ``PersistentStoreCoordinator/defaultConfigurationName``.
    public let configurationName: String
    /// Always empty: nothing to recover.
    public var recoveryNotices: [String] { [] }

    /// Whether the store records persistent history (``StoreOptions/tracksHistory``).
    public let tracksHistory: Bool
    /// Whether the store reports its commits (``StoreOptions/postsRemoteChangeNotifications``).
    let postsRemoteChangeNotifications: Bool

    private let lock = NSLock()
    private var table: RowTable
    private var generations = RowTableGenerations()
    /// The history, when tracked (transactions numbered from 1 by this store's commits).
    private var historyLog = HistoryLog(start: 0)
    /// How many non-empty change sets the store has committed.
    var transactionCount: Int64 = 0
    var reporting: WriteReporting?

    /// Opens an empty RAM store.
    ///
    /// - Parameters:
    ///   - model: The model of the rows.
    ///   - url: Recorded only; `/dev/null` by convention.
    ///   - options: `storeIdentifier` fixes the UUID; `isReadOnly` refuses commits;
    ///     `tracksHistory` keeps persistent history in memory.
    public init(model: ManagedObjectModel, url: URL? = nil, options: StoreOptions = StoreOptions())
    {
        self.identifier = options.storeIdentifier ?? UUID().uuidString
        self.url = url
        self.model = model
        self.isReadOnly = options.isReadOnly
        self.configurationName =
            options.configurationName ?? PersistentStoreCoordinator.defaultConfigurationName
        self.postsRemoteChangeNotifications = options.postsRemoteChangeNotifications
        self.tracksHistory = options.tracksHistory
        self.table = RowTable(model: model, storeIdentifier: identifier)
    }

    /// Opens a RAM store holding a copy of `table` (O(1); copies on later writes).
    ///
    /// The store keeps the table's store identifier. A RAM store has nothing to migrate: its
    /// rows are laid out for the model they were written with, so `model` must be that very
    /// model (`table.model`).
    ///
    /// - Throws: ``ObjectGraphError`` `.incompatibleModel` (134100) when `model` is not the
    ///   model the table's rows were written with, naming the schema differences; open a new
    ///   store with the new model and copy the objects instead.
    /// - Note: Mirrors adding a store whose model differs from the coordinator's
    ///   (`NSPersistentStoreIncompatibleVersionHashError`).
    public convenience init(
        model: ManagedObjectModel, table: RowTable, url: URL? = nil,
        options: StoreOptions = StoreOptions()
    ) throws {
        if table.model !== model {
            throw CoordinatorErrors.modelMismatch(
                storeType: Self.storeType, store: table.storeIdentifier,
                storeModel: table.model, model: model, doing: "InMemoryStore(model:table:)")
        }
        self.init(table: table, url: url, options: options)
    }

    /// Opens a RAM store holding a copy of `table`, with the table's own model (O(1)).
    package init(table: RowTable, url: URL? = nil, options: StoreOptions = StoreOptions()) {
        self.identifier = table.storeIdentifier
        self.url = url
        self.model = table.model
        self.isReadOnly = options.isReadOnly
        self.configurationName =
            options.configurationName ?? PersistentStoreCoordinator.defaultConfigurationName
        self.postsRemoteChangeNotifications = options.postsRemoteChangeNotifications
        self.tracksHistory = options.tracksHistory
        self.table = table
    }

    /// A copy of every row, in O(1).
    public func snapshot() -> RowTable { locked { table } }

    /// See ``PersistentStore/fetch(_:)``.
    public func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
        let t = snapshot()
        return try t.fetch(request)
    }

    /// See ``PersistentStore/count(_:)``.
    public func count(_ request: StoreFetchRequest) throws -> Int {
        let t = snapshot()
        return try t.count(request)
    }

    /// See ``PersistentStore/row(for:)``.
    public func row(for objectID: ManagedObjectID) throws -> StoreRow? {
        locked { table.row(for: objectID) }
    }

    /// See ``RowVersionReadingStore/readRowVersions(of:_:)``.
    func readRowVersions(
        of objects: ArraySlice<ManagedObject>, _ body: (Int, Int64?) -> Void
    ) throws {
        locked { table.readVersions(of: objects, body) }
    }

    /// See ``PersistentStore/relatedObjectIDs(_:of:)``.
    public func relatedObjectIDs(
        _ relationship: RelationshipDescription, of objectID: ManagedObjectID
    ) throws
        -> [ManagedObjectID]
    {
        locked { table.relatedObjectIDs(relationship, of: objectID) }
    }

    /// See ``PersistentStore/allocatePrimaryKeys(for:count:)``.
    public func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        locked { table.allocatePrimaryKeys(for: entity, count: count) }
    }

    /// See ``PersistentStore/commit(_:)``.
    ///
    /// With history tracked, the commit is recorded as the next history transaction (a
    /// commit with no changes records nothing).
    public func commit(_ changes: StoreChangeSet) throws {
        var changes = changes
        try commit(&changes, moving: false)
    }

    /// ``StagedCommitting/commit(movingRows:)``: ``commit(_:)``, the inserted rows moved
    /// into the table.
    func commit(movingRows changes: inout StoreChangeSet) throws {
        try commit(&changes, moving: true)
    }

    /// ``commit(_:)`` and ``commit(movingRows:)``: checks `changes` under the store's lock,
    /// then applies them (``applyChecked(_:moving:)``).
    private func commit(_ changes: inout StoreChangeSet, moving: Bool) throws {
        if isReadOnly { throw StoreErrors.readOnly(url) }
        try locked {
            try table.check(changes)
            applyChecked(&changes, moving: moving)
        }
    }

    /// ``StagedCommitting/withStagedCommit(_:_:)``: checks `changes` under the store's lock;
    /// writing is nothing to do (the rows are the store), and applying them is what
    /// ``commit(_:)`` does after its check.
    func withStagedCommit<R>(_ changes: StoreChangeSet, _ body: (StagedCommit) throws -> R)
        throws -> R
    {
        if isReadOnly { throw StoreErrors.readOnly(url) }
        return try locked {
            try table.check(changes)
            guard !changes.isEmpty else { return try body(.nothing) }
            return try body(
                StagedCommit(
                    write: {}, keptAfterFailedWrite: { false }, undo: { true },
                    apply: {
                        var changes = changes
                        self.applyChecked(&changes, moving: false)
                    }))
        }
    }

    /// Applies checked changes to the rows, recording history; `moving`: the inserted rows
    /// moved out of `changes` into the table (``RowTable/applyUnchecked(moving:)``). The
    /// caller holds `lock`.
    private func applyChecked(_ changes: inout StoreChangeSet, moving: Bool) {
        let isEmpty = changes.isEmpty
        let record =
            tracksHistory && !changes.isEmpty
            ? StoreHistoryTransaction(
                committing: changes, number: historyLog.last + 1,
                oldRow: { table.row(for: $0) }) : nil
        generations.willApply(changes, to: table)
        if moving { table.applyUnchecked(moving: &changes) } else { table.applyUnchecked(changes) }
        if let record { historyLog.append(record) }
        if !isEmpty {
            transactionCount += 1
            reporting?.advance(to: transactionCount, store: identifier, url: url)
        }
    }

    /// `true`: updates given as patches change the rows' slots in place.
    public var acceptsRowPatches: Bool { true }

    /// See ``PersistentStore/currentHistoryTransactionNumber()``.
    public func currentHistoryTransactionNumber() throws -> Int64 {
        guard tracksHistory else { throw HistoryErrors.notTracked(self) }
        return locked { historyLog.last }
    }

    /// See ``PersistentStore/history(after:)``.
    public func history(after number: Int64?) throws -> [StoreHistoryTransaction] {
        guard tracksHistory else { throw HistoryErrors.notTracked(self) }
        return try locked {
            Array(try historyLog.transactions(after: number, store: identifier, path: nil))
        }
    }

    /// See ``PersistentStore/deleteHistory(before:)``.
    public func deleteHistory(before number: Int64) throws -> Int {
        guard tracksHistory else { throw HistoryErrors.notTracked(self) }
        if isReadOnly { throw StoreErrors.readOnly(url, "deleteHistory") }
        return locked { historyLog.deleteHistory(before: number) }
    }

    /// `true`: the store keeps the generations contexts are pinned to.
    public var supportsQueryGenerations: Bool { true }

    /// Pins the store's current generation. See ``PersistentStore/currentQueryGeneration()``.
    ///
    /// A pinned generation keeps, in memory, one copy of each row changed since it was pinned
    /// (the row as it was), and nothing else; it is freed when no context or token holds it.
    public func currentQueryGeneration() throws -> any PersistentStoreGeneration {
        locked { generations.pin(host: self, storeIdentifier: identifier) }
    }

    /// How many pinned generations are alive.
    var liveGenerationCount: Int { locked { generations.liveCount } }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension InMemoryStore: RowBatchUpdatingStore {
    /// Runs a batch update on the rows in place: plans it (every new value computed, so a
    /// value that does not fit changes nothing), then writes the updated attributes. A pinned
    /// query generation first keeps the rows as they were; with history tracked, the update
    /// is recorded as the next history transaction, like a commit.
    func batchUpdate(_ update: RowBatchUpdate) throws -> [ManagedObjectID] {
        try locked {
            // Which slots each row changes is worked out only for history; the before-images
            // only when a generation is pinned.
            let plan = try table.plan(update, findingChanges: tracksHistory)
            if plan.isEmpty { return [] }
            if isReadOnly { throw StoreErrors.readOnly(url) }
            let record =
                tracksHistory
                ? StoreHistoryTransaction(
                    number: historyLog.last + 1, timestamp: update.timestamp,
                    author: update.author, contextName: update.contextName,
                    changes: table.historyChanges(plan)) : nil
            generations.didChange(before: table.beforeImages(of: plan))
            let ids = table.apply(plan)
            if let record { historyLog.append(record) }
            transactionCount += 1
            reporting?.advance(to: transactionCount, store: identifier, url: url)
            return ids
        }
    }
}

extension InMemoryStore: RowTableHost {
    func withLiveTable<T>(_ body: (RowTable) throws -> T) throws -> T {
        try locked { try body(table) }
    }
}
