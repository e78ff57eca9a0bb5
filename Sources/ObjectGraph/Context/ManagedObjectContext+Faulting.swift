import Foundation

extension ManagedObjectContext {
    // MARK: Reading from upstream (the parent context, or the coordinator)

    /// The current row of `id` one level up: the parent's state (its unsaved changes
    /// included) or the store's.
    func upstreamRow(for id: ManagedObjectID) throws -> StoreRow? {
        if let parent {
            return try parent.performAndWait { try parent.rowForChild(id) }
        }
        guard let coordinator = persistentStoreCoordinator else { return nil }
        let id = permanentIDs[id] ?? id
        guard !id.isTemporaryID else { return nil }
        return try coordinator.row(for: id)
    }

    /// This context's view of `id`, for a child context.
    func rowForChild(_ id: ManagedObjectID) throws -> StoreRow? {
        let id = permanentIDs[id] ?? id
        if let object = registry[id] {
            if object.state.isDeleted { return nil }
            if !object.slots.isEmpty { return object.currentRow() }
        }
        return try upstreamRow(for: id)
    }

    /// The destinations of `relationship` from `id` one level up.
    func upstreamRelated(_ relationship: RelationshipDescription, of id: ManagedObjectID) throws
        -> [ManagedObjectID]
    {
        if let parent {
            return try parent.performAndWait { try parent.relatedForChild(relationship, of: id) }
        }
        guard let coordinator = persistentStoreCoordinator else { return [] }
        let id = permanentIDs[id] ?? id
        guard !id.isTemporaryID else { return [] }
        return try coordinator.relatedObjectIDs(relationship, of: id)
    }

    func relatedForChild(_ relationship: RelationshipDescription, of id: ManagedObjectID) throws
        -> [ManagedObjectID]
    {
        let id = permanentIDs[id] ?? id
        if let object = registry[id], !object.slots.isEmpty {
            return object.related(relationship).filter { !$0.state.isDeleted }.map(\.objectID)
        }
        return try upstreamRelated(relationship, of: id)
    }

    // MARK: Filling objects

    /// Fills a fault, or marks it deleted when its row is gone.
    func fulfillFault(_ object: ManagedObject) {
        if let cached = rowCache.removeValue(forKey: object.objectID) {
            fill(object, from: cached)
            return
        }
        if let batch = faultBatches[object.objectID] {
            fillBatch(batch)
            if !object.slots.isEmpty { return }
        }
        let row: StoreRow?
        var failure: (any Error)?
        do { row = try upstreamRow(for: object.objectID) } catch {
            row = nil
            failure = error
        }
        if let row {
            fill(object, from: row)
            return
        }
        guard shouldDeleteInaccessibleFaults else {
            preconditionFailure(
                """
                ObjectGraph error 133000: the fault for \(object.entity.name) \(object.objectID) cannot be \
                fulfilled: the object does not exist (it was deleted)\(failure.map { " (\($0))" } ?? ""). \
                Set shouldDeleteInaccessibleFaults to true to get a deleted object with nil values instead.
                """)
        }
        object.slots = object.entity.properties.map { p in
            if let r = p as? RelationshipDescription, r.isToMany {
                return .toMany(RelatedObjects())
            }
            return p is RelationshipDescription ? .toOne(nil) : .attribute(.null)
        }
        object.snapshot = object.slots
        object.state.isDeleted = true
    }

    /// Fills every still-unfilled object of a fetch batch.
    private func fillBatch(_ batch: FaultBatch) {
        for id in batch.ids {
            faultBatches[id] = nil
            guard let member = registry[id], member.slots.isEmpty,
                let row = try? upstreamRow(for: id)
            else { continue }
            fill(member, from: row)
        }
    }

    /// Sets an object's values and snapshot from a row, registering related objects as faults.
    func fill(_ object: ManagedObject, from row: StoreRow) {
        let values = objectValues(from: row)
        object.slots = values
        object.snapshot = values
        object.snapshotVersion = row.version
        object.changedSlots = SlotSet()
        object.awakeFromFetch()
    }

    func objectValues(from row: StoreRow) -> [ObjectValue] {
        let properties = row.objectID.entity.properties
        var values: [ObjectValue] = []
        values.reserveCapacity(properties.count)
        for (i, value) in row.values.enumerated() {
            switch value {
            case .attribute(let v): values.append(.attribute(v))
            case .toOne(let id): values.append(.toOne(id.map(registeredOrFault)))
            case .toMany(let ids):
                values.append(.toMany(RelatedObjects(ids.map(registeredOrFault))))
            case .notStored:
                if let r = properties[i] as? RelationshipDescription {
                    values.append(r.isToMany ? .toMany(nil) : .toOne(nil))
                } else {
                    values.append(
                        .attribute((properties[i] as? AttributeDescription)?.defaultValue ?? .null))
                }
            }
        }
        return values
    }

    /// The members of a to-many relationship fault, from upstream.
    func loadRelated(_ relationship: RelationshipDescription, of object: ManagedObject)
        -> [ManagedObject]
    {
        if object.state.isInserted { return [] }
        let ids = (try? upstreamRelated(relationship, of: object.objectID)) ?? []
        return ids.map(registeredOrFault)
    }

    // MARK: Refresh, reset, rollback

    /// Refreshes `object` from upstream: with `mergeChanges`, its unsaved changes are kept on
    /// top of the fresh values; without, it turns back into a fault and loses them.
    ///
    /// - Note: Mirrors `refresh(_:mergeChanges:)`.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue("refresh(_:mergeChanges:)")
        rowCache[object.objectID] = nil
        guard object.managedObjectContext === self, !object.state.isInserted else { return }
        if !mergeChanges || object.changedSlots.isEmpty {
            if !object.changedSlots.isEmpty || object.state.isDeleted {
                pending.remove(object)
                unprocessedDeletes.removeAll { $0 === object }
            }
            object.willTurnIntoFault()
            object.slots = []
            object.snapshot = nil
            object.changedSlots = SlotSet()
            object.state.clearLifecycle()
            object.didTurnIntoFault()
            unannounced.refreshed.append(object)
            return
        }
        guard let row = try? upstreamRow(for: object.objectID) else { return }
        merge(row, into: object)
    }

    /// Takes `row` as the object's snapshot and values, its unsaved changes kept on top.
    func merge(_ row: StoreRow, into object: ManagedObject) {
        let fresh = objectValues(from: row)
        var merged = fresh
        for index in object.changedSlots { merged[index] = object.slots[index] }
        object.slots = merged
        object.snapshot = fresh
        object.snapshotVersion = row.version
        unannounced.refreshed.append(object)
    }

    /// Refreshes every registered object, keeping unsaved changes.
    ///
    /// - Note: Mirrors `refreshAllObjects()`.
    public func refreshAllObjects() {
        checkQueue("refreshAllObjects()")
        for object in registry.values where !object.isFault { refresh(object, mergeChanges: true) }
    }

    /// Forgets every registered object and every unsaved change.
    ///
    /// Objects obtained before are invalid afterwards; fetch again. Posts objects-did-change
    /// with `NSInvalidatedAllObjectsKey`.
    ///
    /// - Note: Mirrors `reset()`.
    public func reset() {
        checkQueue("reset()")
        for object in registry.values {
            object.willTurnIntoFault()
            object.slots = []
            object.snapshot = nil
            object.changedSlots = SlotSet()
            object.state.clearLifecycle()
            object.managedObjectContext = nil
        }
        registry.removeAll()
        rowCache.removeAll()
        faultBatches.removeAll()
        pending.removeAll()
        unprocessedDeletes.removeAll()
        unannounced = ChangeAnnouncement()
        permanentIDs.removeAll()
        postObjectsDidChange(invalidatedAll: true)
    }

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come
    /// back, updated ones return to their last fetched or saved values.
    ///
    /// - Note: Mirrors `rollback()`.
    public func rollback() {
        checkQueue("rollback()")
        for object in pending.objects {
            if object.state.isInserted {
                registry[object.objectID] = nil
                object.state.clearLifecycle()
                object.managedObjectContext = nil
                continue
            }
            if let snapshot = object.snapshot {
                object.slots = snapshot.enumerated().map { i, v in
                    if let r = object.entity.properties[i] as? RelationshipDescription, r.isToMany,
                        !r.isStoredInRow || object.changedSlots.contains(i)
                    {
                        return .toMany(nil)
                    }
                    return v
                }
            }
            object.changedSlots = SlotSet()
            object.state.clearLifecycle()
            unannounced.refreshed.append(object)
        }
        pending.removeAll()
        unprocessedDeletes.removeAll()
        postObjectsDidChange(invalidatedAll: false)
    }
}

extension ManagedObject {
    /// The object's current values as a row (to-manys not loaded are `.notStored`).
    func currentRow() -> StoreRow {
        StoreRow(
            objectID: objectID, version: snapshotVersion,
            values: slots.map { value in
                switch value {
                case .attribute(let v): .attribute(v)
                case .toOne(let o): .toOne(o?.objectID)
                case .toMany(let m?):
                    .toMany(m.objects.filter { !$0.state.isDeleted }.map(\.objectID))
                case .toMany(nil): .notStored
                }
            })
    }
}
