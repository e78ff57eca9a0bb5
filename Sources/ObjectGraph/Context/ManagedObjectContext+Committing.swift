import Foundation

extension ManagedObjectContext {
    /// A root save: conflicts, permanent IDs, one atomic commit per store.
    func commitToStores(_ original: SaveChanges) throws {
        guard let coordinator = rootCoordinator else {
            throw ObjectGraphError(.storeSave, "save: \(self) has no coordinator and no parent")
        }
        var changes = original
        var newIDs: [ObjectIdentifier: ManagedObjectID] = [:]
        try coordinator.locked {
            var storeRows: [ObjectIdentifier: StoreRow?] = [:]
            for object in changes.updated + changes.deleted {
                storeRows[ObjectIdentifier(object)] = .some(try coordinator.row(for: object.objectID))
            }
            try resolveConflicts(&changes, storeRows: storeRows)
            try checkUniqueness(changes)
            var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
            var entityOrder: [EntityDescription] = []
            for object in changes.inserted where object.objectID.isTemporaryID {
                if byEntity[ObjectIdentifier(object.entity)] == nil { entityOrder.append(object.entity) }
                byEntity[ObjectIdentifier(object.entity), default: []].append(object)
            }
            for entity in entityOrder {
                let objects = byEntity[ObjectIdentifier(entity)]!
                let ids = try coordinator.permanentIDs(for: entity, count: objects.count)
                for (object, id) in zip(objects, ids) { newIDs[ObjectIdentifier(object)] = id }
            }
            func id(_ o: ManagedObject) -> ManagedObjectID { newIDs[ObjectIdentifier(o)] ?? o.objectID }
            var sets: [String: StoreChangeSet] = [:]
            let now = coordinator.clock()
            let empty = StoreChangeSet(author: transactionAuthor, contextName: name, timestamp: now)
            func add(_ id: ManagedObjectID, _ apply: (inout StoreChangeSet) -> Void) {
                apply(&sets[id.storeIdentifier ?? "", default: empty]) // in place: no copy per row
            }
            for object in changes.inserted {
                let row = StoreRow(objectID: id(object), version: 1, values: storeValues(object, id))
                add(row.objectID) { $0.inserted.append(row) }
            }
            for object in changes.updated {
                let current = storeRows[ObjectIdentifier(object)] ?? nil
                var values = storeValues(object, id)
                if let current {
                    for i in values.indices where isUnloadedStoredToMany(object, i) { values[i] = current.values[i] }
                }
                let row = StoreRow(objectID: object.objectID, version: object.snapshotVersion + 1, values: values)
                add(row.objectID) { $0.updated.append(row) }
            }
            for object in changes.deleted {
                add(object.objectID) { $0.deleted.append((object.objectID, object.snapshotVersion)) }
            }
            try coordinator.commit(sets)
        }
        // Committed: adopt permanent IDs and new versions.
        for object in changes.inserted {
            if let id = newIDs[ObjectIdentifier(object)] {
                registry[object.objectID] = nil
                permanentIDs[object.objectID] = id
                object.objectID = id
                registry[id] = object
            }
            object.snapshotVersion = 1
        }
        for object in changes.updated { object.snapshotVersion += 1 }
    }

    private func isUnloadedStoredToMany(_ object: ManagedObject, _ index: Int) -> Bool {
        guard case .toMany(nil) = object.slots[index] else { return false }
        return (object.entity.properties[index] as? RelationshipDescription)?.isStoredInRow ?? false
    }

    /// An object's values as the store keeps them.
    func storeValues(_ object: ManagedObject, _ id: (ManagedObject) -> ManagedObjectID) -> [StoreValue] {
        let properties = object.entity.properties
        return object.slots.enumerated().map { i, value in
            let property = properties[i]
            if property.isTransient { return .notStored }
            switch value {
            case .attribute(let v): return .attribute(v)
            case .toOne(let o): return .toOne(o.map(id))
            case .toMany(let m):
                guard (property as! RelationshipDescription).isStoredInRow, let m else { return .notStored }
                return .toMany(m.objects.filter { !$0.state.isDeleted }.map(id))
            }
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
        for object in temporary { byEntity[ObjectIdentifier(object.entity), default: []].append(object) }
        var assignments: [(ManagedObject, ManagedObjectID)] = []
        for group in byEntity.values {
            let ids = try coordinator.permanentIDs(for: group[0].entity, count: group.count)
            assignments += zip(group, ids).map { ($0, $1) }
        }
        for (object, id) in assignments {
            registry[object.objectID] = nil
            permanentIDs[object.objectID] = id
            object.objectID = id
            registry[id] = object
        }
    }
}
