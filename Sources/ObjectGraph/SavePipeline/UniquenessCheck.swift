import Foundation

extension ManagedObjectContext {
    /// Checks uniqueness constraints of inserted and updated objects against each other and
    /// the store. A nil in any constrained attribute never conflicts.
    ///
    /// - Throws: `.constraintConflict` (133021) naming the constraint, values and objects.
    func checkUniqueness(_ changes: SaveChanges) throws {
        let candidates = changes.inserted + changes.updated
        guard candidates.contains(where: { !$0.entity.rootEntity.allUniquenessConstraints.isEmpty }) else { return }
        let deletedIDs = Set(changes.deleted.map(\.objectID))
        var seen: [String: ManagedObject] = [:]
        for object in candidates {
            for (owner, constraint) in object.entity.constraintsInHierarchy {
                guard let key = constraintKey(object, constraint, owner) else { continue }
                if let other = seen[key], other !== object {
                    throw ConstraintErrors.conflict(owner, constraint, object, other: other)
                }
                seen[key] = object
            }
        }
        guard let coordinator = rootCoordinator else { return }
        // One scan per constraint, whatever the number of objects saved.
        var checked = Set<String>()
        for object in candidates {
            for (owner, constraint) in object.entity.constraintsInHierarchy {
                let name = owner.name + "(" + constraint.joined(separator: ",") + ")"
                guard checked.insert(name).inserted else { continue }
                var mine: [String: ManagedObject] = [:]
                for candidate in candidates where candidate.entity.isKind(of: owner) {
                    if let key = constraintKey(candidate, constraint, owner) { mine[key] = candidate }
                }
                guard !mine.isEmpty else { continue }
                let changedIDs = Set(candidates.map(\.objectID))
                for row in try coordinator.fetch(StoreFetchRequest(entity: owner)) {
                    guard !deletedIDs.contains(row.objectID), !changedIDs.contains(row.objectID),
                          let key = rowConstraintKey(row, constraint, owner), let clash = mine[key] else { continue }
                    throw ConstraintErrors.conflict(owner, constraint, clash, other: nil, row: row)
                }
            }
        }
    }

    private func rowConstraintKey(_ row: StoreRow, _ constraint: [String], _ owner: EntityDescription) -> String? {
        var parts: [String] = ["\(owner.name)"]
        for key in constraint {
            let v = row.values[owner.propertiesByName[key]!.index]
            switch v {
            case .attribute(.null), .toOne(nil): return nil
            default: parts.append("\(key)=\(v)")
            }
        }
        return parts.joined(separator: "\u{1}")
    }

    private func constraintKey(_ object: ManagedObject, _ constraint: [String], _ owner: EntityDescription) -> String? {
        var parts: [String] = ["\(owner.name)"]
        for key in constraint {
            let p = owner.propertiesByName[key]!
            let v = storeValue(object, p)
            switch v {
            case .attribute(.null), .toOne(nil): return nil
            default: parts.append("\(key)=\(v)")
            }
        }
        return parts.joined(separator: "\u{1}")
    }

    private func storeValue(_ object: ManagedObject, _ p: PropertyDescription) -> StoreValue {
        switch object.slots[p.index] {
        case .attribute(let v): .attribute(v)
        case .toOne(let o): .toOne(o?.objectID)
        case .toMany: .notStored
        }
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

    /// Whether any entity in this hierarchy declares a constraint.
    var allUniquenessConstraints: [[String]] {
        selfAndDescendants.flatMap(\.uniquenessConstraints)
    }
}

/// Constraint error factories.
enum ConstraintErrors {
    static func conflict(_ entity: EntityDescription, _ constraint: [String], _ object: ManagedObject,
                         other: ManagedObject?, row: StoreRow? = nil) -> ObjectGraphError {
        let values = constraint.map { key in
            "\(key) = \(String(describing: object.value(forKey: key) ?? "nil"))"
        }.joined(separator: ", ")
        let against = other.map { "another object being saved (\($0.objectID))" }
            ?? row.map { "the stored \(entity.name) \($0.objectID)" } ?? "another object"
        return ObjectGraphError(
            .constraintConflict,
            "save: uniqueness constraint \(entity.name)(\(constraint.joined(separator: ", "))) violated: \(values) "
                + "is already used by \(against)",
            entityName: entity.name, key: constraint.joined(separator: ","), objectID: object.objectID)
    }
}
