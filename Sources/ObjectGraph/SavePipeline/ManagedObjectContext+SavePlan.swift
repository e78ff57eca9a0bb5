import Foundation

extension ManagedObjectContext {
    /// Brings objects in line with a committed plan: merged values, permanent and taken-over
    /// IDs, merged-away objects detached, versions advanced.
    func apply(_ plan: SavePlan, newIDs: NewObjectIDs) {
        for object in plan.vanished {
            object.changedSlots = SlotSet()
            object.state.isDeleted = true
            object.state.deletionProcessed = true
            if registry[object.objectID] === object {
                registry.removeValue(forKey: object.objectID)
            }
            pending.remove(object)
        }
        for (object, values) in plan.rolledBack {
            object.slots = values
            object.snapshot = Snapshot()
            object.snapshotVersion = plan.expected(object)
            object.changedSlots = SlotSet()
            announceRefreshed(object)
        }
        for (object, values) in plan.slots.values {
            // An object outside the save only had references moved to a survivor.
            if !object.hasChanges {
                // A saved insert keeping its row holds its destinations beside it: converted
                // first, so that they are not kept on after the slots are replaced.
                object.materialiseRow()
                object.slots = values
                object.snapshot = Snapshot()
            } else {
                object.replaceSlots(with: values)
            }
        }
        // Each inserted object moves to its permanent ID: the registry's entries are moved
        // together (see `ObjectRegistry.move(_:)`), and the old and new IDs are recorded as one
        // batch for children that still hold the temporary ones (see `PermanentIDMap`).
        var from: [ManagedObjectID] = []
        from.reserveCapacity(newIDs.count)
        plan.inserted.withUnsafeBufferPointer { inserted in
            for i in inserted.indices { inserted[i].snapshotVersion = 1 }
        }
        // The new IDs in allocation order, read without a lookup per object, through the
        // arrays' buffers (binding each pair copied the object and the ID: a retain and a
        // release of each). Every object moves: `allocateIDs` lists only objects whose ID is
        // temporary, and the coordinator makes each new ID in a store's scope (permanent).
        newIDs.objects.withUnsafeBufferPointer { objects in
            newIDs.ids.withUnsafeBufferPointer { ids in
                for i in objects.indices {
                    assert(
                        objects[i].objectID.isTemporaryID && !ids[i].isTemporaryID,
                        "a new ID for an object without a temporary one, or a temporary new ID")
                    // The old ID is swapped out of the object into `from`: copying it there
                    // and then overwriting it retained and released its scope again.
                    var id = ids[i]
                    swap(&id, &objects[i].objectID)
                    from.append(consume id)
                }
            }
        }
        // The save's own arrays: the objects and their new IDs.
        permanentIDs.record(from: from, to: newIDs.ids)
        registry.move(newIDs.objects, from: from)
        for object in plan.updated {
            if let id = plan.takeovers[ObjectIdentifier(object)] {
                if let previous = registry[id], previous !== object { detach(previous, as: id) }
                adoptID(object, id)
            }
            object.snapshotVersion = plan.expected(object) + 1
        }
        for loser in plan.losers where loser.isIn(self) {
            let survivor = plan.survivor(loser)
            detach(loser, as: newIDs[survivor] ?? survivor.objectID)
        }
    }

    /// Gives `object` its final ID, remembering the old one for children that still use it.
    private func adoptID(_ object: ManagedObject, _ id: ManagedObjectID) {
        guard id != object.objectID else { return }
        let from = object.objectID
        permanentIDs[from] = id
        object.objectID = id
        registry.move([(object, from)])
    }

    /// Takes a merged-away object out of the context; its ID becomes the survivor's.
    private func detach(_ object: ManagedObject, as id: ManagedObjectID) {
        // Its to-ones resolve while it and its destinations are registered (see `finishSave`).
        object.resolveRelationshipsBeforeLeaving(self)
        if registry[object.objectID] === object { registry.removeValue(forKey: object.objectID) }
        if object.objectID.isTemporaryID { permanentIDs[object.objectID] = id }
        pending.remove(object)
        object.objectID = id
        object.changedSlots = SlotSet()
        object.state.clearLifecycle()
        object.managedObjectContext = nil
    }
}
