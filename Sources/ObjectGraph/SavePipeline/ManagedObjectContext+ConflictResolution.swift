import Foundation

extension ManagedObjectContext {
    /// Plans the resolution of optimistic-locking conflicts by ``mergePolicy``, property by
    /// property: `conflicts` are the updated and deleted objects whose rows changed or were
    /// deleted in the store since they were read, each with its current row (`nil`: deleted),
    /// in the save's order. Changes no object.
    ///
    /// - A row deleted elsewhere wins under every policy but `.error`: the object's changes
    ///   are dropped and it leaves the context after the save; it is never recreated.
    /// - A deletion of a row changed elsewhere goes ahead under every policy but `.error`.
    ///
    /// - Throws: `.mergeConflict` (133020) listing every conflict under the error policy.
    /// - Complexity: O(c × p) for c conflicts of p properties.
    func resolveConflicts(
        _ plan: inout SavePlan, conflicts: [(object: ManagedObject, row: StoreRow?)]
    ) throws {
        guard !conflicts.isEmpty else { return }
        if mergePolicy == .error {
            throw SaveErrors.mergeConflict(conflicts.map { makeConflict($0.0, $0.1) })
        }
        var dropped = Set<ObjectIdentifier>()
        for (object, row) in conflicts {
            guard let row else {
                plan.vanished.append(object)
                dropped.insert(ObjectIdentifier(object))
                continue
            }
            plan.expectedVersion[ObjectIdentifier(object)] = row.version
            if object.state.isDeleted { continue }
            let store = objectValues(from: row)
            let committed = object.committedSlots
            var merged = store
            for index in merged.indices {
                let mine = object.slots[index]
                let changedHere = object.changedSlots.contains(index)
                let changedThere =
                    !(committed.map { sameValue($0[index], store[index]) } ?? false)
                switch mergePolicy {
                // Every slot as the context knows it: a slot not changed here has its
                // committed value (a value `setPrimitiveValue(_:forKey:)` alone set is no change
                // and is not saved).
                case .overwrite: merged[index] = changedHere ? mine : committed?[index] ?? mine
                case .mergeByPropertyObjectTrump: if changedHere { merged[index] = mine }
                case .mergeByPropertyStoreTrump:
                    if changedHere && !changedThere { merged[index] = mine }
                case .rollback, .error: break
                }
                if case .toMany(nil) = merged[index] { merged[index] = mine }
            }
            if mergePolicy == .rollback {
                plan.rolledBack.append((object, merged))
                dropped.insert(ObjectIdentifier(object))
            } else {
                plan.setValues(merged, of: object)
            }
        }
        plan.remove(dropped)
    }

    /// The conflict record of `object` against its store row (`nil`: deleted).
    func makeConflict(_ object: ManagedObject, _ row: StoreRow?) -> MergeConflict {
        let storeValues = row.map(objectValues(from:))
        var keys: [String] = []
        var local: [String: String] = [:]
        var stored: [String: String] = [:]
        let snapshot = object.committedSlots
        if let storeValues, let snapshot {
            for index in object.changedSlots.sorted()
            where !sameValue(snapshot[index], storeValues[index]) {
                let name = object.entity.properties[index].name
                keys.append(name)
                local[name] = display(object.slots[index])
                stored[name] = display(storeValues[index])
            }
        }
        return MergeConflict(
            source: object,
            objectSnapshot: snapshot.map { snapshotDictionary($0, object.entity) },
            cachedSnapshot: storeValues.map { snapshotDictionary($0, object.entity) },
            newVersion: row?.version ?? 0, oldVersion: object.snapshotVersion,
            conflictingKeys: keys, localValues: local, storeValues: stored)
    }

    /// Attributes and to-ones (as object IDs) by key, as Core Data's snapshots hold them.
    func snapshotDictionary(_ values: [ObjectValue], _ entity: EntityDescription) -> [String: Any] {
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

    /// A slot's value as messages show it.
    func display(_ value: ObjectValue) -> String {
        switch value {
        case .attribute(let v): ValidationErrors.display(v)
        case .toOne(let o): o.map { "\($0.objectID)" } ?? "nil"
        case .toMany(let m): "\(m?.count ?? 0) objects"
        }
    }
}

/// Whether two slot values hold the same thing (objects by identity).
func sameValue(_ a: ObjectValue, _ b: ObjectValue) -> Bool {
    switch (a, b) {
    case (.attribute(let x), .attribute(let y)): return x == y
    case (.toOne(let x), .toOne(let y)): return x === y
    case (.toMany(let x), .toMany(let y)):
        guard let x, let y else { return x == nil && y == nil }
        return x.objects.count == y.objects.count
            && zip(x.objects, y.objects).allSatisfy { $0 === $1 }
    default: return false
    }
}
