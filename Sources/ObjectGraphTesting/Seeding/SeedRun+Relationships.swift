import ObjectGraph

/// Connecting relationships within their counts.
extension SeedRun {
    /// Connects every stored relationship of the model once per inverse pair.
    func connectRelationships() throws {
        var done = Set<ObjectIdentifier>()
        for entity in context.persistentStoreCoordinator?.managedObjectModel.entities ?? [] {
            for case let r as RelationshipDescription in entity.ownProperties where !r.isTransient {
                guard !done.contains(ObjectIdentifier(r)) else { continue }
                done.insert(ObjectIdentifier(r))
                if let inverse = r.inverseRelationship { done.insert(ObjectIdentifier(inverse)) }
                try connect(r, declaredOn: entity)
            }
        }
    }

    private func connect(_ r: RelationshipDescription, declaredOn entity: EntityDescription) throws
    {
        guard let destination = r.destinationEntity else { return }
        let inverse = r.inverseRelationship.flatMap { $0.isTransient ? nil : $0 }
        let symmetric = inverse === r
        // The side holding a to-one chooses; a to-many facing a to-one is filled through it.
        let flipped = r.isToMany ? inverse.flatMap { $0.isToMany ? nil : $0 } : nil
        let flip = flipped != nil
        let aRel = flipped ?? r
        let bRel = flip ? r : inverse
        let aObjects = flip ? members(of: destination) : members(of: entity)
        let bObjects =
            symmetric ? aObjects : (flip ? members(of: entity) : members(of: destination))
        guard !aObjects.isEmpty else { return }
        var random = random("relationship:\(entity.name).\(r.name)")
        let available = symmetric ? aObjects.count - 1 : bObjects.count
        let aBounds = aObjects.map { _ in
            DegreeBounds.of(aRel, available: available, random: &random)
        }
        let exclusive = !aRel.isToMany && isUniqueAlone(aRel)
        let bBounds: [DegreeBounds] =
            symmetric
            ? aBounds
            : bObjects.map { _ in
                var b =
                    bRel.map { DegreeBounds.of($0, available: aObjects.count, random: &random) }
                    ?? .unbounded
                if exclusive { b.hi = min(b.hi, 1) }
                return b
            }
        let targets = aBounds.map { $0.target(isToMany: aRel.isToMany, random: &random) }
        var planner = RelationshipPlanner(
            aObjects: aObjects, bObjects: bObjects, aBounds: aBounds,
            bBounds: bBounds, symmetric: symmetric)
        if let failure = planner.plan(aTargets: targets, random: &random) {
            let failedRel = failure.isA ? aRel : (bRel ?? aRel)
            let number = failure.isA ? aObjects[failure.index] : bObjects[failure.index]
            let lo = planner.minimum(isA: failure.isA, index: failure.index)
            let partners = failure.isA ? bObjects.count : aObjects.count
            let destination = failedRel.destinationEntityName
            var reason =
                "\(objects[number].entity.name) #\(indexInEntity[number] + 1) needs at least \(lo) "
                + "\(destination) object\(lo == 1 ? "" : "s") but "
            if partners == 0 {
                reason += "no \(destination) objects are seeded"
            } else if partners < lo + (symmetric ? 1 : 0) {
                let others = symmetric ? partners - 1 : partners
                reason +=
                    "only \(others)\(symmetric ? " other" : "") \(destination) object\(others == 1 ? " is" : "s are") seeded"
            } else {
                let other = failure.isA ? bRel : aRel
                reason +=
                    "the \(partners) seeded \(destination) objects have no room left"
                    + (other.map {
                        " (\($0.entity?.name ?? "?").\($0.name): \(SeedErrors.rule($0))\(exclusive ? ", unique" : ""))"
                    } ?? "")
            }
            throw SeedErrors.unsatisfiableRelationship(
                entity: failedRel.entity?.name ?? entity.name,
                relationship: failedRel, reason: reason)
        }
        for (i, number) in aObjects.enumerated() {
            let partners = planner.partners(ofA: i).map { objects[$0] }
            if aRel.isToMany {
                objects[number].setValue(partners, forKey: aRel.name)
            } else if let partner = partners.first {
                objects[number].setValue(partner, forKey: aRel.name)
            }
        }
    }

    /// Whether some entity holding `r` declares a uniqueness constraint on `r` alone.
    private func isUniqueAlone(_ r: RelationshipDescription) -> Bool {
        guard let owner = r.entity else { return false }
        return owner.selfAndDescendants.contains { $0.uniquenessConstraints.contains([r.name]) }
    }
}
