import Foundation

extension ManagedObjectContext {
    /// Finds optimistic-locking conflicts for updated and deleted objects and resolves them by
    /// ``mergePolicy``. Returns the objects whose changes were dropped (rollback, or rows
    /// deleted in the store), which the save then leaves out.
    ///
    /// - Throws: `.mergeConflict` (133020) with the conflict list under the error policy.
    func resolveConflicts(_ changes: inout SaveChanges, storeRows: [ObjectIdentifier: StoreRow?]) throws {
        var conflicts: [(ManagedObject, StoreRow?)] = []
        for object in changes.updated + changes.deleted {
            let row = storeRows[ObjectIdentifier(object)] ?? nil
            if row?.version != object.snapshotVersion || row == nil { conflicts.append((object, row)) }
        }
        guard !conflicts.isEmpty else { return }
        if mergePolicy == .error {
            let list = conflicts.map { makeConflict($0.0, $0.1) }
            throw ObjectGraphError(
                .mergeConflict,
                "save: \(list.count) object\(list.count == 1 ? "" : "s") changed in the store since read: "
                    + list.map(\.description).joined(separator: " | "),
                entityName: list.first?.sourceObject.entity.name, objectID: list.first?.sourceObject.objectID,
                extraUserInfo: [NSPersistentStoreSaveConflictsErrorKey: UncheckedSendable(list as Any)])
        }
        for (object, row) in conflicts {
            guard let row else {
                // A deletion committed elsewhere wins under every policy: never resurrect.
                changes.updated.removeAll { $0 === object }
                changes.deleted.removeAll { $0 === object }
                object.changedSlots = IndexSet()
                object.state.isDeleted = true
                object.state.deletionProcessed = true
                registry[object.objectID] = nil
                pending.remove(object)
                continue
            }
            if object.state.isDeleted { // our deletion of a changed row
                object.snapshotVersion = row.version
                continue
            }
            let store = objectValues(from: row)
            var merged = store
            for index in merged.indices {
                let mine = object.slots[index]
                let changedHere = object.changedSlots.contains(index)
                let changedThere = !(object.snapshot.map { sameValue($0[index], store[index]) } ?? false)
                switch mergePolicy {
                case .overwrite: merged[index] = mine
                case .mergeByPropertyObjectTrump: if changedHere { merged[index] = mine }
                case .mergeByPropertyStoreTrump: if changedHere && !changedThere { merged[index] = mine }
                case .rollback, .error: break
                }
                if case .toMany(nil) = merged[index] { merged[index] = mine }
            }
            object.slots = merged
            object.snapshot = store
            object.snapshotVersion = row.version
            if mergePolicy == .rollback {
                object.changedSlots = IndexSet()
                changes.updated.removeAll { $0 === object }
            }
        }
    }

    private func makeConflict(_ object: ManagedObject, _ row: StoreRow?) -> MergeConflict {
        let storeValues = row.map(objectValues(from:))
        var keys: [String] = []
        if let storeValues, let snapshot = object.snapshot {
            for index in object.changedSlots where !sameValue(snapshot[index], storeValues[index]) {
                keys.append(object.entity.properties[index].name)
            }
        }
        return MergeConflict(source: object, objectSnapshot: object.snapshot.map { dictionary($0, object.entity) },
                             cachedSnapshot: storeValues.map { dictionary($0, object.entity) },
                             newVersion: row?.version ?? 0, oldVersion: object.snapshotVersion,
                             conflictingKeys: keys)
    }

    private func dictionary(_ values: [ObjectValue], _ entity: EntityDescription) -> [String: Any] {
        var result: [String: Any] = [:]
        for (i, value) in values.enumerated() {
            switch value {
            case .attribute(let v): result[entity.properties[i].name] = v.bridgedObject
            case .toOne(let o): result[entity.properties[i].name] = o?.objectID as Any? ?? NSNull()
            case .toMany: continue
            }
        }
        return result
    }
}

/// Whether two slot values hold the same thing (objects by identity).
func sameValue(_ a: ObjectValue, _ b: ObjectValue) -> Bool {
    switch (a, b) {
    case (.attribute(let x), .attribute(let y)): return x == y
    case (.toOne(let x), .toOne(let y)): return x === y
    case (.toMany(let x), .toMany(let y)):
        guard let x, let y else { return x == nil && y == nil }
        return x.objects.count == y.objects.count && zip(x.objects, y.objects).allSatisfy { $0 === $1 }
    default: return false
    }
}
