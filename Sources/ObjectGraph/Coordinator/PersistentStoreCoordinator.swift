import Foundation

/// Connects contexts to stores: opens stores, routes fetches and saves to them, and hands
/// out permanent IDs.
///
/// Safe to use from any thread: every store call happens under the coordinator's lock, so
/// a save's conflict check and commit are one atomic step with respect to other contexts.
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(with: PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null")))
/// ```
///
/// - Note: Mirrors `NSPersistentStoreCoordinator`.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    // Sendable: `stores` is read and written only while holding `lock`; the model is immutable.
    /// The model of every store the coordinator opens.
    public let managedObjectModel: ManagedObjectModel
    let lock = NSRecursiveLock()
    private(set) var stores: [any PersistentStore] = []
    private var clockOverride: (@Sendable () -> Date)?
    private var warnings: [String] = []
    private var scheduler: (any ContextScheduler)?
    /// The installed scheduler's lane remote changes are posted on (made on first use).
    private var schedulerRemoteLane: (any ContextLane)?
    /// Tells this coordinator's query generation tokens from those of other coordinators.
    let generationDomain = UUID()
    /// The serial queue `NSPersistentStoreRemoteChange` is posted on.
    let remoteChangeQueue = DispatchQueue(
        label: PersistentStoreCoordinator.remoteChangeQueueLabel)

    /// Creates a coordinator with no stores.
    ///
    /// - Note: Mirrors `init(managedObjectModel:)`.
    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
    }

    /// The open stores, in the order they were added.
    public var persistentStores: [any PersistentStore] { locked { stores } }

    /// The clock used for save timestamps: an injected one, else the first store's, else the system's.
    public var clock: @Sendable () -> Date {
        get { locked { clockOverride ?? { Date() } } }
        set { locked { clockOverride = newValue } }
    }

    /// The scheduler contexts created on this coordinator from now on run their blocks on
    /// (ObjectGraphTesting's deterministic test mode); `nil`, the default, for dispatch queues.
    package var contextScheduler: (any ContextScheduler)? {
        get { locked { scheduler } }
        set { locked { scheduler = newValue } }
    }

    /// The lane of the installed ``contextScheduler`` that `NSPersistentStoreRemoteChange` is
    /// posted on, made on first use (one per scheduler, so posts keep their order); `nil`
    /// without a scheduler.
    func remoteChangeLane() -> (any ContextLane)? {
        locked {
            guard let scheduler else { return nil }
            if let lane = schedulerRemoteLane, lane.scheduler === scheduler { return lane }
            let lane = scheduler.lane(for: .privateQueue)
            schedulerRemoteLane = lane
            return lane
        }
    }

    /// Opens the store a description names and adds it.
    ///
    /// `/dev/null` (or type `"InMemory"`) gives an ``InMemoryStore``; any other URL a
    /// `JSONLinesStore`, unless the description names another registered type. The
    /// description is read once, here. Options it sets that are ignored are reported in
    /// ``loadWarnings``.
    ///
    /// - Throws: ``ObjectGraphError`` from the store (`.storeOpenFailed` 134080,
    ///   `.incompatibleModel` 134100, `.storeLocked` 134090, …);
    ///   ``ObjectGraphError/Reason/unknownStoreType`` (134000) for an unknown type.
    /// - Note: Mirrors `addPersistentStore(with:completionHandler:)`.
    @discardableResult
    public func addPersistentStore(with description: PersistentStoreDescription) throws
        -> any PersistentStore
    {
        let settings = description.snapshot
        let notes = try settings.checkOptions()
        var options = settings.storeOptions
        options.shouldMigrateStoreAutomatically =
            options.shouldMigrateStoreAutomatically && settings.shouldMigrateStoreAutomatically
        options.shouldInferMappingModelAutomatically =
            options.shouldInferMappingModelAutomatically
            && settings.shouldInferMappingModelAutomatically
        if let clockOverride = locked({ clockOverride }) { options.clock = clockOverride }
        let type = description.type
        guard let factory = StoreTypes.factory(for: type) else {
            throw CoordinatorErrors.unknownStoreType(type, url: settings.url)
        }
        if let name = settings.configuration ?? options.configurationName {
            try checkConfiguration(name, url: settings.url)
            options.configurationName = name
        }
        let store = try factory(managedObjectModel, settings.url, options)
        locked {
            stores.append(store)
            warnings += notes
        }
        startPostingRemoteChanges(for: store, asked: options.postsRemoteChangeNotifications)
        return store
    }

    /// What adding stores noticed and ignored, one sentence each naming the store: options
    /// this build does not know (kept in the description's `options`), or known ones with a
    /// value it cannot use. Empty when every option was honoured.
    public var loadWarnings: [String] { locked { warnings } }

    /// Adds a store that is already open (built by hand, or a fixture snapshot).
    ///
    /// The store must hold rows of this coordinator's model (the same instance): a store's
    /// model cannot be changed by adding it to a coordinator of another model. A file store
    /// migrates when its file is opened with a description; a RAM store has nothing to
    /// migrate (open a new one with the new model and copy the objects).
    ///
    /// - Throws: ``ObjectGraphError`` `.incompatibleModel` (134100) when `store` was opened
    ///   with another model, naming the schema differences; the store is not added.
    /// - Note: Mirrors `addPersistentStore(ofType:configurationName:at:options:)` refusing
    ///   a store whose model is not the coordinator's
    ///   (`NSPersistentStoreIncompatibleVersionHashError`).
    public func addPersistentStore(_ store: any PersistentStore) throws {
        try checkConfiguration(store.configurationName, url: store.url)
        guard store.model === managedObjectModel else {
            throw CoordinatorErrors.modelMismatch(
                storeType: store.type,
                store: store is InMemoryStore
                    ? store.identifier : store.url?.path ?? store.identifier,
                storeModel: store.model, model: managedObjectModel, doing: "addPersistentStore")
        }
        locked { stores.append(store) }
        startPostingRemoteChanges(for: store, asked: false)
    }

    /// Adds a store built from rows of this coordinator's model (a fixture snapshot, a
    /// store the caller opened with ``managedObjectModel``), where a mismatch is a bug.
    package func addPersistentStore(ofSameModel store: any PersistentStore) {
        precondition(store.model === managedObjectModel, "ObjectGraph: store of another model")
        locked { stores.append(store) }
        startPostingRemoteChanges(for: store, asked: false)
    }

    /// Removes a store and closes it: a file store syncs what it has not synced yet, closes
    /// its file and releases its writer lock, so the file can be opened again at once (in this
    /// process or another).
    ///
    /// Objects of the store that contexts still hold can no longer fill their faults or be
    /// saved. Releasing every reference to the coordinator (the container and the contexts
    /// made from it) closes its stores too, without reporting errors.
    ///
    /// ```swift
    /// for store in container.persistentStoreCoordinator.persistentStores {
    ///     try container.persistentStoreCoordinator.remove(store)
    /// }
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` `.storeOperationFailed` (134070) when `store` is not one of
    ///   this coordinator's stores, or when closing it failed (the store is removed and its
    ///   lock released all the same).
    /// - Note: Mirrors `remove(_:)`, which calls the store's `willRemove(from:)`.
    public func remove(_ store: any PersistentStore) throws {
        let removed = locked {
            let count = stores.count
            stores.removeAll { $0 === store }
            return stores.count < count
        }
        guard removed else {
            throw ObjectGraphError(
                .storeOperationFailed,
                "remove: the \(store.type) store \(store.url?.path ?? store.identifier) is not one "
                    + "of this coordinator's stores", file: store.url?.path)
        }
        (store as? any WriteReportingStore)?.stopReportingWrites()
        try store.willRemove(from: self)
    }

    /// Puts `new` in `old`'s place (same position); `false` when `old` is not open here.
    func exchange(_ old: any PersistentStore, for new: any PersistentStore) -> Bool {
        locked {
            guard let index = stores.firstIndex(where: { $0 === old }) else { return false }
            stores[index] = new
            return true
        }
    }

    /// The name of the default configuration, `"PF_DEFAULT_CONFIGURATION_NAME"`: a store of it
    /// holds every entity of the model. `"Default"` (Xcode's name for it) is taken as the same
    /// unless the model defines a configuration of that name.
    ///
    /// - Note: Mirrors the `configurationName` of a store added with a `nil` configuration.
    public static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"

    /// The open store at `url`, or `nil` (a RAM store added with a URL is found by it too).
    ///
    /// - Note: Mirrors `persistentStore(for:)`.
    public func persistentStore(for url: URL) -> (any PersistentStore)? {
        let path = url.standardizedFileURL.path
        return locked { stores.first { $0.url?.standardizedFileURL.path == path } }
    }

    /// The store holding objects of `id`'s store identifier, or `nil`.
    ///
    /// - Note: Mirrors `persistentStore(for:)` (by URL in Core Data).
    public func persistentStore(forIdentifier identifier: String) -> (any PersistentStore)? {
        locked { stores.first { $0.identifier == identifier } }
    }

    /// The ID a URI from ``ManagedObjectID/uriRepresentation()`` stands for, or `nil` when it
    /// names no open store, no entity of the model, or is malformed.
    ///
    /// - Note: Mirrors `managedObjectID(forURIRepresentation:)`.
    public func managedObjectID(forURIRepresentation url: URL) -> ManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host, !host.isEmpty else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, let entity = managedObjectModel.entitiesByName[String(parts[0])],
            parts[1].first == "p", let key = Int64(parts[1].dropFirst()),
            persistentStore(forIdentifier: host) != nil
        else { return nil }
        return ManagedObjectID(entity: entity, storeIdentifier: host, primaryKey: key)
    }

    // MARK: Routing (internal)

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The store new objects of `entity` go to: `assigned` (a store identifier from
    /// ``ManagedObjectContext/assign(_:to:)``) when given, else the first writable store whose
    /// configuration has the entity.
    ///
    /// - Throws: `.noPersistentStore` (134030) when no store qualifies, or the assigned store
    ///   is no longer open, is read-only or does not hold the entity, naming the stores.
    func store(
        for entity: EntityDescription, assigned: String? = nil, among: Set<String>? = nil
    ) throws -> any PersistentStore {
        try locked {
            let stores =
                among.map { only in self.stores.filter { only.contains($0.identifier) } }
                ?? self.stores
            if stores.isEmpty {
                throw SaveErrors.noStore(
                    among == nil
                        ? "the coordinator has no persistent store; load one first"
                        : "none of the request's affectedStores is open", entity: entity.name)
            }
            if let assigned {
                guard let store = stores.first(where: { $0.identifier == assigned }) else {
                    throw SaveErrors.noStore(
                        "a new \(entity.name) was assigned to store \(assigned), which is no "
                            + "longer open", entity: entity.name)
                }
                if let problem = refusal(of: store, for: entity) {
                    throw SaveErrors.noStore(
                        "a new \(entity.name) was assigned to store \(assigned), which \(problem)",
                        entity: entity.name)
                }
                return store
            }
            if let store = stores.first(where: { refusal(of: $0, for: entity) == nil }) {
                return store
            }
            let reasons = stores.map { "\($0.identifier) \(refusal(of: $0, for: entity)!)" }
            throw SaveErrors.noStore(
                "no store can take a new \(entity.name): "
                    + reasons.joined(separator: "; "), entity: entity.name)
        }
    }

    /// Why `store` cannot take new objects of `entity` (read-only, or its configuration
    /// leaves the entity out), or `nil` when it can.
    private func refusal(of store: any PersistentStore, for entity: EntityDescription) -> String? {
        if store.isReadOnly { return "is read-only" }
        if !holds(store, entity) {
            return
                "holds configuration '\(store.configurationName)', which leaves \(entity.name) out"
        }
        return nil
    }

    /// Whether `store`'s configuration has `entity`: every entity for the default
    /// configuration (or `"Default"` where the model defines no configuration of that name).
    func holds(_ store: any PersistentStore, _ entity: EntityDescription) -> Bool {
        let name = store.configurationName
        guard let members = managedObjectModel.configurations[name] else {
            return name == Self.defaultConfigurationName || name == "Default"
        }
        return members.contains(entity.name)
    }

    /// Throws unless `name` is the default configuration or one of the model's.
    func checkConfiguration(_ name: String, url: URL?) throws {
        let known = managedObjectModel.configurations
        guard known[name] == nil, name != Self.defaultConfigurationName, name != "Default"
        else { return }
        let names = known.keys.sorted()
        throw ObjectGraphError(
            .invalidConfiguration,
            "addPersistentStore: the model has no configuration '\(EchoedText.capped(name))' ("
                + (names.isEmpty
                    ? "it defines none; leave the description's configuration nil"
                    : "it has " + names.map { "'\($0)'" }.joined(separator: ", "))
                + "); nothing was added", file: url?.path)
    }

    /// The saved row of `id`: the store's current one, or (with `generation`) the one of the
    /// generation a pinned context reads.
    func row(for id: ManagedObjectID, at generation: CoordinatorGeneration? = nil) throws
        -> StoreRow?
    {
        try locked {
            guard let identifier = id.storeIdentifier else { return nil }
            // Unpinned (the common case, once per updated object at save): ask the store
            // directly, without making a reader of every store for one row.
            guard let generation else {
                return try stores.first(where: { $0.identifier == identifier })?.row(for: id)
            }
            guard
                let reader = readers(at: generation).first(where: { $0.identifier == identifier })
            else {
                return nil
            }
            return try reader.row(id)
        }
    }

    func relatedObjectIDs(
        _ relationship: RelationshipDescription, of id: ManagedObjectID,
        at generation: CoordinatorGeneration? = nil
    ) throws -> [ManagedObjectID] {
        try locked {
            guard let identifier = id.storeIdentifier else { return [] }
            guard let generation else {
                return try stores.first(where: { $0.identifier == identifier })?
                    .relatedObjectIDs(relationship, of: id) ?? []
            }
            guard
                let reader = readers(at: generation).first(where: { $0.identifier == identifier })
            else {
                return []
            }
            return try reader.related(relationship, id)
        }
    }

    /// Rows from every store, or from `stores` (identifiers; a fetch request's
    /// `affectedStores`), at `generation` for a pinned context; with several stores, sorted and
    /// windowed across all of them.
    func fetch(
        _ request: StoreFetchRequest, at generation: CoordinatorGeneration? = nil,
        stores: Set<String>? = nil
    ) throws -> [StoreRow] {
        try locked {
            let readers = readers(at: generation, only: stores)
            if readers.isEmpty { return [] }
            if readers.count == 1 { return try readers[0].fetch(request) }
            var unwindowed = request
            unwindowed.fetchLimit = 0
            unwindowed.fetchOffset = 0
            let rows = try readers.flatMap { try $0.fetch(unwindowed) }
            let sorted = try RowSorting.sort(
                rows, by: request.sortDescriptors, entity: request.entity)
            return window(sorted, offset: request.fetchOffset, limit: request.fetchLimit)
        }
    }

    func count(
        _ request: StoreFetchRequest, at generation: CoordinatorGeneration? = nil,
        stores: Set<String>? = nil
    ) throws -> Int {
        try locked {
            let readers = readers(at: generation, only: stores)
            if readers.isEmpty { return 0 }
            if readers.count == 1 { return try readers[0].count(request) }
            return try fetch(request, at: generation, stores: stores).count
        }
    }

    /// Permanent IDs for new objects of `entity`, from the store they will be saved to
    /// (`assigned`, a store identifier, when ``ManagedObjectContext/assign(_:to:)`` chose it).
    func permanentIDs(for entity: EntityDescription, count: Int, assigned: String? = nil) throws
        -> [ManagedObjectID]
    {
        let (scope, keys) = try permanentKeys(for: entity, count: count, assigned: assigned)
        return keys.map { ManagedObjectID(scope: scope, primaryKey: $0) }
    }

    /// The keys ``permanentIDs(for:count:assigned:)`` makes its IDs of, with the scope they
    /// share: for a caller that makes each ID where it keeps it (a save's new IDs), so that
    /// no array of IDs is made and freed between (a retain and a release of the scope an ID).
    func permanentKeys(for entity: EntityDescription, count: Int, assigned: String? = nil)
        throws -> (scope: ObjectIDScope, keys: [Int64])
    {
        try locked {
            let store = try store(for: entity, assigned: assigned)
            let keys = try store.allocatePrimaryKeys(for: entity, count: count)
            return (ObjectIDScope.of(entity, store: store.identifier), keys)
        }
    }
}
