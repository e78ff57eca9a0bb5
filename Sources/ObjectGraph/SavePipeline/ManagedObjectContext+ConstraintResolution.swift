import Foundation

extension ManagedObjectContext {
    /// Checks uniqueness constraints and, under a merging policy, plans the merges that turn
    /// duplicates into one object (see <doc:SavingAndValidation#Uniqueness-constraints>).
    ///
    /// Objects and rows that clash, directly or through a chain of clashes, form a cluster.
    /// A cluster keeps one identity: the stored row's, or the updated object's, or (when
    /// every member is new) the first inserted object's. Values merge by property in the
    /// order row/updated object first, then inserts in the order they were made:
    /// `.mergeByPropertyObjectTrump` takes the last value set, `.overwrite` the last
    /// insert's whole state, `.mergeByPropertyStoreTrump` and `.rollback` the first. To-many
    /// relationships are united; every other object's references move to the survivor.
    ///
    /// - Throws: `.constraintConflict` (133021) listing the conflicts: every one under
    ///   `.error`; under the other policies, those no merge can resolve (two objects that
    ///   both exist in the store, or objects of different entities).
    func resolveConstraints(_ plan: inout SavePlan, coordinator: PersistentStoreCoordinator) throws
    {
        for _ in 0..<8 {
            let clashes = try findClashes(plan, coordinator: coordinator)
            if clashes.isEmpty { return }
            if mergePolicy == .error {
                throw SaveErrors.constraintConflict(clashes.map(makeConstraintConflict))
            }
            try merge(clashes, into: &plan)
            planRedirects(&plan)
        }
        let left = try findClashes(plan, coordinator: coordinator)
        guard left.isEmpty else {
            throw SaveErrors.constraintConflict(
                left.map(makeConstraintConflict),
                reason: "merging duplicates kept producing new conflicts")
        }
    }

    /// Merges each cluster of clashing objects and rows into one survivor.
    private func merge(_ clashes: [ConstraintClash], into plan: inout SavePlan) throws {
        var position: [ObjectIdentifier: Int] = [:]
        for (i, object) in plan.written.enumerated() { position[ObjectIdentifier(object)] = i }
        var unresolvable: [ConstraintClash] = []
        var merged = Set<ObjectIdentifier>()
        var takenOver: [ManagedObject] = []
        for cluster in ClusterBuilder(clashes).clusters {
            let objects = cluster.objects.sorted {
                position[ObjectIdentifier($0)]! < position[ObjectIdentifier($1)]!
            }
            let inserts = objects.filter(\.state.isInserted)
            let existing = objects.count - inserts.count + cluster.rows.count
            let entity = objects[0].entity
            guard existing <= 1, !inserts.isEmpty, objects.allSatisfy({ $0.entity === entity }),
                cluster.rows.allSatisfy({ $0.objectID.entity === entity })
            else {
                unresolvable += cluster.clashes
                continue
            }
            var members: [MergeMember] = []
            let survivor: ManagedObject
            var losers: [ManagedObject]
            if let updated = objects.first(where: { !$0.state.isInserted }) {
                survivor = updated
                losers = inserts
                members.append(
                    MergeMember(values: plan.values(of: updated), claimsAll: true, set: SlotSet()))
            } else if let row = cluster.rows.first {
                survivor = inserts[0]
                losers = Array(inserts.dropFirst())
                if let registered = registry[row.objectID] { losers.append(registered) }
                plan.takeovers[ObjectIdentifier(survivor)] = row.objectID
                plan.expectedVersion[ObjectIdentifier(survivor)] = row.version
                takenOver.append(survivor)
                members.append(
                    MergeMember(values: objectValues(from: row), claimsAll: true, set: SlotSet()))
            } else {
                survivor = inserts[0]
                losers = Array(inserts.dropFirst())
            }
            for insert in inserts {
                members.append(
                    MergeMember(
                        values: plan.values(of: insert), claimsAll: mergePolicy == .overwrite,
                        set: insert.changedSlots))
            }
            let takesOver = plan.takeovers[ObjectIdentifier(survivor)] != nil
            plan.setValues(
                mergedValues(members, survivor: survivor, takesOver: takesOver), of: survivor)
            plan.survivors.insert(ObjectIdentifier(survivor))
            for loser in losers {
                plan.survivorOf[ObjectIdentifier(loser)] = survivor
                plan.losers.append(loser)
                merged.insert(ObjectIdentifier(loser))
            }
        }
        if !unresolvable.isEmpty {
            throw SaveErrors.constraintConflict(
                unresolvable.map(makeConstraintConflict),
                reason:
                    "a merge policy merges new objects into one object; it cannot merge objects that are "
                    + "both already stored, nor objects of different entities: change the values")
        }
        let moved = Set(takenOver.map(ObjectIdentifier.init))
        plan.inserted.removeAll { moved.contains(ObjectIdentifier($0)) }
        plan.updated += takenOver
        plan.remove(merged)
    }

    /// The survivor's values: attributes and to-ones by the merge policy, to-manys united.
    private func mergedValues(_ members: [MergeMember], survivor: ManagedObject, takesOver: Bool)
        -> [ObjectValue]
    {
        var result = members[0].values
        let lastWins = mergePolicy == .mergeByPropertyObjectTrump || mergePolicy == .overwrite
        for property in survivor.entity.properties {
            let i = property.index
            if let r = property as? RelationshipDescription, r.isToMany {
                if takesOver && !r.isStoredInRow {
                    result[i] = .toMany(nil)
                    continue
                }
                var union = RelatedObjects()
                var unloaded = false
                for member in members {
                    guard case .toMany(let m) = member.values[i] else { continue }
                    if let m {
                        for object in m.objects { union.insert(object) }
                    } else if r.isStoredInRow {
                        for object in survivor.related(r) { union.insert(object) }
                    } else {
                        unloaded = true  // derived: reloaded from the store after the save
                    }
                }
                result[i] = unloaded ? .toMany(nil) : .toMany(union)
                continue
            }
            let claimants = members.filter { $0.claimsAll || $0.set.contains(i) }
            if let chosen = lastWins ? claimants.last : claimants.first {
                result[i] = chosen.values[i]
            }
        }
        return result
    }

    /// Moves every reference to a merged-away object onto its survivor, and drops
    /// references a survivor's chosen to-one no longer returns.
    private func planRedirects(_ plan: inout SavePlan) {
        let written = Set((plan.written + plan.deleted).map(ObjectIdentifier.init))
        for object in registry.values where plan.survivorOf[ObjectIdentifier(object)] == nil {
            var values = plan.values(of: object)
            guard !values.isEmpty else { continue }
            var changed = false
            for r in object.entity.relationships {
                switch values[r.index] {
                case .toOne(let target?):
                    let mapped = plan.survivor(target)
                    guard mapped !== target || plan.survivors.contains(ObjectIdentifier(mapped))
                    else { continue }
                    let kept: ManagedObject? =
                        keepsReference(object, r, mapped, plan) ? mapped : nil
                    if kept !== target {
                        values[r.index] = .toOne(kept)
                        changed = true
                    }
                case .toMany(let members?):
                    var result = RelatedObjects()
                    var differs = false
                    for target in members.objects {
                        let mapped = plan.survivor(target)
                        let affected =
                            mapped !== target || plan.survivors.contains(ObjectIdentifier(mapped))
                        if affected && !keepsReference(object, r, mapped, plan) {
                            differs = true
                            continue
                        }
                        if mapped !== target { differs = true }
                        if !result.insert(mapped) { differs = true }
                    }
                    if differs {
                        values[r.index] = .toMany(result)
                        changed = true
                    }
                default: continue
                }
            }
            if changed {
                noteRedirect(
                    object, values, written: written.contains(ObjectIdentifier(object)), &plan)
            }
        }
    }

    /// Whether `object.r` may point at `target`: when `r`'s inverse is a to-one, only if the
    /// target's (planned) inverse points back.
    private func keepsReference(
        _ object: ManagedObject, _ r: RelationshipDescription, _ target: ManagedObject,
        _ plan: SavePlan
    ) -> Bool {
        guard let inverse = r.inverseRelationship, !inverse.isToMany else { return true }
        let values = plan.values(of: target)
        guard !values.isEmpty, case .toOne(let back) = values[inverse.index] else { return true }
        return back.map { plan.survivor($0) === object } ?? false
    }

    /// Records redirected values; an object outside the save whose stored row changes joins it.
    private func noteRedirect(
        _ object: ManagedObject, _ values: [ObjectValue], written: Bool, _ plan: inout SavePlan
    ) {
        let before = plan.values(of: object)
        plan.setValues(values, of: object)
        guard !written, !object.state.isDeleted else { return }
        func stored(_ v: [ObjectValue]) -> [StoreValue] {
            storeValues(v, object.entity) { plan.plannedID($0) }
        }
        if stored(before) != stored(values) { plan.updated.append(object) }
    }
}

/// One side of a constraint merge: its values and which of them it claims.
private struct MergeMember {
    let values: [ObjectValue]
    /// A stored row or updated object claims every value; `.overwrite` inserts too.
    let claimsAll: Bool
    /// For an insert: the slots it set.
    let set: SlotSet
}

/// Groups clashes that share an object or a row into clusters (union–find).
private struct ClusterBuilder {
    struct Cluster {
        var objects: [ManagedObject] = []
        var rows: [StoreRow] = []
        var clashes: [ConstraintClash] = []
    }

    private(set) var clusters: [Cluster] = []

    init(_ clashes: [ConstraintClash]) {
        enum Node: Hashable {
            case object(ObjectIdentifier)
            case row(ManagedObjectID)
        }
        var parent: [Node: Node] = [:]
        func find(_ n: Node) -> Node {
            var root = n
            while let p = parent[root], p != root { root = p }
            var current = n
            while let p = parent[current], p != root {
                parent[current] = root
                current = p
            }
            return root
        }
        func nodes(_ clash: ConstraintClash) -> [Node] {
            clash.objects.map { .object(ObjectIdentifier($0)) }
                + clash.rows.map { .row($0.objectID) }
        }
        for clash in clashes {
            let members = nodes(clash)
            for n in members where parent[n] == nil { parent[n] = n }
            for n in members.dropFirst() {
                let a = find(members[0])
                let b = find(n)
                if a != b { parent[b] = a }
            }
        }
        var index: [Node: Int] = [:]
        var seenObjects = Set<ObjectIdentifier>()
        var seenRows = Set<ManagedObjectID>()
        for clash in clashes {
            let root = find(nodes(clash)[0])
            let i = index[root] ?? clusters.count
            if i == clusters.count {
                index[root] = i
                clusters.append(Cluster())
            }
            clusters[i].clashes.append(clash)
            for o in clash.objects where seenObjects.insert(ObjectIdentifier(o)).inserted {
                clusters[i].objects.append(o)
            }
            for r in clash.rows where seenRows.insert(r.objectID).inserted {
                clusters[i].rows.append(r)
            }
        }
    }
}
