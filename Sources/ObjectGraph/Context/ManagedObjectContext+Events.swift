import Foundation

// Events: when a context announces its changes, and how long the objects it hands out live.
//
// An event is Core Data's unit of change processing. It ends
// - at the end of every `perform` block (Core Data's `perform` "encapsulates an autorelease
//   pool and a call to processPendingChanges"; `performAndWait` does neither);
// - on every `processPendingChanges()`, which `save()` and merges call too;
// - for a main-queue context used directly on the main queue, at the end of the current
//   main-queue turn. Core Data hooks the main run loop for this; Linux's main queue has no
//   such hook, so the first change of a turn schedules one `DispatchQueue.main.async`, which
//   runs after the blocks already queued (coalesced: one per turn). Under a deterministic
//   scheduler the block goes to its main lane, a step like any other.
//
// At the end of an event, delete rules run (with `propagatesDeletesAtEndOfEvent`) and one
// objects-did-change carries every change since the last. Objects handed to the caller
// (fetch results, `object(with:)`, merged inserts) stay alive until the event ends, as
// Core Data's autorelease pool keeps them; for `performAndWait`, until it returns to a caller
// outside the context's queue.

extension ManagedObjectContext {
    /// Ends the current event: runs delete rules for pending deletions (unless
    /// ``propagatesDeletesAtEndOfEvent`` is false), records the event's changes as one undo
    /// group with the ``undoManager`` (and closes the group it opened), and posts one
    /// objects-did-change carrying every insert, update, delete and refresh since the last one.
    ///
    /// Called at the end of every ``perform(_:)-(()->Void)`` block, by `save()` and by merges,
    /// and for a main-queue context used directly, at the end of the main queue's turn.
    /// `performAndWait` does not call it: call it yourself when changes made there must be
    /// announced (or their delete rules run) before the next of those.
    ///
    /// - Note: Mirrors `processPendingChanges()`.
    public func processPendingChanges() {
        checkQueue("processPendingChanges()")
        if propagatesDeletesAtEndOfEvent { propagateDeletes() }
        if let undoManager { recordUndo(in: undoManager) }
        postObjectsDidChange(invalidatedAll: false)
    }

    /// The end of a `perform` block or of a main-queue turn.
    func endEvent() {
        processPendingChanges()
        releaseEventObjects()
    }

    /// Lets go of the objects kept for the event; those nothing else references leave the
    /// registry (see ``ObjectRegistry/endOfEvent()``).
    func releaseEventObjects() {
        registry.noteWork(eventObjects.count)
        eventObjects.removeAll()
        registry.endOfEvent()
    }

    /// Keeps objects handed to the caller alive until the end of the current event.
    func keepForEvent(_ object: ManagedObject) {
        eventObjects.append(object)
        noteEventWork()
    }

    /// Keeps objects handed to the caller alive until the end of the current event.
    ///
    /// The first list of an event is kept as it is (its buffer shared with the caller's
    /// array, as a copy on write), not copied: appending it retained each object, and freeing
    /// the copy released each again (a fetch of 20,000 objects: ≈ 20 instructions an
    /// object). A later list or object is appended (copying a shared buffer first, once).
    func keepForEvent(_ objects: [ManagedObject]) {
        guard !objects.isEmpty else { return }
        if eventObjects.isEmpty {
            eventObjects = objects
        } else {
            eventObjects.append(contentsOf: objects)
        }
        noteEventWork()
    }

    // MARK: Recording changes for the next announcement

    func announceInserted(_ object: ManagedObject) {
        object.state.isUnannounced = true
        unannounced.inserted.append(object)
        noteEventWork()
    }

    func announceUpdated(_ object: ManagedObject) {
        guard !object.state.isUnannounced else { return }
        object.state.isUnannounced = true
        unannounced.updated.append(object)
        noteEventWork()
    }

    func announceDeleted(_ object: ManagedObject) {
        object.state.isUnannounced = true
        unannounced.deleted.append(object)
        noteEventWork()
    }

    func announceRefreshed(_ object: ManagedObject) {
        unannounced.refreshed.append(object)
        noteEventWork()
    }

    /// For a main-queue context: makes sure the end of the current main-queue turn ends the
    /// event, with one block queued on the first change of the turn.
    @inline(__always)
    private func noteEventWork() {
        guard concurrencyType == .mainQueue, !endOfTurnScheduled else { return }
        endOfTurnScheduled = true
        queue.async("end of main-queue turn", self) { [weak self] in
            guard let self else { return }
            QueueOwnership.with(self.queue.blockOwnership, adding: ObjectIdentifier(self)) {
                self.endOfTurnScheduled = false
                self.endEvent()
            }
        }
    }

    // MARK: Posting

    /// Posts objects-did-change with the changes recorded since the last one (or
    /// `NSInvalidatedAllObjectsKey`), and starts recording afresh.
    func postObjectsDidChange(invalidatedAll: Bool) {
        let changes = unannounced
        unannounced = ChangeAnnouncement()
        changes.clearFlags()
        var info: [String: Any] = [:]
        if invalidatedAll {
            info[NSInvalidatedAllObjectsKey] = true
        } else {
            guard !changes.isEmpty else { return }
            func put(_ key: String, _ objects: [ManagedObject]) -> Set<ManagedObject>? {
                if objects.isEmpty { return nil }
                let set = Set(announcing: objects)
                info[key] = set
                return set
            }
            let inserts = changes.announcedInserts(in: self)
            let insertSet = put(NSInsertedObjectsKey, inserts)
            let updates = changes.announcedUpdates()
            let updateSet = put(NSUpdatedObjectsKey, updates)
            if announcedDuringSave != nil {
                // A save under way: its did-save may reuse these sets (see `finishSave`).
                if let insertSet { announcedDuringSave!.inserted = (inserts, insertSet) }
                if let updateSet { announcedDuringSave!.updated = (updates, updateSet) }
            }
            let deletions = changes.announcedDeletions()
            if let deleteSet = put(NSDeletedObjectsKey, deletions), announcedDuringSave != nil {
                announcedDuringSave!.deleted = (deletions, deleteSet)
            }
            _ = put(NSRefreshedObjectsKey, changes.refreshed)
            _ = put(NSInvalidatedObjectsKey, changes.invalidated)
            guard !info.isEmpty else { return }
        }
        // The next event's baselines are the values now, before the observers can write.
        let baselines = invalidatedAll ? [] : captureEventBaselines(changes)
        let clearings = eventBaselines.clearings
        NotificationCenter.default.post(
            name: Self.didChangeObjectsNotification, object: self, userInfo: info)
        if !baselines.isEmpty { keepEventBaselines(baselines, clearings: clearings) }
    }
}

/// Changes waiting for the next objects-did-change notification.
///
/// Objects in `inserted`, `updated` and `deleted` carry `ObjectState.isUnannounced` until the
/// notification goes out, so an object changed many times in one event is recorded once.
struct ChangeAnnouncement {
    var inserted: [ManagedObject] = []
    /// Objects another context saved, new to this one (merges).
    var mergedInserts: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []
    var refreshed: [ManagedObject] = []
    var invalidated: [ManagedObject] = []

    var isEmpty: Bool {
        inserted.isEmpty && mergedInserts.isEmpty && updated.isEmpty && deleted.isEmpty
            && refreshed.isEmpty && invalidated.isEmpty
    }

    func clearFlags() {
        for object in inserted { object.state.isUnannounced = false }
        for object in updated { object.state.isUnannounced = false }
        for object in deleted { object.state.isUnannounced = false }
    }

    /// The inserted objects to announce: those still inserted in `context` (not deleted or
    /// rolled back since), and the objects merges brought in.
    func announcedInserts(in context: ManagedObjectContext) -> [ManagedObject] {
        let current = { (object: ManagedObject) in
            object.state.isInserted && !object.state.isDeleted
                && object.isIn(context)
        }
        // Usually every one is: the array itself then, not a copy (a retain and release of
        // each object).
        var objects = inserted.allSatisfy(current) ? inserted : inserted.filter(current)
        if !mergedInserts.isEmpty { objects += mergedInserts.filter { !$0.state.isDeleted } }
        return objects
    }

    /// The updated objects to announce: those still changed and not deleted since.
    func announcedUpdates() -> [ManagedObject] {
        let stale = { (object: ManagedObject) in !object.hasChanges || object.state.isDeleted }
        return updated.contains(where: stale) ? updated.filter { !stale($0) } : updated
    }

    /// The deleted objects to announce: still deleted, and not inserted in this same event
    /// (an object inserted and deleted before anyone heard of it is never announced).
    func announcedDeletions() -> [ManagedObject] {
        let deletions =
            deleted.allSatisfy(\.state.isDeleted) ? deleted : deleted.filter(\.state.isDeleted)
        guard deletions.contains(where: \.state.isInserted) else { return deletions }
        let newcomers = Set(inserted.map(ObjectIdentifier.init))
        return deletions.filter { !newcomers.contains(ObjectIdentifier($0)) }
    }
}

/// The inserted, updated and deleted objects a save's objects-did-change notifications
/// announced, each with the set posted for them.
struct AnnouncedSets {
    var inserted: (objects: [ManagedObject], set: Set<ManagedObject>)?
    var updated: (objects: [ManagedObject], set: Set<ManagedObject>)?
    var deleted: (objects: [ManagedObject], set: Set<ManagedObject>)?

    /// The set announced for exactly `objects` (the same objects in the same order), if any;
    /// else a new set of them. A save writes the objects its announcement named, in the same
    /// first-change order, unless `willSave()` or the delete rules changed more.
    static func set(
        of objects: [ManagedObject],
        reusing announced: (objects: [ManagedObject], set: Set<ManagedObject>)?
    ) -> Set<ManagedObject> {
        if let announced, same(announced.objects, objects) { return announced.set }
        return Set(announcing: objects)
    }

    /// Replaces each announced list that holds exactly the objects of `changes`' list of
    /// its kind (in the same order) by that list, so that the two share one storage and the
    /// announced one is freed: a save holds one list of its objects while it commits.
    /// - Complexity: O(n) in the announced objects, once per save.
    mutating func share(_ changes: SaveChanges) {
        if let announced = inserted, Self.same(announced.objects, changes.inserted) {
            inserted!.objects = changes.inserted
        }
        if let announced = updated, Self.same(announced.objects, changes.updated) {
            updated!.objects = changes.updated
        }
        if let announced = deleted, Self.same(announced.objects, changes.deleted) {
            deleted!.objects = changes.deleted
        }
    }

    /// Whether `a` and `b` hold the same objects in the same order: at once when they share
    /// their storage (see `share(_:)`), else by comparing each pair's identity.
    static func same(_ a: [ManagedObject], _ b: [ManagedObject]) -> Bool {
        guard a.count == b.count else { return false }
        let shared = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
        return shared || zip(a, b).allSatisfy { $0 === $1 }
    }
}

extension Set where Element == ManagedObject {
    /// The set of `objects` (equal objects are one member: each is equal only to itself), as
    /// `Set(objects)` makes it: sized once, the objects read through the array's buffer and
    /// each added with `update(with:)`, which returns nothing for a new member.
    ///
    /// - Complexity: O(n), one hash of each object's identity.
    init(announcing objects: [ManagedObject]) {
        var set = Set(minimumCapacity: objects.count)
        objects.withUnsafeBufferPointer { objects in
            for i in objects.indices { set.update(with: objects[i]) }
        }
        self = set
    }
}
