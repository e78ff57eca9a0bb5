import Foundation

extension ManagedObjectContext {
    /// Finds every constraint whose values several written objects, or a written object and
    /// a stored row, share. A nil in any constrained property never conflicts; deleted
    /// objects, rows deleted elsewhere and merged-away objects take no part.
    ///
    /// - Complexity: O(n) per constraint in the objects written, plus one scan of the
    ///   constraint entity's rows per constraint, made only when some written value may be
    ///   new (an insert, or a changed constrained property).
    func findClashes(_ plan: SavePlan, coordinator: PersistentStoreCoordinator) throws
        -> [ConstraintClash]
    {
        // The constraints of the entities written, each once, and the written objects of a
        // constrained entity, in order. An entity is constrained when its hierarchy declares
        // a constraint (only then can it be of a kind some constraint is declared on). A save
        // writes many objects of few entities, in runs: each entity is looked at once, and
        // an insert save of 20,000 unconstrained expenses beside 20 constrained categories
        // hashes no expense.
        var constraints: [(EntityDescription, [String])] = []
        var seen = Set<[String]>()
        var answers: [(entity: ObjectIdentifier, constrained: Bool)] = []
        var constrainedObjects: [ManagedObject] = []
        var lastEntity: ObjectIdentifier?
        var lastConstrained = false
        // The written objects (`plan.written`: the inserts, then the updates) read through
        // the two arrays' buffers: their concatenation copied every object into a third array
        // (a retain and a release each) and the loop over it bound each (another pair).
        // Each object is read unretained (the plan's array, borrowed for the loop, holds it):
        // bound from the buffer, it was retained for the loop's body and released after it
        // (2 atomic calls an object, W1's save); a constrained one is copied into the list.
        for objects in [plan.inserted, plan.updated] {
            objects.withUnsafeBufferPointer { objects in
                for i in objects.indices {
                    Unmanaged.passUnretained(objects[i])._withUnsafeGuaranteedRef { object in
                        let entity = ObjectIdentifier(object.entity)
                        if entity != lastEntity {
                            lastEntity = entity
                            if let known = answers.first(where: { $0.entity == entity }) {
                                lastConstrained = known.constrained
                            } else {
                                let hierarchy = object.entity.constraintsInHierarchy
                                for (owner, constraint) in hierarchy
                                where seen.insert([owner.name] + constraint).inserted {
                                    constraints.append((owner, constraint))
                                }
                                lastConstrained = !hierarchy.isEmpty
                                answers.append((entity, lastConstrained))
                            }
                        }
                        if lastConstrained { constrainedObjects.append(object) }
                    }
                }
            }
        }
        guard !constraints.isEmpty else { return [] }
        // Stored rows that the save itself rewrites or removes take no part. Only permanent
        // planned IDs can name a stored row, and only objects of a constrained entity matter.
        // (Deleting half of 100,000 unconstrained objects beside one constrained entity
        // filled this set with 50,000 IDs no fetched row could match.)
        // Objects come in runs of one entity: each answer is kept for the run, by identity
        // (keeping the entities themselves retained and released them for every object).
        var last: (entity: ObjectIdentifier, owner: ObjectIdentifier?, answer: Bool)?
        func isKind(_ object: ManagedObject, of owner: EntityDescription?) -> Bool {
            let entity = object.entity
            let key = (ObjectIdentifier(entity), owner.map(ObjectIdentifier.init))
            if let last, last.entity == key.0, last.owner == key.1 { return last.answer }
            let answer =
                owner.map { entity.isKind(of: $0) }
                ?? constraints.contains { entity.isKind(of: $0.0) }
            last = (key.0, key.1, answer)
            return answer
        }
        var excluded = Set<ManagedObjectID>()
        for object in constrainedObjects {
            let id = plan.plannedID(object)
            if !id.isTemporaryID { excluded.insert(id) }
        }
        for group in [plan.deleted, plan.vanished, plan.losers] {
            for object in group where isKind(object, of: nil) { excluded.insert(object.objectID) }
        }
        // A constraint holds within one store, as each SQLite file enforces its own: with
        // several stores, the objects are checked store by store, against that store's rows.
        let byStore = coordinator.persistentStores.count > 1
        var clashes: [ConstraintClash] = []
        for (owner, constraint) in constraints {
            let slots = constraint.map { owner.propertiesByName[$0]!.index }
            // Each part: the store its objects are saved to (their planned ID's, or for a new
            // object the store `assign(_:to:)` or the coordinator chose) and the objects.
            let parts: [(key: String?, elements: [ManagedObject])] =
                byStore
                ? constrainedObjects.filter { isKind($0, of: owner) }.grouped {
                    plan.plannedID($0).storeIdentifier ?? storeIdentifier(of: $0) ?? ""
                }
                : [(nil, constrainedObjects)]
            for part in parts {
                var groups = ClashGroups(
                    owner: owner, constraint: constraint, expected: part.elements.count)
                var mayClashWithStore = false
                for object in part.elements where isKind(object, of: owner) {
                    guard let key = constraintKey(plan.values(of: object), slots, plan) else {
                        continue
                    }
                    groups.add(key, object)
                    if !mayClashWithStore {
                        mayClashWithStore = mayHaveNewValues(object, slots, plan)
                    }
                }
                if mayClashWithStore {
                    let rows = try coordinator.fetch(
                        StoreFetchRequest(entity: owner), stores: part.key.map { [$0] })
                    for row in rows where !excluded.contains(row.objectID) {
                        if let key = rowKey(row, slots) { groups.add(key, row) }
                    }
                }
                clashes += groups.clashes
            }
        }
        return clashes
    }

    /// Whether `object`'s constrained values (in `slots`) may differ from what the store
    /// last checked.
    private func mayHaveNewValues(_ object: ManagedObject, _ slots: [Int], _ plan: SavePlan) -> Bool
    {
        if object.state.isInserted || plan.hasValues(for: object) { return true }
        return slots.contains { object.changedSlots.contains($0) }
    }

    /// One constrained value as the index keys it; `nil` for nil (never conflicts).
    private func constraintValue(_ value: ObjectValue, _ plan: SavePlan) -> StoreValue? {
        switch value {
        case .attribute(let v) where !v.isNull: .attribute(v)
        case .toOne(let o?): .toOne(plan.plannedID(o))
        default: nil
        }
    }

    private func constraintKey(_ values: [ObjectValue], _ slots: [Int], _ plan: SavePlan)
        -> ClashGroups.Key?
    {
        if slots.count == 1 { return constraintValue(values[slots[0]], plan).map { .single($0) } }
        var key: [StoreValue] = []
        key.reserveCapacity(slots.count)
        for slot in slots {
            guard let value = constraintValue(values[slot], plan) else { return nil }
            key.append(value)
        }
        return .compound(key)
    }

    private func rowKey(_ row: StoreRow, _ slots: [Int]) -> ClashGroups.Key? {
        if slots.count == 1 { return rowValue(row.values[slots[0]]).map { .single($0) } }
        var key: [StoreValue] = []
        key.reserveCapacity(slots.count)
        for slot in slots {
            guard let value = rowValue(row.values[slot]) else { return nil }
            key.append(value)
        }
        return .compound(key)
    }

    /// One stored constrained value as the index keys it; `nil` for nil.
    private func rowValue(_ value: StoreValue) -> StoreValue? {
        switch value {
        case .attribute(let v) where !v.isNull: value
        case .toOne(.some): value
        default: nil
        }
    }

    /// The conflict record of a clash, for a 133021 error.
    func makeConstraintConflict(_ clash: ConstraintClash) -> ConstraintConflict {
        var values: [String: Any] = [:]
        var text: [String] = []
        for (name, value) in zip(clash.constraint, clash.values) {
            switch value {
            case .attribute(let v):
                values[name] = v.bridgedObject
                text.append("\(name) = \(ValidationErrors.display(v))")
            case .toOne(let id?):
                values[name] = id
                text.append("\(name) = \(id)")
            default: continue
            }
        }
        let row = clash.rows.first
        return ConstraintConflict(
            entityName: clash.owner.name, constraint: clash.constraint, constraintValues: values,
            valuesText: text.joined(separator: ", "),
            databaseObject: row.map { registeredOrFault($0.objectID) },
            databaseSnapshot: row.map(rowDictionary),
            conflictingObjects: clash.objects,
            conflictingSnapshots: clash.objects.map { o in
                o.committedSlots.map { snapshotDictionary($0, o.entity) } ?? [:]
            })
    }

    /// A row's attributes and to-ones (as IDs) by key.
    private func rowDictionary(_ row: StoreRow) -> [String: Any] {
        var result: [String: Any] = [:]
        for (property, value) in zip(row.objectID.entity.properties, row.values) {
            switch value {
            case .attribute(let v): result[property.name] = v.bridgedObject
            case .toOne(let id): result[property.name] = id as Any? ?? NSNull()
            case .toMany, .notStored: continue
            }
        }
        return result
    }
}

extension EntityDescription {
    /// Constraints of this entity and its ancestors, with the entity declaring each.
    var constraintsInHierarchy: [(EntityDescription, [String])] {
        var result: [(EntityDescription, [String])] = []
        var entity: EntityDescription? = self
        while let e = entity {
            result += e.uniquenessConstraints.map { (e, $0) }
            entity = e.superentity
        }
        return result
    }
}
