import Foundation

extension ManagedObjectContext {
    /// Merges another context's save into this one, and posts one objects-did-change with
    /// what it changed here.
    ///
    /// Inserted objects are registered (as faults) and announced under
    /// `NSInsertedObjectsKey`: reach them with ``object(with:)`` or ``existingObject(with:)``
    /// (they stay registered at least until the end of the current event). Updated objects
    /// are refreshed, keeping this context's unsaved changes and transient values. Deleted
    /// objects stay registered while you reference them: `isDeleted` is true, their last
    /// values stay readable, other objects' relationships drop them, and fetches leave them
    /// out.
    ///
    /// Pass the did-save notification; its `…ObjectIDsKey` sets are used when present, else the
    /// IDs of its object sets. Call on this context's queue.
    ///
    /// - Complexity: O(n) in the number of merged IDs, plus one row read per loaded object
    ///   that was updated.
    /// - Note: Mirrors `mergeChanges(fromContextDidSave:)`.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        checkQueue("mergeChanges(fromContextDidSave:)")
        let info = notification.userInfo ?? [:]
        func ids(_ idKey: String, _ objectKey: String) -> [ManagedObjectID] {
            if let set = info[idKey] as? Set<ManagedObjectID> { return Array(set) }
            return (info[objectKey] as? Set<ManagedObject>)?.map(\.objectID) ?? []
        }
        merge(
            inserted: ids(NSInsertedObjectIDsKey, NSInsertedObjectsKey),
            updated: ids(NSUpdatedObjectIDsKey, NSUpdatedObjectsKey),
            deleted: ids(NSDeletedObjectIDsKey, NSDeletedObjectsKey))
    }

    /// Merges changes made outside any context (batch requests, another process) into
    /// `contexts`, each on its own queue.
    ///
    /// `changes` maps `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`, `NSDeletedObjectsKey`
    /// (or the `…ObjectIDsKey` keys) to arrays or sets of `ManagedObjectID` or of URI `URL`s.
    ///
    /// - Note: Mirrors `mergeChanges(fromRemoteContextSave:into:)`.
    public static func mergeChanges(
        fromRemoteContextSave changes: [AnyHashable: Any],
        into contexts: [ManagedObjectContext]
    ) {
        for context in contexts {
            guard let coordinator = context.persistentStoreCoordinator else { continue }
            func ids(_ keys: String...) -> [ManagedObjectID] {
                keys.flatMap { key -> [ManagedObjectID] in
                    let raw: [Any]
                    switch changes[key] {
                    case let ids as [ManagedObjectID]: return ids  // no cast per element
                    case let array as [Any]: raw = array
                    case let set as Set<ManagedObjectID>: raw = Array(set)
                    case let set as Set<URL>: raw = Array(set)
                    default: raw = []
                    }
                    return raw.compactMap { item in
                        if let id = item as? ManagedObjectID { return id }
                        if let url = item as? URL {
                            return coordinator.managedObjectID(forURIRepresentation: url)
                        }
                        return nil
                    }
                }
            }
            let inserted = ids(NSInsertedObjectsKey, NSInsertedObjectIDsKey)
            let updated = ids(NSUpdatedObjectsKey, NSUpdatedObjectIDsKey)
            let deleted = ids(NSDeletedObjectsKey, NSDeletedObjectIDsKey)
            context.performAndWait {
                context.merge(inserted: inserted, updated: updated, deleted: deleted)
            }
        }
    }

    /// Applies another context's saved changes to this one, then ends the event: one
    /// objects-did-change with what changed here, then did-merge-object-IDs.
    ///
    /// Inserted objects new to this context are registered as faults, announced under
    /// `NSInsertedObjectsKey` and kept alive until the end of the event. Updated objects that
    /// are loaded take the new values, keeping this context's unsaved changes and transient
    /// values on top (faults simply read the new row when they fire). Deleted objects stay
    /// registered while referenced: marked deleted, no longer a fault, their last values
    /// readable, dropped from other objects' relationships, and left out of fetches (their
    /// row is gone).
    func merge(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID])
    {
        // A merge moves a pinned context to the current generation, as in Core Data.
        advanceQueryGeneration()
        for id in inserted where registry[id] == nil {
            let object = registeredOrFault(id)
            keepForEvent(object)
            unannounced.mergedInserts.append(object)
        }
        for id in updated {
            guard let object = registry[id] else { continue }
            if !object.hasValues {
                object.faultSource = nil
            } else if let row = try? upstreamRow(for: id) {
                reload(object, from: row)
            }
        }
        for id in deleted {
            guard let object = registry[id] else { continue }
            mergeDeletion(of: object)
        }
        processPendingChanges()
        let info: [String: Set<ManagedObjectID>] = [
            NSInsertedObjectIDsKey: Set(inserted), NSUpdatedObjectIDsKey: Set(updated),
            NSDeletedObjectIDsKey: Set(deleted),
        ]
        NotificationCenter.default.post(
            name: Self.didMergeChangesObjectIDsNotification, object: self, userInfo: info)
    }

    /// Marks a registered object deleted by another context's save.
    private func mergeDeletion(of object: ManagedObject) {
        guard !object.state.isDeleted || pending.contains(object) else { return }
        if !object.hasValues {
            // Its row is gone: it keeps no values, as a fault whose row is missing would.
            object.slots = ManagedObject.emptySlots(for: object.entity)
            object.snapshot = Snapshot()
            object.faultSource = nil
        }
        // Loaded relationships of other objects that pointed at it lose it, as in Core Data
        // (no I/O: what is not loaded reads the store, which no longer has it).
        for relationship in object.entity.relationships {
            guard let inverse = relationship.inverseRelationship else { continue }
            let targets: [ManagedObject]
            switch object.slots[relationship.index] {
            case .toOne(let target?): targets = [target]
            case .toMany(let members?): targets = members.objects
            default: targets = []
            }
            for target in targets where !target.isFault {
                target.unlinkMerged(inverse, object)
            }
        }
        // Its unsaved changes here die with its row.
        if pending.contains(object) {
            pending.remove(object)
            unprocessedDeletes.removeAll { $0 === object }
        }
        object.changedSlots = SlotSet()
        object.state.isDeleted = true
        object.state.deletionProcessed = true
        announceDeleted(object)
    }

    /// Starts or stops observing the saves this context merges automatically.
    func updateMergeObservation() {
        if let mergeObserver { NotificationCenter.default.removeObserver(mergeObserver) }
        mergeObserver = nil
        guard automaticallyMergesChangesFromParent else { return }
        mergeObserver = NotificationCenter.default.addObserver(
            forName: Self.didSaveObjectIDsNotification, object: nil, queue: nil
        ) { [weak self] note in
            guard let self, let saver = note.object as? ManagedObjectContext, saver !== self else {
                return
            }
            guard self.shouldMerge(savesOf: saver) else { return }
            let info = note.userInfo ?? [:]
            let inserted = Array(info[NSInsertedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
            let updated = Array(info[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
            let deleted = Array(info[NSDeletedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
            self.perform { [weak self] in
                self?.merge(inserted: inserted, updated: updated, deleted: deleted)
            }
        }
    }

    /// Whether a save by `saver` reaches this context: a sibling saving to the same
    /// coordinator (for a root context), or the parent saving (for a child).
    ///
    /// Reads only the immutable links between contexts, so it is safe off-queue.
    private func shouldMerge(savesOf saver: ManagedObjectContext) -> Bool {
        if let parent { return saver === parent }
        return saver.rootCoordinator != nil && saver.rootCoordinator === rootCoordinator
    }
}

extension ManagedObject {
    /// Removes `object` from relationship `r` after a merged deletion, without recording a change.
    func unlinkMerged(_ r: RelationshipDescription, _ object: ManagedObject) {
        switch slots[r.index] {
        case .toOne(let o) where o === object:
            // The committed value goes too: a kept one is replaced, else it is the slot's.
            slots[r.index] = .toOne(nil)
            snapshot?.replaceKept(r.index, with: .toOne(nil))
        case .toMany(var m?):
            keepCommittedValue(r.index)
            slots[r.index] = .toMany(nil)
            m.remove(object)
            slots[r.index] = .toMany(m)
        default: break
        }
    }
}
