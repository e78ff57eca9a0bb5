import Foundation

extension ManagedObjectContext {
    /// Saves the context's pending changes to its parent context or, for a root context, to
    /// the persistent stores.
    ///
    /// Pending changes are processed first (inverse relationships, delete rules), then
    /// `willSave()` runs and every changed object is validated; derived attributes are
    /// computed after validation (as Core Data computes them in the store), so a non-optional
    /// one needs a value of its own on its first save (a default, or a placeholder set in
    /// `awakeFromInsert()`) or the save fails with 1570, as in Core Data. A root context then
    /// detects conflicts with the store, resolves them by ``mergePolicy``, gives inserted
    /// objects permanent IDs and commits atomically. A child context pushes its changes into its
    /// parent, in memory only. On any error nothing is written and the context keeps its
    /// changes. A root save that would leave a relationship pointing at a row that no longer
    /// exists (deleted by another context's save this context has not merged) is refused with
    /// 1550, "Dangling reference to an invalid object", naming the relationship, with the
    /// object under `NSValidationObjectErrorKey` and the missing target under
    /// `NSValidationValueErrorKey`. A validation method that lets go of pending changes
    /// (`reset()`, `rollback()`, a nested `save()`) stops the validation: nothing of the save
    /// as it stood is written, and the save starts over with what is pending after it (at
    /// most 100 times, then `.saveDidNotSettle`).
    ///
    /// ```swift
    /// try context.performAndWait { try context.save() }
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` — `.multipleValidationErrors` (1560) or a single
    ///   validation code (1550–1690), `.mergeConflict` (133020), `.constraintConflict`
    ///   (133021), `.storeWriteFailed` (134030), `.storeSaveConflict` (134050).
    /// - Complexity: O(n) in the number of changed objects (plus constraint checks).
    /// - Note: Mirrors `NSManagedObjectContext.save()`.
    public func save() throws {
        try save(restarts: 0)
    }

    /// ``save()``, the `restarts`-th time over after validation let go of pending changes.
    private func save(restarts: Int) throws {
        checkQueue("save()")
        announcedDuringSave = AnnouncedSets()
        defer { announcedDuringSave = nil }
        processPendingChanges()
        guard pending.objects.contains(where: \.hasChanges) else {
            // A pinned root context moves to the current generation on any save.
            if parent == nil { advanceQueryGeneration() }
            return
        }
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self)
        try runWillSave()
        // What willSave() and the delete rules changed is announced before it is saved.
        postObjectsDidChange(invalidatedAll: false)
        let changes = SaveChanges(pending.objects)
        // The announced lists that hold the same objects as the save's become the save's own
        // (one list of references held through the commit, not two).
        announcedDuringSave?.share(changes)
        guard try validate(changes) else {
            // A validation method let go of pending changes (a reset, a rollback, a nested
            // save): what the save held is stale, and none of it may
            // reach the store as it was. Save what is pending now (after a reset or rollback,
            // only what the hook made since), from the start; as `willSave()`'s rounds, at
            // most 100 times.
            guard restarts < 100 else { throw SaveErrors.validationDidNotSettle(rounds: 100) }
            return try save(restarts: restarts + 1)
        }
        // After validation, as Core Data computes them in the store: a non-optional derived
        // attribute is nil at its first save and fails with 1570 (FreeCoreData's Apple-run
        // testNonOptionalDerivedAttributeFailsInsertValidation), and a failed save leaves
        // the objects' values as they were.
        computeDerivedAttributes()
        if let parent {
            try push(changes, into: parent)
            finishSave(changes)
        } else {
            let saved = try commitToStores(changes)
            advanceQueryGeneration()
            finishSave(saved)
        }
    }

    /// Calls `willSave()` on changed objects until no new changes appear.
    private func runWillSave() throws {
        // Each object's `willSaveCalled` flag marks it called; the flags are cleared on the
        // way out, also when a round throws. Each round's array is kept as it is (copying
        // its objects into one list cost a retain and an append per object).
        // The objects are read through the arrays' buffers, which `rounds` holds for the
        // whole save: a `for`-`in` retained and released each object in both loops.
        var rounds: [[ManagedObject]] = []
        defer {
            for round in rounds {
                round.withUnsafeBufferPointer { round in
                    for i in round.indices { round[i].state.willSaveCalled = false }
                }
            }
        }
        for _ in 0..<100 {
            let fresh = Self.awaitingWillSave(pending.objects)
            if fresh.isEmpty { return }
            rounds.append(fresh)
            fresh.withUnsafeBufferPointer { fresh in
                for i in fresh.indices {
                    fresh[i].state.willSaveCalled = true
                    // Unretained for the call: `fresh` and `rounds` hold the object until the
                    // save returns, whatever `willSave()` changes (a dynamically dispatched
                    // call made with a retain and a release of the object around it).
                    Unmanaged.passUnretained(fresh[i])._withUnsafeGuaranteedRef { $0.willSave() }
                }
            }
            propagateDeletes()
        }
        throw SaveErrors.didNotSettle(rounds: 100)
    }

    /// The objects of `objects` that have changes and whose `willSave()` has not been called
    /// this save: `objects` itself when that is all of them (the first round of most saves),
    /// sharing its storage. A filtered copy retained every object, and released it after the
    /// save (W1: 20,020 objects, two atomic reference-count operations each); `willSave()`
    /// code that changes an object not yet pending copies the context's list once instead.
    private static func awaitingWillSave(_ objects: [ManagedObject]) -> [ManagedObject] {
        let all = objects.withUnsafeBufferPointer { objects in
            for i in objects.indices where !objects[i].hasChanges || objects[i].state.willSaveCalled
            {
                return false
            }
            return true
        }
        return all ? objects : objects.filter { $0.hasChanges && !$0.state.willSaveCalled }
    }

    /// Marks everything saved, calls `didSave()` and posts did-save.
    private func finishSave(_ changes: SaveChanges) {
        // Arrays of the kinds, not their concatenation: no copy of every object reference.
        // Through the buffers, which `changes` holds: a `for`-`in` over an array retained and
        // released each object (here and in the `didSave()` loop below: W1, 20,020 inserts).
        for objects in [changes.inserted, changes.updated] {
            objects.withUnsafeBufferPointer { objects in
                for i in objects.indices {
                    // An overlay of written attributes still over its row (a store that did
                    // not hand the row off, a child's push) is converted: its values are
                    // committed.
                    if objects[i].hasRowOverlay { objects[i].foldOverlayAfterSave() }
                    // The current values are the committed ones now: nothing kept (the kept
                    // old values, if any, are freed here).
                    objects[i].snapshot = Snapshot()
                    objects[i].changedSlots = SlotSet()
                    objects[i].state.clearLifecycle()
                }
            }
        }
        // A deleted object that keeps its row resolves its relationships now (keeping the
        // row), while the objects deleted with it are still registered: after their removal
        // below, a to-one to one of them would make a fault for a row that is gone.
        // Destinations delete propagation kept are reused only if the registry has removed,
        // replaced or moved no entry since the first was kept (see `keptDestinationsStamp`):
        // user code ran in between (`willSave()`, validation, the per-key hook).
        let keptHold = keptDestinationsStamp == registry.removals
        keptDestinationsStamp = nil
        // Through the buffer: a `for`-`in` over the array retained and released each object
        // in both loops (W5: 10,000 deleted objects, ≈ 49 instructions each). `changes` holds
        // the array for the whole loop.
        changes.deleted.withUnsafeBufferPointer { deleted in
            for i in deleted.indices {
                deleted[i].resolveRelationshipsBeforeLeaving(self, reusingKept: keptHold)
            }
            for i in deleted.indices { registry.removeValue(forKey: deleted[i].objectID) }
        }
        registry.noteWork(pending.objects.count)
        pending.removeAll()
        undoBaselines.removeAll()  // the snapshots now hold what they held
        eventBaselines.removeAll()
        if !openChanges.isEmpty { openChanges.removeAll() }  // see `OpenChange`
        for objects in [changes.inserted, changes.updated, changes.deleted] {
            // Unretained for the call, as `willSave()` (see `runWillSave()`): `changes` holds
            // the object until the save returns.
            objects.withUnsafeBufferPointer { objects in
                for i in objects.indices {
                    Unmanaged.passUnretained(objects[i])._withUnsafeGuaranteedRef { $0.didSave() }
                }
            }
        }
        for object in changes.deleted {
            object.state.clearLifecycle()
            object.managedObjectContext = nil
        }
        let info: [String: Any] = [
            // The sets the save's objects-did-change posted, when they hold the same objects:
            // each object is hashed once per save.
            NSInsertedObjectsKey: AnnouncedSets.set(
                of: changes.inserted, reusing: announcedDuringSave?.inserted),
            NSUpdatedObjectsKey: AnnouncedSets.set(
                of: changes.updated, reusing: announcedDuringSave?.updated),
            NSDeletedObjectsKey: AnnouncedSets.set(
                of: changes.deleted, reusing: announcedDuringSave?.deleted),
            NSInsertedObjectIDsKey: Self.objectIDs(of: changes.inserted),
            NSUpdatedObjectIDsKey: Self.objectIDs(of: changes.updated),
            NSDeletedObjectIDsKey: Self.objectIDs(of: changes.deleted),
        ]
        NotificationCenter.default.post(
            name: Self.didSaveObjectsNotification, object: self, userInfo: info)
        let idInfo: [String: Any] = [
            NSInsertedObjectIDsKey: info[NSInsertedObjectIDsKey]!,
            NSUpdatedObjectIDsKey: info[NSUpdatedObjectIDsKey]!,
            NSDeletedObjectIDsKey: info[NSDeletedObjectIDsKey]!,
        ]
        NotificationCenter.default.post(
            name: Self.didSaveObjectIDsNotification, object: self, userInfo: idInfo)
    }

    /// The IDs of `objects` as a set, made without an array of them first.
    ///
    /// The objects are read through the array's buffer (a `for`-`in` retained and released
    /// each), and each ID is added with `update(with:)`, which returns nothing for a new
    /// member: `insert(_:)` returned a copy of it, a retain and a release of its scope. The
    /// set is the same (equal IDs are one member either way).
    private static func objectIDs(of objects: [ManagedObject]) -> Set<ManagedObjectID> {
        var ids = Set<ManagedObjectID>(minimumCapacity: objects.count)
        objects.withUnsafeBufferPointer { objects in
            // The result (a replaced member: none for a new ID) released only when there is
            // one: discarding it released the `nil` (a call an object, no atomic operation).
            for i in objects.indices {
                if let replaced = ids.update(with: objects[i].objectID) { _ = consume replaced }
            }
        }
        return ids
    }

    // MARK: Child save

    /// Pushes changes one level up, into the parent's memory.
    private func push(_ changes: SaveChanges, into parent: ManagedObjectContext) throws {
        // A to-many that deleted members left while it was a fault (`unlinkDeleted`) goes up
        // with its members, as a loaded one does: the parent takes the list as the change.
        for object in changes.updated {
            for index in object.changedSlots {
                if case .toMany(nil) = object.slots[index] { object.loadToMany(index) }
            }
        }
        let inserted = changes.inserted.map {
            ($0.objectID, $0.entity, $0.currentRow(), $0.changedSlots)
        }
        let updated = changes.updated.map { ($0.objectID, $0.currentRow(), Array($0.changedSlots)) }
        let deleted = changes.deleted.map(\.objectID)
        // The stores `assign(_:to:)` chose go up with the objects (they are inserted there
        // now); the child keeps them too, for its own `obtainPermanentIDs(for:)`.
        let assigned = assignedStores
        parent.performAndWait {
            if !assigned.isEmpty { parent.assignedStores.merge(assigned) { _, child in child } }
            parent.registry.reserveCapacity(parent.registry.count + inserted.count)
            // The parent's object for each insert: registered already, or made now.
            var targets: [(object: ManagedObject, isNew: Bool)] = []
            targets.reserveCapacity(inserted.count)
            for (id, entity, _, _) in inserted {
                if let known = parent.registry[id] {
                    targets.append((known, false))
                    continue
                }
                let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
                object.objectID = id
                object.managedObjectContext = parent
                object.state.isInserted = true
                parent.registry.register(object, as: id)
                parent.pending.add(object)
                parent.announceInserted(object)
                targets.append((object, true))
            }
            for ((_, entity, row, set), target) in zip(inserted, targets) {
                // Every value comes up; only the ones the child set count as set (constraint merges).
                if target.isNew {
                    parent.fill(target.object, of: entity, from: row, marking: set)
                } else {
                    parent.absorb(
                        row, slots: 0..<row.values.count, marking: set, into: target.object)
                }
            }
            for (id, row, slots) in updated {
                parent.absorb(
                    row, slots: slots, marking: SlotSet(slots), into: parent.objectForChild(id))
            }
            for id in deleted {
                let object = parent.objectForChild(id)
                guard !object.state.isDeleted else { continue }
                if !object.hasValues { object.fireFault() }
                object.state.isDeleted = true
                object.state.deletionProcessed = true
                parent.pending.add(object)
                parent.announceDeleted(object)
                if object.state.isInserted {
                    parent.registry.removeValue(forKey: object.objectID)
                    parent.pending.remove(object)
                }
            }
            parent.postObjectsDidChange(invalidatedAll: false)
        }
    }

    /// This context's object for an ID a child context names it by, registered or made a
    /// fault: the child still holds the temporary ID of an object this context's save has
    /// given a permanent one since (as in Core Data, a child's objects keep their temporary
    /// IDs), so the ID is looked up in `permanentIDs` first, as the child's reads do
    /// (`rowForChild(_:)`). Without it the child's push made a second object under the
    /// temporary ID, which the next save wrote as a change to a row the store does not have.
    ///
    /// - Cost: one look-up in `permanentIDs` (the first after a save folds its recorded batch
    ///   of new IDs); a permanent ID is answered at once while no permanent ID was recorded.
    private func objectForChild(_ id: ManagedObjectID) -> ManagedObject {
        registeredOrFault(permanentIDs[id] ?? id)
    }

    /// Gives an object just made for a child's insert its values: what
    /// ``absorb(_:slots:marking:into:)`` does to an object with initial values, in one pass.
    /// Slots the row does not carry keep their initial values and do not count as set.
    private func fill(
        _ object: ManagedObject, of entity: EntityDescription, from row: StoreRow, marking: SlotSet
    ) {
        let layout = entity.layout
        guard layout.kinds.count == row.values.count else {
            object.slots = ManagedObject.initialSlots(for: entity)
            absorb(row, slots: 0..<row.values.count, marking: marking, into: object)
            return
        }
        var slots: [ObjectValue] = []
        slots.reserveCapacity(row.values.count)
        var changed = marking
        for (index, value) in row.values.enumerated() {
            switch value {
            case .attribute(let v): slots.append(.attribute(v))
            case .toOne(let id): slots.append(.toOne(id.map(objectForChild)))
            case .toMany(let ids): slots.append(.toMany(RelatedObjects(ids.map(objectForChild))))
            case .notStored:
                changed.remove(index)
                switch layout.kinds[index] {
                case .attribute, .transientAttribute:
                    slots.append(.attribute(layout.defaultAttributeValues[index]))
                case .toOne, .transientToOne: slots.append(.toOne(nil))
                case .toManyStored, .toManyDerived, .transientToMany:
                    slots.append(.toMany(RelatedObjects()))
                }
            }
        }
        object.slots = slots
        object.changedSlots = changed
    }

    /// Copies the given slots of a child's row into an object of this context, recording
    /// the `marking` ones as changed.
    private func absorb(
        _ row: StoreRow, slots indexes: some Sequence<Int>, marking: SlotSet,
        into object: ManagedObject
    ) {
        if !object.hasValues { object.fireFault() }
        for index in indexes {
            let value: ObjectValue
            switch row.values[index] {
            case .attribute(let v): value = .attribute(v)
            case .toOne(let id): value = .toOne(id.map(objectForChild))
            case .toMany(let ids): value = .toMany(RelatedObjects(ids.map(objectForChild)))
            case .notStored: continue
            }
            object.keepCommittedValue(index)
            object.slots[index] = value
            if marking.contains(index) || !object.state.isInserted {
                object.markChanged(index)
            } else {
                objectDidChange(object)
            }
        }
    }
}

/// The objects a save writes, by kind, in first-change order.
struct SaveChanges {
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []

    init(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Sorts `objects` (a context's pending objects, in first-change order) by kind; an
    /// object of none (inserted and deleted, or changed back) is left out.
    ///
    /// When every object is of one kind (an import inserts, an edit of many objects updates),
    /// that kind's list is `objects` itself, sharing its storage: a save of N objects then
    /// holds no second list of N references while it commits.
    /// - Complexity: O(n); one pass and no appends when the objects are of one kind, else at
    ///   most two passes.
    init(_ objects: [ManagedObject]) {
        if let first = objects.first, let kind = Kind(first),
            objects.allSatisfy({ Kind($0) == kind })
        {
            switch kind {
            case .inserted: inserted = objects
            case .updated: updated = objects
            case .deleted: deleted = objects
            }
            return
        }
        for object in objects {
            switch Kind(object) {
            case .inserted: inserted.append(object)
            case .updated: updated.append(object)
            case .deleted: deleted.append(object)
            case nil: continue
            }
        }
    }

    /// The list a pending object is saved in.
    enum Kind {
        case inserted, updated, deleted

        /// `object`'s kind: deleted (and not inserted), inserted (and not deleted), or
        /// updated (neither, with a changed slot); `nil` for an object inserted and deleted
        /// before its save, or with no changed slot.
        @inline(__always)
        init?(_ object: ManagedObject) {
            if object.state.isDeleted {
                if object.state.isInserted { return nil }
                self = .deleted
            } else if object.state.isInserted {
                self = .inserted
            } else if !object.changedSlots.isEmpty {
                self = .updated
            } else {
                return nil
            }
        }
    }
}
