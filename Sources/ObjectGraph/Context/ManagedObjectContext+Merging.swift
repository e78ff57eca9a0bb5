import Foundation

extension ManagedObjectContext {
    /// Merges another context's save into this one: updated objects are refreshed (keeping
    /// this context's unsaved changes), deleted ones are marked deleted and leave the context.
    ///
    /// Pass the did-save notification; its `…ObjectIDsKey` sets are used when present, else the
    /// IDs of its object sets. Call on this context's queue.
    ///
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

    /// Applies a set of changed IDs to the registered objects.
    func merge(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID])
    {
        for id in updated {
            rowCache[id] = nil
            guard let object = registry[id], !object.isFault else { continue }
            if object.changedSlots.isEmpty && !object.state.isDeleted {
                if let row = try? upstreamRow(for: id) {
                    let values = objectValues(from: row)
                    object.slots = values
                    object.snapshot = values
                    object.snapshotVersion = row.version
                    unannounced.refreshed.append(object)
                }
            } else {
                refresh(object, mergeChanges: true)
            }
        }
        for id in deleted {
            guard let object = registry[id] else { continue }
            // Relationships of other objects that pointed at it lose it, as in Core Data.
            for relationship in object.entity.relationships {
                guard let inverse = relationship.inverseRelationship, !object.slots.isEmpty else {
                    continue
                }
                let targets =
                    relationship.isToMany
                    ? object.related(relationship)
                    : object.toOne(relationship).map { [$0] } ?? []
                for target in targets where !target.isFault {
                    target.unlinkMerged(inverse, object)
                }
            }
            object.state.isDeleted = true
            object.state.deletionProcessed = true
            registry[id] = nil
            pending.remove(object)
            unannounced.deleted.append(object)
        }
        postObjectsDidChange(invalidatedAll: false)
        let info: [String: Set<ManagedObjectID>] = [
            NSInsertedObjectIDsKey: Set(inserted), NSUpdatedObjectIDsKey: Set(updated),
            NSDeletedObjectIDsKey: Set(deleted),
        ]
        NotificationCenter.default.post(
            name: Self.didMergeChangesObjectIDsNotification, object: self, userInfo: info)
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
            slots[r.index] = .toOne(nil)
            if var snap = snapshot {
                snap[r.index] = .toOne(nil)
                snapshot = snap
            }
        case .toMany(var m?):
            slots[r.index] = .toMany(nil)
            m.remove(object)
            slots[r.index] = .toMany(m)
        default: break
        }
    }
}
