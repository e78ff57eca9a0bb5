import Foundation

/// A scratchpad of managed objects: where objects are inserted, fetched, changed, deleted
/// and saved.
///
/// A root context sits on a ``PersistentStoreCoordinator`` and saves to its stores; a child
/// context sits on a ``parent`` context and saves into it, in memory only (a scratchpad: save
/// the child, then the parent; see <doc:SavingAndValidation>). Every context runs on one
/// queue: a private serial queue (`.privateQueue`, used only inside
/// ``perform(_:)-(()->Void)`` or ``performAndWait(_:)``) or the main queue (`.mainQueue`,
/// which code already on the main queue may also use directly).
///
/// ```swift
/// let draft = ManagedObjectContext(concurrencyType: .mainQueue)
/// draft.parent = container.viewContext
/// let food = Category(context: draft)
/// food.name = "Food"
/// try draft.save()                   // into viewContext, in memory only
/// try container.viewContext.save()   // now in the store
/// ```
///
/// - Important: With the concurrency check on (the default in debug builds; set
///   `OBJECTGRAPH_CONCURRENCY_CHECK=0` to turn it off, `=1` to force it on in release), using a
///   context or one of its objects off its queue traps with a message naming the context
///   and the call.
/// - Note: Mirrors `NSManagedObjectContext`.
public final class ManagedObjectContext: @unchecked Sendable, CustomStringConvertible {
    // Sendable: all mutable state is confined to the context's queue; `perform`/`performAndWait`
    // are the only ways in from elsewhere, and the concurrency check enforces it.
    /// The kind of queue the context runs on.
    public let concurrencyType: ConcurrencyType
    /// The context's serial queue (the main queue for `.mainQueue`), or its lane of an
    /// installed ``ContextScheduler``. Set at init, or when ``parent`` is first set.
    @exclusivity(unchecked) var queue: ContextQueue
    /// A name for debugging, notifications and history (Core Data's `name`).
    public var name: String?
    /// The author recorded with this context's saves in the store's history.
    public var transactionAuthor: String?
    /// How conflicts with the store are resolved at save. Default ``MergePolicy/error``.
    public var mergePolicy: MergePolicy = .error
    /// Whether saves of the parent (or, for a root context, of sibling contexts on the same
    /// coordinator) are merged into this context automatically. Default `false`.
    ///
    /// Turning it on while the context is pinned to a query generation that is no longer
    /// current is not supported, as in Core Data: it traps. See <doc:QueryGenerations>.
    public var automaticallyMergesChangesFromParent = false {
        didSet {
            if automaticallyMergesChangesFromParent { checkAutomaticMergeAllowed() }
            updateMergeObservation()
        }
    }
    /// Whether firing a fault for a row that no longer exists marks the object deleted
    /// (`true`, the default) rather than trapping with code 133000.
    public var shouldDeleteInaccessibleFaults = true
    /// How long fetched values stay fresh, in seconds; negative means forever (the default).
    ///
    /// A fault a fetch returned fires from the row that fetch read, as Core Data's row cache
    /// fulfils it with the default (infinite) staleness: a save by another context is seen
    /// after a merge, a refresh or a refetch. Other faults read the parent or store when
    /// they fire. Other values of the interval are recorded but not applied.
    public var stalenessInterval: TimeInterval = -1
    /// Whether delete rules run when pending changes are processed, at the end of each event
    /// (`true`, the default), or only at save (`false`).
    ///
    /// The end of an event is the end of a ``perform(_:)-(()->Void)`` block, a call to
    /// ``processPendingChanges()``, the end of the main queue's turn for a main-queue context
    /// used directly, and the start of a fetch; `performAndWait` does not end one.
    ///
    /// - Note: Mirrors `propagatesDeletesAtEndOfEvent`.
    public var propagatesDeletesAtEndOfEvent = true
    /// Whether the context holds every registered object strongly. Default `false`.
    ///
    /// By default, as in Core Data, a context holds strongly only the objects with unsaved
    /// changes (inserted, updated or deleted); an unchanged object lives as long as something
    /// else references it (your code, or a relationship of another live object), and a later
    /// fetch after it went away returns a new instance with the store's values. Objects the
    /// context hands you (fetch results, `object(with:)`, merged inserts) are kept at least
    /// until the end of the current event. Set this to `true` to keep every registered object
    /// until `reset()` or the context goes away, for example for a small set of objects you
    /// look up by ID.
    ///
    /// - Note: Mirrors `retainsRegisteredObjects`.
    public var retainsRegisteredObjects: Bool {
        get {
            checkQueue("retainsRegisteredObjects")
            return registry.retainsAll
        }
        set {
            checkQueue("retainsRegisteredObjects")
            registry.retainsAll = newValue
        }
    }

    /// The coordinator of a root context.
    let rootCoordinator: PersistentStoreCoordinator?
    // Unchecked exclusivity: filling each fault from a store row asks whether there is a
    // parent, and the dynamic check (≈ 76 instructions) cost more than the rest of that
    // test. `parent` is public and set from any thread before the context is used; the
    // dynamic check only ever caught overlapping accesses on one thread, and the engine has
    // none (the observer below runs after the write).
    /// The parent context of a child context.
    @exclusivity(unchecked) public var parent: ManagedObjectContext? {
        didSet {
            precondition(
                parent !== self, "ManagedObjectContext: a context cannot be its own parent")
            precondition(
                rootCoordinator == nil || parent == nil,
                "ManagedObjectContext: a context with a coordinator cannot also have a parent")
            adoptParentScheduler()
            updateMergeObservation()
        }
    }

    // Queue-confined state; dynamic exclusivity checks are off for it (hot paths).
    /// Registered objects by ID, kept only while referenced elsewhere (see ``ObjectRegistry``).
    let registry = ObjectRegistry()
    /// Objects with pending changes, in the order they were first changed (held strongly).
    @exclusivity(unchecked) var pending = PendingObjects()
    /// Objects whose deletion awaits delete-rule processing.
    @exclusivity(unchecked) var unprocessedDeletes: [ManagedObject] = []
    /// ``ObjectRegistry/removals`` when delete propagation first kept a deleted object's
    /// to-one destination beside its row (`ManagedObject.keepDestinationFound(_:)`) since the
    /// last save finished; `nil` when none was kept. While the registry's count is still this,
    /// every destination kept since is the object registered under its ID (each is referenced
    /// by the object that keeps it, so no sweep drops it), and the save's end reuses it rather
    /// than looking the ID up again. Only `finishSave` clears it: a stamp survives a failed
    /// save, a rollback and a reset, which is safe because the count only grows: an older
    /// stamp can only make a later save's comparison fail (and look the IDs up), never pass
    /// for a destination kept after a removal. A save that inserts (or discards an insert)
    /// moves or removes entries, so it never reuses.
    @exclusivity(unchecked) var keptDestinationsStamp: Int?
    /// Changes since the last objects-did-change notification.
    @exclusivity(unchecked) var unannounced = ChangeAnnouncement()
    /// Objects handed to the caller in the current event, kept alive until it ends.
    @exclusivity(unchecked) var eventObjects: [ManagedObject] = []
    /// For a main-queue context: whether the end of the current main-queue turn is scheduled.
    @exclusivity(unchecked) var endOfTurnScheduled = false
    /// While a save runs: the inserted and updated objects its objects-did-change announced,
    /// with the sets it posted, for the did-save notification to reuse (see `finishSave`).
    /// `nil` outside a save, so the sets never keep objects alive past it.
    @exclusivity(unchecked) var announcedDuringSave: AnnouncedSets?
    /// The class `init(context:)` last asked about, the model it asked and the entity the
    /// model gave (see `entity(forClass:)`): a bulk insert makes object after object of one
    /// class. Three fields compared in place: one optional struct of them was copied out
    /// to be compared, a retain and release of the model and the entity (≈ 170 instructions
    /// a call with it, the model's look-up ≈ 240).
    @exclusivity(unchecked) var lastClass: ObjectIdentifier?
    /// The model `lastClass` was looked up in; held, so that no other model takes its address.
    @exclusivity(unchecked) var lastClassModel: ManagedObjectModel?
    /// The entity `lastClassModel` gave `lastClass`.
    @exclusivity(unchecked) var lastClassEntity: EntityDescription?
    /// The temporary ID scope `newTemporaryID(for:)` last used, kept for the next object of
    /// its entity (a bulk insert makes object after object of one entity).
    @exclusivity(unchecked) var lastTemporaryScope: ObjectIDScope?
    var mergeObserver: (any NSObjectProtocol)?
    /// Permanent IDs given at save to objects that had temporary ones (for children that
    /// still hold the temporary ID). Queue-confined as the state above: an insert save writes
    /// its batch of IDs, and a dynamic exclusivity check cost ≈ 40 instructions an access.
    @exclusivity(unchecked) var permanentIDs = PermanentIDMap()
    /// The stores ``assign(_:to:)`` chose for inserted objects, by their temporary IDs (store
    /// identifiers). Read by the insert save and `obtainPermanentIDs(for:)`, handed to the
    /// parent by a child's save, emptied when the IDs become permanent, by `rollback()` and by
    /// `reset()`.
    var assignedStores: [ManagedObjectID: String] = [:]
    /// The undo manager recording each event's changes; `nil` (the default) records nothing.
    ///
    /// See <doc:UndoAndRedo>. Setting it (or `nil`) starts recording from the current state.
    ///
    /// - Note: Mirrors `undoManager`.
    public var undoManager: ObjectGraphUndoManager? {
        didSet { undoBaselines.removeAll() }
    }
    /// Each changed object's state at the end of the last event, for the next undo group.
    var undoBaselines: [ObjectIdentifier: UndoState] = [:]
    /// Each changed object's values at the end of the last event that announced it, for
    /// `changedValuesForCurrentEvent()` (see `captureEventBaselines(_:)`).
    var eventBaselines = EventBaselines()
    /// The values noted by `willChangeValue(forKey:)` and not yet taken by its
    /// `didChangeValue(forKey:)`, per object and slot (see `OpenChange`).
    var openChanges: [ObjectIdentifier: OpenChange] = [:]
    /// The query generation a root context reads (see <doc:QueryGenerations>).
    var queryGenerationPin = QueryGenerationPin.unpinned
    /// The token the context's objects hold to reach it (see `ContextToken`): names this
    /// context from the end of its initialisers to the start of its `deinit`.
    let token = ContextToken()

    /// Creates a context with no parent and no coordinator; set ``parent`` before use.
    ///
    /// - Note: Mirrors `init(concurrencyType:)`.
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        self.rootCoordinator = nil
        self.queue = .make(concurrencyType, scheduler: nil)
        token.context = self
    }

    /// Creates a root context saving to `coordinator`'s stores.
    ///
    /// - Note: Core Data sets `persistentStoreCoordinator` after init; here it is fixed at init.
    public init(concurrencyType: ConcurrencyType, coordinator: PersistentStoreCoordinator) {
        self.concurrencyType = concurrencyType
        self.rootCoordinator = coordinator
        self.queue = .make(
            concurrencyType, scheduler: coordinator.contextScheduler)
        token.context = self
    }

    deinit {
        // First: objects' `managedObjectContext` reads nil from here on, before any object
        // this context holds is released (see `ContextToken`).
        token.context = nil
        if let mergeObserver { NotificationCenter.default.removeObserver(mergeObserver) }
    }

    /// A context made without a coordinator runs on the scheduler of the parent it is given
    /// (a child or draft context of a context in deterministic test mode).
    private func adoptParentScheduler() {
        guard case .dispatch = queue, let scheduler = parent?.queue.scheduler else { return }
        queue = .make(concurrencyType, scheduler: scheduler)
    }

    /// The coordinator at the root of the context's parent chain.
    ///
    /// - Note: Mirrors `persistentStoreCoordinator`.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        rootCoordinator ?? parent?.persistentStoreCoordinator
    }

    /// The context's name, or its kind and address.
    public var description: String {
        name.map { "context '\($0)'" }
            ?? "\(concurrencyType == .mainQueue ? "main-queue" : "private-queue") context \(ObjectIdentifier(self))"
    }

    /// Whether the context has unsaved inserts, updates or deletes.
    ///
    /// - Note: Mirrors `hasChanges`.
    public var hasChanges: Bool {
        checkQueue("hasChanges")
        return pending.objects.contains { $0.hasChanges }
    }

    /// Objects inserted and not yet saved.
    public var insertedObjects: Set<ManagedObject> {
        checkQueue("insertedObjects")
        return Set(pending.objects.filter { $0.isInserted && !$0.isDeleted })
    }

    /// Objects changed and not yet saved (not inserted, not deleted).
    public var updatedObjects: Set<ManagedObject> {
        checkQueue("updatedObjects")
        return Set(pending.objects.filter { $0.isUpdated })
    }

    /// Objects deleted and not yet saved.
    public var deletedObjects: Set<ManagedObject> {
        checkQueue("deletedObjects")
        return Set(pending.objects.filter { $0.isDeleted && !$0.isInserted })
    }

    /// Every object registered in the context: those with pending changes, and the others
    /// that are still alive (see ``retainsRegisteredObjects``).
    public var registeredObjects: Set<ManagedObject> {
        checkQueue("registeredObjects")
        return Set(registry.values)
    }
}

/// Objects with pending changes, in first-change order, without duplicates.
///
/// Membership is a flag on each object (`ObjectState.isPending`), so adding an object that
/// is already pending costs one load, with no hashing.
struct PendingObjects {
    private(set) var objects: [ManagedObject] = []
    /// How many times objects have left the list (``remove(_:)``, ``removeAll()``): a save
    /// compares it before and after validation, whose user code may let go of the save's
    /// changes (`reset()`, `rollback()`, a nested `save()`).
    private(set) var removals = 0

    /// Adds `o`; returns whether it was new.
    @discardableResult
    mutating func add(_ o: ManagedObject) -> Bool {
        guard !o.state.isPending else { return false }
        o.state.isPending = true
        objects.append(o)
        return true
    }

    func contains(_ o: ManagedObject) -> Bool { o.state.isPending }

    mutating func removeAll() {
        for o in objects { o.state.isPending = false }
        objects.removeAll()
        removals &+= 1
    }

    mutating func remove(_ o: ManagedObject) {
        guard o.state.isPending else { return }
        o.state.isPending = false
        objects.removeAll { $0 === o }
        removals &+= 1
    }
}

/// The IDs of one batch of a fetch with `fetchBatchSize`; filled together when one fires.
final class FaultBatch {
    let ids: [ManagedObjectID]
    init(_ ids: [ManagedObjectID]) { self.ids = ids }
}

extension ManagedObject: Hashable {
    /// Objects are equal only to themselves (identity), as in Core Data.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// The object's hash in a `Set` or `Dictionary` whose seed is `seed`: its identity mixed
    /// without `Hasher` (see `IdentityHash`), as cheap as an identity can be hashed.
    ///
    /// The standard library's hashing entry point for sets and dictionaries (an underscored
    /// requirement of `Hashable`, which its own integer types implement the same way);
    /// ``hash(into:)`` still serves hashes of values that contain an object.
    public func _rawHashValue(seed: Int) -> Int {
        IdentityHash.mix(IdentityHash.bits(self), seed: seed)
    }
}
