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
    func storeValue(
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
