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
        var newIDs: [ObjectIdentifier: ManagedObjectID] = [:]
        try coordinator.locked {
            // Only the rows that conflict are kept: a save of N unchanged-elsewhere objects
            // holds no second reference table of N rows (W7's peak held one, ≈ 90 bytes an
            // object).
            var conflicting: [ObjectIdentifier: StoreRow?] = [:]
            for object in plan.updated + plan.deleted {
                let row = try coordinator.row(for: object.objectID)
                if row?.version != object.snapshotVersion {
                    conflicting[ObjectIdentifier(object)] = .some(row)
                }
            }
            try resolveConflicts(&plan, conflicting: conflicting)
            try resolveConstraints(&plan, coordinator: coordinator)
            newIDs = try allocateIDs(for: plan.inserted, coordinator: coordinator)
            // The plan and the new IDs are settled: read them through constants from here on.
            // `id` runs for every row and every to-one value; reading the captured variables
            // instead copied the whole plan out of its box (and checked exclusive access) on
            // each call.
            let plan = plan
            let newIDs = newIDs
            func id(_ o: ManagedObject) -> ManagedObjectID {
                let s = plan.survivor(o)
                if !plan.takeovers.isEmpty, let id = plan.takeovers[ObjectIdentifier(s)] {
                    return id
                }
                return s.objectID.isTemporaryID
                    ? newIDs[ObjectIdentifier(s)] ?? s.objectID : s.objectID
            }
            var sets: [String: StoreChangeSet] = [:]
            let now = coordinator.clock()
            let empty = StoreChangeSet(author: transactionAuthor, contextName: name, timestamp: now)
            func add(_ id: ManagedObjectID, _ apply: (inout StoreChangeSet) -> Void) {
                apply(&sets[id.storeIdentifier ?? "", default: empty])  // in place: no copy per row
            }
            // Inserts come in runs for one store: append each run at once, not row by row.
            var run: (store: String, rows: [StoreRow])?
            for object in plan.inserted {
                let row = StoreRow(
                    objectID: id(object), version: 1,
                    values: storeValues(plan.values(of: object), object.entity, id))
                let store = row.objectID.storeIdentifier ?? ""
                if run?.store != store {
                    if let run { add(run.rows[0].objectID) { $0.inserted += run.rows } }
                    run = (store, [])
                }
                run?.rows.append(row)
            }
            if let run { add(run.rows[0].objectID) { $0.inserted += run.rows } }
            // Room for every updated row in the first one's store (most saves touch one store):
            // appending a large save's rows one by one kept up to twice their array alive.
            if let first = plan.updated.first {
                add(id(first)) { $0.updated.reserveCapacity(plan.updated.count) }
            }
            for object in plan.updated {
                let values = plan.values(of: object)
                var stored = storeValues(values, object.entity, id)
                if values.indices.contains(where: {
                    isUnloadedStoredToMany(values, object.entity, $0)
                }),
                    let current = try conflicting[ObjectIdentifier(object)]
                        ?? coordinator.row(for: id(object))
                {
                    for i in stored.indices where isUnloadedStoredToMany(values, object.entity, i) {
                        stored[i] = current.values[i]
                    }
                }
                let row = StoreRow(
                    objectID: id(object), version: plan.expected(object) + 1, values: stored)
                add(row.objectID) { $0.updated.append(row) }
            }
            for object in plan.deleted {
                add(object.objectID) { $0.deleted.append((object.objectID, plan.expected(object))) }
            }
            do {
                try coordinator.commit(sets)
            } catch let error as ObjectGraphError
                where error.reason == .danglingReference && error.objectID != nil
            {
                let target = error.userInfo[NSValidationValueErrorKey]
                throw SaveErrors.danglingReference(
                    error, source: plan.written.first { id($0) == error.objectID },
                    target: (target as? ManagedObjectID).flatMap { registry[$0] })
            }
        }
        apply(plan, newIDs: newIDs)
        return SaveChanges(
            inserted: plan.inserted, updated: plan.updated + transientOnly, deleted: plan.deleted)
    }

    /// Permanent IDs for the inserted objects that still have temporary ones, entity by entity.
    private func allocateIDs(for objects: [ManagedObject], coordinator: PersistentStoreCoordinator)
        throws
        -> [ObjectIdentifier: ManagedObjectID]
    {
        var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
        var entityOrder: [EntityDescription] = []
        for object in objects where object.objectID.isTemporaryID {
            if byEntity[ObjectIdentifier(object.entity)] == nil {
                entityOrder.append(object.entity)
            }
            byEntity[ObjectIdentifier(object.entity), default: []].append(object)
        }
        var result: [ObjectIdentifier: ManagedObjectID] = [:]
        for entity in entityOrder {
            let group = byEntity[ObjectIdentifier(entity)]!
            let ids = try coordinator.permanentIDs(for: entity, count: group.count)
            for (object, id) in zip(group, ids) { result[ObjectIdentifier(object)] = id }
        }
        return result
    }

    private func isUnloadedStoredToMany(
        _ values: [ObjectValue], _ entity: EntityDescription, _ index: Int
    ) -> Bool {
        guard case .toMany(nil) = values[index] else { return false }
        return entity.layout.kinds[index] == .toManyStored
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
        for (i, value) in values.enumerated() {
            switch (kinds[i], value) {
            case (.attribute, .attribute(let v)): stored.append(.attribute(v))
            case (.toOne, .toOne(let o)): stored.append(.toOne(o.map(id)))
            case (.toManyStored, .toMany(let m?)):
                var seen = Set<ManagedObjectID>()
                stored.append(
                    .toMany(
                        m.objects.filter { !$0.state.isDeleted }.map(id).filter {
                            seen.insert($0).inserted
                        }))
            default: stored.append(.notStored)
            }
        }
        return stored
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
        for group in byEntity.values {
            let ids = try coordinator.permanentIDs(for: group[0].entity, count: group.count)
            assignments += zip(group, ids).map { ($0, $1) }
        }
        for (object, id) in assignments {
            registry.removeValue(forKey: object.objectID)
            permanentIDs[object.objectID] = id
            object.objectID = id
            registry.register(object, as: id)
        }
    }
}
