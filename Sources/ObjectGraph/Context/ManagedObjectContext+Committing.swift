import Foundation

extension ManagedObjectContext {
    /// A root save: conflicts and constraints resolved by the merge policy, permanent IDs,
    /// one atomic commit per store; then the objects adopt the outcome. Returns what was
    /// written.
    ///
    /// Everything up to the commit only plans (see ``SavePlan``): when any step throws,
    /// no object, ID, snapshot or row has changed. Objects whose only changes are to transient
    /// properties are saved without touching the store: nothing of theirs is stored.
    func commitToStores(_ changes: SaveChanges) throws -> SaveChanges {
        guard let coordinator = rootCoordinator else {
            throw SaveErrors.noStore("\(self) has no coordinator and no parent")
        }
        var written = changes
        var transientOnly: [ManagedObject] = []
        if changes.updated.contains(where: {
            !$0.entity.layout.transientSlots.isEmpty && !$0.hasPersistentChangedValues
        }) {
            written.updated = changes.updated.filter(\.hasPersistentChangedValues)
            transientOnly = changes.updated.filter { !$0.hasPersistentChangedValues }
        }
        var plan = SavePlan(written)
        var newIDs = NewObjectIDs()
        try coordinator.locked {
            // Optimistic locking: each updated or deleted object's row must still be at the
            // version the object read. Only the rows that differ are kept (most saves have
            // none): keeping every row in a dictionary cost a hash and a copy per object, and
            // held a second reference table of N rows at W7's peak (≈ 90 bytes an object).
            // The versions are read in bulk (compared as they are read: no array of them), and
            // a row only for an object whose version differs.
            var conflicts: [(object: ManagedObject, row: StoreRow?)] = []
            for objects in [plan.updated, plan.deleted] {
                for i in try coordinator.stalePositions(of: objects) {
                    conflicts.append((objects[i], try coordinator.row(for: objects[i].objectID)))
                }
            }
            try resolveConflicts(&plan, conflicts: conflicts)
            try resolveConstraints(&plan, coordinator: coordinator)
            newIDs = try allocateIDs(for: plan.inserted, coordinator: coordinator)
            // The plan and the new IDs are settled: the rows are built by a function that
            // borrows them (reading them here, through the closure's captures, copied the
            // whole plan out of its box once per row).
            do {
                var sets = try changeSets(
                    plan, id: Self.permanentID(plan, newIDs), newIDs: newIDs,
                    coordinator: coordinator)
                // The rows are built: the new IDs' identity table is not held through the
                // commit (a large insert's peak); a path that looks IDs up after it indexes
                // them again.
                newIDs.dropIndex()
                try coordinator.commit(handingOver: &sets)
            } catch {
                newIDs.reindex()
                let id = Self.permanentID(plan, newIDs)
                // The inserts that took their rows as they were built get their slots back,
                // exactly as they were (see `ManagedObject.moveSlotsIntoSavedRow(of:_:)`), before
                // anything reads them to report the failure.
                for object in plan.inserted { object.materialiseRow() }
                guard let error = error as? ObjectGraphError,
                    error.reason == .danglingReference, error.objectID != nil
                else { throw error }
                let target = error.userInfo[NSValidationValueErrorKey] as? ManagedObjectID
                let source = plan.written.first { id($0) == error.objectID }
                // The target is registered, or new in this save (under its temporary ID).
                let targetObject = target.flatMap { target in
                    registry[target]
                        ?? newIDs.ids.firstIndex(of: target).map { newIDs.objects[$0] }
                }
                if let target, let sourceID = error.objectID,
                    let targetStore = target.storeIdentifier,
                    targetStore != sourceID.storeIdentifier
                {
                    throw SaveErrors.crossStoreReference(
                        error, source: source, target: targetObject, targetStore: targetStore)
                }
                throw SaveErrors.danglingReference(error, source: source, target: targetObject)
            }
        }
        if !plan.losers.isEmpty { newIDs.reindex() }
        apply(plan, newIDs: newIDs)
        // Every inserted object's ID is permanent now: the stores chosen for them are spent.
        assignedStores.removeAll()
        // The plan's own list when no object changed only transient properties (`+` would
        // copy it even with nothing to add).
        return SaveChanges(
            inserted: plan.inserted,
            updated: transientOnly.isEmpty ? plan.updated : plan.updated + transientOnly,
            deleted: plan.deleted)
    }

    /// The ID each saved object's row is written under: its survivor's after constraint
    /// merges, the row it takes over, or its new permanent ID. Made once per save and passed
    /// around as one closure that captures only the two tables it reads: calling a method of
    /// a captured plan copied the whole plan at every call.
    private static func permanentID(
        _ plan: SavePlan, _ newIDs: NewObjectIDs
    ) -> (ManagedObject) -> ManagedObjectID {
        let survivorOf = plan.survivorOf
        let takeovers = plan.takeovers
        // Without merges `o` is its own survivor, read in place (`survivor` returned it
        // retained, released once its ID was read: two calls a reference written).
        func id(_ s: ManagedObject) -> ManagedObjectID {
            if !takeovers.isEmpty, let id = takeovers[ObjectIdentifier(s)] { return id }
            return s.objectID.isTemporaryID ? newIDs[s] ?? s.objectID : s.objectID
        }
        return { o in survivorOf.isEmpty ? id(o) : id(SavePlan.survivor(o, survivorOf)) }
    }

    /// The rows a settled plan writes, one change set per store; call holding the
    /// coordinator's lock.
    ///
    /// Each inserted object takes its row as its values as soon as the row is built, where the
    /// row can stand for its slots (``ManagedObject/moveSlotsIntoSavedRow(of:_:)``, which builds
    /// the row by moving the slots' values into it; not in a save that merges objects, whose
    /// survivors take other values, or plans values): its slots are freed there, so the
    /// save holds each value once (its slots and its row both, 176 + 176 bytes an expense,
    /// were alive from here to the end of the save, W1's peak), and after the save the object
    /// keeps the row the store took (the same array), as a fetched object does. A failed
    /// commit gives every one its slots back (`commitToStores`). A child's save is not a store
    /// commit: its objects, and the parent's it pushes into, keep their slots until the parent
    /// saves to the store.
    ///
    /// `id` names each saved object's row (see `permanentID`); `newIDs` are the IDs `id` reads
    /// for the inserts, which an insert's own row takes from them directly where nothing is
    /// merged or taken over (``NewObjectIDs/id(of:at:)``).
    private func changeSets(
        _ plan: SavePlan, id: (ManagedObject) -> ManagedObjectID, newIDs: NewObjectIDs,
        coordinator: PersistentStoreCoordinator
    ) throws -> [String: StoreChangeSet] {
        var sets: [String: StoreChangeSet] = [:]
        let now = coordinator.clock()
        let empty = StoreChangeSet(author: transactionAuthor, contextName: name, timestamp: now)
        // Rows come in runs for one store (most saves touch one): each run is added at once,
        // not row by row (each `sets` lookup hashes the store's identifier and copies the
        // empty change set), and a save's whole array is handed to a change set whose list is
        // empty as it is (a new change set, or one made for another list: a save's deletions
        // after its updates' patches), without a copy that would keep twice a large save's
        // rows alive. Appending copied each element through the generic tuple's witness for
        // the deletions (≈ 105 instructions a deletion, and as much again to free the copy).
        func add<Row>(
            _ rows: [Row], _ list: WritableKeyPath<StoreChangeSet, [Row]>,
            store: (Row) -> String
        ) {
            rows.forEachRun(by: store) { key, range in
                let run = range.count == rows.count ? rows : Array(rows[range])
                if sets[key] == nil {
                    var set = empty
                    set[keyPath: list] = run
                    sets[key] = set
                } else if sets[key]![keyPath: list].isEmpty {
                    sets[key]![keyPath: list] = run
                } else {
                    sets[key]![keyPath: list] += run
                }
            }
        }
        let storeOf = { (row: StoreRow) in row.objectID.storeIdentifier ?? "" }
        // Not in a save that merges objects or plans other values for any object (a
        // constraint's takeover or merge): a reference to a merged-away object is written as
        // its survivor's, and a planned row is not the object's slots, whose relationships
        // would then be kept beside a row that does not hold them.
        // There, `plan.values(of:)` is each object's slots, which an insert's row is moved
        // out of where the object can keep the row (see `ManagedObject.moveSlotsIntoSavedRow`).
        let keepsRows = plan.survivorOf.isEmpty && !plan.plansValues
        // An insert's own row is named by its new ID, found at a cursor over `newIDs` (in
        // allocation order: each entity's inserts in their order) where no object is merged
        // or takes over a row, so that `id` would give the same; `id` otherwise (entities
        // interleaved, an insert with a permanent ID already). The closure's lookup cost
        // ≈ 195 instructions an insert.
        let direct = plan.survivorOf.isEmpty && plan.takeovers.isEmpty
        var cursor = 0
        let inserted = plan.inserted.map { object in
            let objectID = (direct ? newIDs.id(of: object, at: &cursor) : nil) ?? id(object)
            if keepsRows, let values = object.moveSlotsIntoSavedRow(of: plan, id) {
                return StoreRow(objectID: objectID, version: 1, values: values)
            }
            return StoreRow(
                objectID: objectID, version: 1,
                values: storeValues(plan.values(of: object), object.entity, id))
        }
        add(inserted, \.inserted, store: storeOf)
        // Updates go as patches of the slots they change: the store changes those in place,
        // and the save holds no second complete row per updated object (a store that does not
        // accept patches gets complete rows from the coordinator).
        var lastSlots: [Int] = []
        var scratch: [Int] = []
        let patched = plan.updated.map { object in
            patch(of: object, plan, id, shared: &lastSlots, scratch: &scratch)
        }
        add(patched, \.patched) { $0.objectID.storeIdentifier ?? "" }
        handOffRows(of: plan, patched, to: &sets)
        // Labelled as the change set's list is: an unlabelled tuple array was converted to it
        // element by element (`_arrayForceCast`, ≈ 300 instructions a deletion).
        let deleted = plan.deleted.map { (objectID: $0.objectID, version: plan.expected($0)) }
        add(deleted, \.deleted) { $0.objectID.storeIdentifier ?? "" }
        return sets
    }

    /// Gives each store's change set the objects whose kept rows its patches change (those
    /// with an overlay of written attributes and no planned values: their patch is the
    /// overlay), so that they let go of the rows while the store patches them and take the
    /// patched rows back (``StoreRowHandoff``): each row is then changed in place and held
    /// once. `patched` is `plan.updated`'s patches, in order; each store's patches are in the
    /// same order in its change set.
    private func handOffRows(
        of plan: SavePlan, _ patched: [StoreRowPatch], to sets: inout [String: StoreChangeSet]
    ) {
        let updated = plan.updated
        guard updated.contains(where: \.hasRowOverlay) else { return }
        let storeOf = { (patch: StoreRowPatch) in patch.objectID.storeIdentifier ?? "" }
        // One store and no planned values (most saves): patch `k` is `updated[k]`'s, and the
        // closures read the plan's own array (a list of the objects per store was a second
        // array of every updated object, alive through the commit: 0.8 MB for W4b's 100,000).
        // `lendRowForPatch()` lends only a kept row with an overlay, as the list's filter chose.
        if !plan.plansValues, let first = patched.first,
            !patched.contains(where: { storeOf($0) != storeOf(first) })
        {
            sets[storeOf(first)]?.rowHandoff = StoreRowHandoff(
                lend: { k, id in
                    guard k < updated.count, updated[k].objectID == id else { return false }
                    return updated[k].lendRowForPatch()
                },
                take: { k, id, row in
                    guard k < updated.count, updated[k].objectID == id else { return }
                    updated[k].takeSavedRow(row)
                })
            return
        }
        var byStore: [String: [ManagedObject?]] = [:]
        patched.forEachRun(by: storeOf) { key, range in
            byStore[key, default: []] += range.map { i in
                let object = updated[i]
                return object.hasRowOverlay && !plan.hasValues(for: object) ? object : nil
            }
        }
        for (key, objects) in byStore where objects.contains(where: { $0 != nil }) {
            // Each closure finds the object by the patch's position and checks it by the
            // patch's ID: a store that moved the patch hands nothing off for it.
            sets[key]?.rowHandoff = StoreRowHandoff(
                lend: { k, id in
                    guard k < objects.count, let object = objects[k], object.objectID == id
                    else { return false }
                    return object.lendRowForPatch()
                },
                take: { k, id, row in
                    guard k < objects.count, let object = objects[k], object.objectID == id
                    else { return }
                    object.takeSavedRow(row)
                })
        }
    }

    /// Permanent IDs for the inserted objects that still have temporary ones, entity by entity
    /// (each entity's keys in one request, in the order its objects were inserted).
    private func allocateIDs(for objects: [ManagedObject], coordinator: PersistentStoreCoordinator)
        throws -> NewObjectIDs
    {
        // Inserts come in runs of one entity: each entity's runs are kept as ranges of
        // `objects`, with the number of temporary IDs in them, entities in first-seen order.
        // Copying the objects into a filtered array and again into per-entity arrays cost a
        // retain and release of each object twice.
        var groups: [(entity: EntityDescription, runs: [Range<Int>], temporary: Int)] = []
        var groupOf: [ObjectIdentifier: Int] = [:]
        var total = 0
        let entityOf = { (object: ManagedObject) in ObjectIdentifier(object.entity) }
        objects.forEachRun(by: entityOf) { key, range in
            var temporary = 0
            for i in range where objects[i].objectID.isTemporaryID { temporary += 1 }
            guard temporary > 0 else { return }
            total += temporary
            if let g = groupOf[key] {
                groups[g].runs.append(range)
                groups[g].temporary += temporary
            } else {
                groupOf[key] = groups.count
                groups.append((objects[range.lowerBound].entity, [range], temporary))
            }
        }
        if let inOrder = try newIDsInOrder(objects, groups, total, coordinator) { return inOrder }
        var result = NewObjectIDs()
        result.reserveCapacity(total)
        for group in groups {
            guard assignedStores.isEmpty else {
                var members: [ManagedObject] = []
                for range in group.runs {
                    members += objects[range].filter { $0.objectID.isTemporaryID }
                }
                for (store, part) in byAssignedStore(members) {
                    let ids = try coordinator.permanentIDs(
                        for: group.entity, count: part.count, assigned: store)
                    for (object, id) in zip(part, ids) { result.append(object, id) }
                }
                continue
            }
            // No store chosen by `assign(_:to:)`: one request, the keys handed out in order.
            let ids = try coordinator.permanentIDs(for: group.entity, count: group.temporary)
            var next = 0
            for range in group.runs {
                for i in range where objects[i].objectID.isTemporaryID {
                    result.append(objects[i], ids[next])
                    next += 1
                }
            }
        }
        return result
    }

    /// `objects` (of one entity) split by the store ``assign(_:to:)`` chose for them (`nil`:
    /// the coordinator chooses), each part in the objects' order; one part when nothing was
    /// assigned.
    private func byAssignedStore(_ objects: [ManagedObject]) -> [(
        key: String?, elements: [ManagedObject]
    )] {
        if assignedStores.isEmpty { return [(nil, objects)] }
        return objects.grouped { assignedStores[$0.objectID] }
    }

    /// Chooses the store a new object is saved to, where more than one store could take it.
    ///
    /// Without it, the save puts a new object in the first writable store whose
    /// configuration has its entity (``PersistentStoreDescription/configuration``, in the
    /// order the stores were added). A child context hands the choice to its parent when it
    /// saves, and keeps it for its own ``obtainPermanentIDs(for:)``. The choice holds until
    /// the object's ID becomes permanent (a save of the root context, or
    /// ``obtainPermanentIDs(for:)``), and is dropped by ``rollback()`` and ``reset()``. A
    /// store that has been removed, is read-only or whose configuration leaves the entity out
    /// fails that save with `.noPersistentStore` (134030), naming the store; nothing is saved.
    ///
    /// - Precondition: `object` is in this context and not saved yet (its ID is temporary),
    ///   and `store` is one of the coordinator's stores.
    /// - Note: Mirrors `assign(_:to:)`.
    public func assign(_ object: ManagedObject, to store: any PersistentStore) {
        checkQueue("assign(_:to:)")
        precondition(
            object.isIn(self),
            "ObjectGraph: assign(_:to:) of \(object), which belongs to another context")
        precondition(
            object.objectID.isTemporaryID,
            "ObjectGraph: assign(_:to:) of \(object), which is saved already: its store is "
                + "\(object.objectID.storeIdentifier ?? "?") and objects do not move between stores"
        )
        precondition(
            persistentStoreCoordinator?.persistentStore(forIdentifier: store.identifier) != nil,
            "ObjectGraph: assign(_:to:) to store \(store.identifier), which is not one of the "
                + "context's coordinator's stores")
        assignedStores[object.objectID] = store.identifier
    }

    /// An updated object's patch: the stored slots it changed (every stored slot when the
    /// plan gives it new values: a conflict merge or a constraint merge), with their values
    /// as the store keeps them. A to-many not loaded is left out: it did not change, and the
    /// row keeps its members. Consecutive patches of the same slots share `shared`'s array.
    private func patch(
        of object: ManagedObject, _ plan: SavePlan, _ id: (ManagedObject) -> ManagedObjectID,
        shared: inout [Int], scratch: inout [Int]
    ) -> StoreRowPatch {
        // Without planned values, each changed slot's current value is read as it is held
        // (an object that keeps its row reads its overlay: no conversion into slots).
        let planned = plan.hasValues(for: object)
        let values = planned ? plan.values(of: object) : []
        let kinds = object.entity.layout.kinds
        let count = planned ? values.count : kinds.count
        // The slots are compared with the previous patch's as they come, and only collected
        // when they differ: most updates of a save change the same slots, and refilling a
        // scratch array per patch cost a `replaceSubrange` each.
        var matched = 0
        var differs = false
        func value(_ i: Int) -> ObjectValue { planned ? values[i] : object.currentValue(at: i) }
        func add(_ i: Int) {
            guard i < count else { return }
            switch (kinds[i], value(i)) {
            case (.attribute, .attribute), (.toOne, .toOne), (.toManyStored, .toMany(_?)):
                if !differs {
                    if matched < shared.count && shared[matched] == i {
                        matched += 1
                        return
                    }
                    differs = true
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: shared[..<matched])
                }
                scratch.append(i)
            default: break
            }
        }
        if planned {
            for i in kinds.indices { add(i) }
        } else {
            object.changedSlots.forEachSlot(add)
        }
        if differs {
            shared = scratch
        } else if matched < shared.count {
            shared = Array(shared[..<matched])
        }
        // A patch of one slot keeps its value in a block, no array: the object's overlay
        // block where it holds the value (shared, no copy), else a block of its own.
        if shared.count == 1 {
            let i = shared[0]
            if !planned, let write = object.overlayWriteBlock(ofSlot: i) {
                return StoreRowPatch(
                    objectID: id(object), version: plan.expected(object) + 1, slots: shared,
                    write: write)
            }
            return StoreRowPatch(
                objectID: id(object), version: plan.expected(object) + 1, slots: shared,
                value: storeValue(value(i), kinds[i], id))
        }
        // `reserveCapacity` and appends: `Array(unsafeUninitializedCapacity:)` took the
        // runtime's unspecialised allocation (≈ 690 instructions a patch against ≈ 360).
        var stored: [StoreValue] = []
        stored.reserveCapacity(shared.count)
        for i in shared { stored.append(storeValue(value(i), kinds[i], id)) }
        return StoreRowPatch(
            objectID: id(object), version: plan.expected(object) + 1, slots: shared,
            values: stored)
    }

    /// Slot values as the store keeps them, with related objects named by `id` (duplicates
    /// that merges create are dropped; deleted objects are left out of to-manys).
    func storeValues(
        _ values: [ObjectValue], _ entity: EntityDescription,
        _ id: (ManagedObject) -> ManagedObjectID
    ) -> [StoreValue] {
        let kinds = entity.layout.kinds
        var stored: [StoreValue] = []
        stored.reserveCapacity(kinds.count)
        // By index: enumerating copied each slot out of the array (a retain and release of
        // its payload) before converting it.
        for i in values.indices { stored.append(storeValue(values[i], kinds[i], id)) }
        return stored
    }

    /// One slot's value as the store keeps it (see ``storeValues(_:_:_:)``).
    @inline(__always)
    private func storeValue(
        _ value: ObjectValue, _ kind: EntityLayout.Kind, _ id: (ManagedObject) -> ManagedObjectID
    ) -> StoreValue {
        // The kind and the value are switched on one after the other: a `(kind, value)` tuple
        // copied the value (and destroyed the copy) for every slot of every saved object.
        switch kind {
        case .attribute:
            if case .attribute(let v) = value { return .attribute(v) }
        case .toOne:
            if case .toOne(let o) = value { return .toOne(o.map(id)) }
        case .toManyStored:
            if case .toMany(let m?) = value { return .toMany(Self.storedMembers(m, id)) }
        default: break
        }
        return .notStored
    }

    /// A stored to-many's members as its row keeps them: the live ones, named by `id`, in
    /// order, each once (merges can make two members one survivor).
    static func storedMembers(
        _ members: RelatedObjects, _ id: (ManagedObject) -> ManagedObjectID
    ) -> [ManagedObjectID] {
        var seen = Set<ManagedObjectID>()
        return members.objects.filter { !$0.state.isDeleted }.map(id).filter {
            seen.insert($0).inserted
        }
    }

    /// Makes temporary IDs permanent now, without saving; the objects stay inserted.
    ///
    /// The new ID is the one the object keeps in this context, its parents and the store.
    ///
    /// - Throws: store errors from allocating keys.
    /// - Note: Mirrors `obtainPermanentIDs(for:)`.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue("obtainPermanentIDs(for:)")
        guard let coordinator = persistentStoreCoordinator else { return }
        let temporary = objects.filter { $0.objectID.isTemporaryID }
        var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
        for object in temporary {
            byEntity[ObjectIdentifier(object.entity), default: []].append(object)
        }
        var assignments: [(ManagedObject, ManagedObjectID)] = []
        for entityGroup in byEntity.values {
            for (store, group) in byAssignedStore(entityGroup) {
                let ids = try coordinator.permanentIDs(
                    for: group[0].entity, count: group.count, assigned: store)
                assignments += zip(group, ids).map { ($0, $1) }
            }
        }
        for (object, id) in assignments {
            assignedStores.removeValue(forKey: object.objectID)
            registry.removeValue(forKey: object.objectID)
            permanentIDs[object.objectID] = id
            object.objectID = id
            registry.register(object, as: id)
        }
    }
}
