import Foundation

extension ManagedObjectContext {
    /// Refreshes `object`'s persistent properties from upstream (the parent context, or the
    /// store).
    ///
    /// With `mergeChanges` true, its unsaved changes are kept on top of the fresh values and
    /// its transient properties (attributes and relationships) are left as they are; an object
    /// with neither simply turns back into a fault. With `mergeChanges` false, it turns back
    /// into a fault: its unsaved changes and transient values are discarded, and its strong
    /// references to related objects are dropped (the way to trim a graph held in memory).
    ///
    /// - Note: Mirrors `refresh(_:mergeChanges:)`.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue("refresh(_:mergeChanges:)")
        guard object.isIn(self), !object.state.isInserted else { return }
        let keepsValues =
            mergeChanges && object.hasValues
            && (!object.changedSlots.isEmpty
                || (!object.state.isDeleted && !object.entity.layout.transientSlots.isEmpty))
        if !keepsValues {
            if !object.changedSlots.isEmpty || object.state.isDeleted {
                pending.remove(object)
                unprocessedDeletes.removeAll { $0 === object }
            }
            object.willTurnIntoFault()
            object.discardValues()
            object.didTurnIntoFault()
            forgetEventState(of: object)  // its next event compares with the store's values
            announceRefreshed(object)
            return
        }
        guard let row = try? upstreamRow(for: object.objectID) else { return }
        reload(object, from: row)
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
    /// Objects obtained before are invalid afterwards; fetch again. Empties the
    /// ``undoManager``'s stacks. Posts objects-did-change with `NSInvalidatedAllObjectsKey`.
    /// A context pinned to a query generation moves to the generation current at its next read.
    ///
    /// - Note: Mirrors `reset()`.
    public func reset() {
        checkQueue("reset()")
        for object in registry.values {
            object.willTurnIntoFault()
            object.discardValues()
            object.managedObjectContext = nil
        }
        registry.removeAll()
        pending.removeAll()
        unprocessedDeletes.removeAll()
        unannounced.clearFlags()
        unannounced = ChangeAnnouncement()
        eventObjects.removeAll()
        permanentIDs.removeAll()
        assignedStores.removeAll()
        forgetUndo()
        eventBaselines.removeAll()
        openChanges.removeAll()
        advanceQueryGeneration()
        postObjectsDidChange(invalidatedAll: true)
    }

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come
    /// back, updated ones return to their last fetched or saved values. Empties the
    /// ``undoManager``'s stacks, as Core Data does.
    ///
    /// - Note: Mirrors `rollback()`.
    public func rollback() {
        checkQueue("rollback()")
        for object in pending.objects {
            if object.state.isInserted {
                registry.removeValue(forKey: object.objectID)
                object.state.clearLifecycle()
                object.managedObjectContext = nil
                continue
            }
            object.dropKeptDestination()
            if let committed = object.committedSlots {
                object.slots = committed.enumerated().map { i, v in
                    // A to-many's snapshot may be stale: reload it (a transient one is never
                    // stored, so its snapshot is the value to go back to).
                    if let r = object.entity.properties[i] as? RelationshipDescription, r.isToMany,
                        !r.isTransient, !r.isStoredInRow || object.changedSlots.contains(i)
                    {
                        return .toMany(nil)
                    }
                    return v
                }
                // The reloaded to-manys' committed values stay the kept ones.
                object.setSnapshot(committed: committed)
            }
            object.changedSlots = SlotSet()
            object.state.clearLifecycle()
            announceRefreshed(object)
        }
        registry.noteWork(pending.objects.count)
        pending.removeAll()
        unprocessedDeletes.removeAll()
        assignedStores.removeAll()
        forgetUndo()
        eventBaselines.removeAll()
        openChanges.removeAll()
        postObjectsDidChange(invalidatedAll: false)
    }
}

extension ManagedObject {
    /// Turns the object back into a fault: values, snapshot, changes and lifecycle forgotten.
    func discardValues() {
        dropValues()
        snapshot = nil
        changedSlots = SlotSet()
        faultSource = nil
        state.clearLifecycle()
    }
}
