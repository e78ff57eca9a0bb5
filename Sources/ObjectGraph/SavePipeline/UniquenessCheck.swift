import Foundation

/// Objects being saved, and stored rows, that share the values of one uniqueness constraint.
struct ConstraintClash {
    /// The entity declaring the constraint.
    let owner: EntityDescription
    /// The constrained keys.
    let constraint: [String]
    /// The shared values, one per key.
    let values: [StoreValue]
    /// Objects of the save using the values, in the order the save lists them.
    var objects: [ManagedObject]
    /// Stored rows (of objects not in the save) using the values.
    var rows: [StoreRow]
}

extension ManagedObjectContext {
    /// Finds every constraint whose values several written objects, or a written object and
    /// a stored row, share. A nil in any constrained property never conflicts; deleted
    /// objects, rows deleted elsewhere and merged-away objects take no part.
    ///
    /// - Complexity: O(n) per constraint in the objects written, plus one scan of the
    ///   constraint entity's rows per constraint, made only when some written value may be
    ///   new (an insert, or a changed constrained property).
    func findClashes(_ plan: SavePlan, coordinator: PersistentStoreCoordinator) throws -> [ConstraintClash] {
        let candidates = plan.written
        var constraints: [(EntityDescription, [String])] = []
        var seen = Set<[String]>()
        for object in candidates {
            for (owner, constraint) in object.entity.constraintsInHierarchy
            where seen.insert([owner.name] + constraint).inserted {
                constraints.append((owner, constraint))
            }
        }
        guard !constraints.isEmpty else { return [] }
        var excluded = Set<ManagedObjectID>()
        for object in candidates { excluded.insert(plan.plannedID(object)) }
        for object in plan.deleted + plan.vanished + plan.losers { excluded.insert(object.objectID) }
        var clashes: [ConstraintClash] = []
        for (owner, constraint) in constraints {
            var index: [[StoreValue]: Int] = [:]
            var groups: [ConstraintClash] = []
            var mayClashWithStore = false
            for object in candidates where object.entity.isKind(of: owner) {
                guard let key = constraintKey(plan.values(of: object), constraint, owner, plan) else { continue }
                if let i = index[key] {
                    groups[i].objects.append(object)
                } else {
                    index[key] = groups.count
                    groups.append(ConstraintClash(owner: owner, constraint: constraint, values: key,
                                                  objects: [object], rows: []))
                }
                if !mayClashWithStore { mayClashWithStore = mayHaveNewValues(object, constraint, owner, plan) }
            }
            if mayClashWithStore {
                for row in try coordinator.fetch(StoreFetchRequest(entity: owner)) where !excluded.contains(row.objectID) {
                    guard let key = rowKey(row, constraint, owner), let i = index[key] else { continue }
                    groups[i].rows.append(row)
                }
            }
            clashes += groups.filter { $0.objects.count + $0.rows.count >= 2 }
        }
        return clashes
    }

    /// Whether `object`'s constrained values may differ from what the store last checked.
    private func mayHaveNewValues(_ object: ManagedObject, _ constraint: [String], _ owner: EntityDescription,
                                  _ plan: SavePlan) -> Bool {
        if object.state.isInserted || plan.hasValues(for: object) { return true }
        return constraint.contains { object.changedSlots.contains(owner.propertiesByName[$0]!.index) }
    }

    private func constraintKey(_ values: [ObjectValue], _ constraint: [String], _ owner: EntityDescription,
                               _ plan: SavePlan) -> [StoreValue]? {
        var key: [StoreValue] = []
        key.reserveCapacity(constraint.count)
        for name in constraint {
            switch values[owner.propertiesByName[name]!.index] {
            case .attribute(let v) where !v.isNull: key.append(.attribute(v))
            case .toOne(let o?): key.append(.toOne(plan.plannedID(o)))
            default: return nil
            }
        }
        return key
    }

    private func rowKey(_ row: StoreRow, _ constraint: [String], _ owner: EntityDescription) -> [StoreValue]? {
        var key: [StoreValue] = []
        key.reserveCapacity(constraint.count)
        for name in constraint {
            switch row.values[owner.propertiesByName[name]!.index] {
            case .attribute(let v) where !v.isNull: key.append(.attribute(v))
            case .toOne(let id?): key.append(.toOne(id))
            default: return nil
            }
        }
        return key
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
            conflictingSnapshots: clash.objects.map { o in o.snapshot.map { snapshotDictionary($0, o.entity) } ?? [:] })
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
