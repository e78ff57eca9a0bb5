import Foundation

extension ManagedObjectContext {
    /// Runs the delete rules of every deletion not yet processed, following cascades (through
    /// cycles, and to objects never loaded) until none are left; an object a cascade deletes
    /// gets its `prepareForDeletion()` from `delete(_:)`, as any other.
    ///
    /// Each deleted object is processed once per deletion in this context. An object that
    /// was inserted here and never saved is discarded: cascade still deletes what it
    /// reaches, and under every other rule its relationships are nullified, so no object
    /// keeps a reference to an object that will never exist.
    func propagateDeletes() {
        // Round by round (cascades add to the next round), so each deletion costs O(1) to take.
        var nullified = DeferredRemovals()
        while !unprocessedDeletes.isEmpty {
            let round = unprocessedDeletes
            unprocessedDeletes = []
            // Through the buffer: `round` holds each object, so the walk retains none (a
            // `for`-`in` retained and released each deletion).
            round.withUnsafeBufferPointer { round in
                for i in round.indices { processDeletion(of: round[i], &nullified) }
            }
            nullified.flush()
        }
    }

    private func processDeletion(of object: ManagedObject, _ nullified: inout DeferredRemovals) {
        guard object.state.isDeleted, !object.state.deletionProcessed else { return }
        object.state.deletionProcessed = true
        let discarded = object.state.isInserted
        // The list is held by `relationships` for the walk: read through its buffer, no
        // retain and release of each description.
        let relationships = object.entity.relationships
        relationships.withUnsafeBufferPointer { relationships in
            for k in relationships.indices {
                processRule(of: relationships[k], discarded: discarded, object, &nullified)
            }
        }
        if discarded {
            // Never saved anywhere: it simply leaves the context.
            registry.removeValue(forKey: object.objectID)
            pending.remove(object)
        }
    }

    /// Runs deleted `object`'s delete rule of `relationship` (the nullify rule for every
    /// relationship but a cascade of a `discarded` insert); a to-one nullify whose inverse is
    /// a to-many is recorded in `nullified`, made in bulk with the round's others.
    @inline(__always)
    private func processRule(
        of relationship: RelationshipDescription, discarded: Bool, _ object: ManagedObject,
        _ nullified: inout DeferredRemovals
    ) {
        var rule = relationship.deleteRule
        if discarded && rule != .cascade { rule = .nullify }
        // Nullifying a to-one takes the object out of its target's to-many later, in bulk
        // with the others of the round; anything that reads a to-many or runs user code
        // (a cascade's `prepareForDeletion()`) first sees the removals made.
        if rule == .nullify, !relationship.isToMany,
            let inverse = relationship.inverseRelationship, inverse.isToMany
        {
            if let target = object.toOneKeepingRow(relationship, in: self) {
                nullified.add(object, from: inverse, of: target)
                // Kept for `finishSave`, which would look the same ID up again. Recorded
                // first, so that the reference the look-up returned moves into the kept field
                // (passed as a copy, it was retained there and released here).
                if object.keepDestinationFound(consume target), keptDestinationsStamp == nil {
                    keptDestinationsStamp = registry.removals
                }
            }
            return
        }
        if rule == .nullify || rule == .cascade { nullified.flush() }
        apply(rule, of: relationship, to: object)
    }

    /// Whether any of `objects` (saved objects deleted here, whose to-one `toOne` holds
    /// `target` in this context) still points at `target` one level up: in the store for a
    /// root context, in the parent for a child. An object whose row is at the version it was
    /// read, with `toOne` unchanged here, points where it points here; any other has its row
    /// read (at the context's query generation when it is pinned to one). When the store
    /// cannot be read the answer is yes (the to-many counts as changed, as it did before this
    /// check).
    ///
    /// - Complexity: Stops at the first object still listed: usually the first, so one
    ///   version read per target (reading every object's version cost 350 instructions per
    ///   deletion in `save.delete`).
    func anyListedUpstream(
        _ objects: [ManagedObject], via toOne: RelationshipDescription,
        pointingAt target: ManagedObject
    ) -> Bool {
        let coordinator = parent == nil ? persistentStoreCoordinator : nil
        if parent == nil && coordinator == nil { return true }
        // The version shortcut reads the store as it is now; a context pinned to a query
        // generation reads its rows at that generation instead (`upstreamRow`), where a
        // member another context has since deleted is still listed.
        let readsCurrentRows = coordinator != nil && readGeneration() == nil
        for object in objects {
            if let coordinator, readsCurrentRows {
                guard let versions = try? coordinator.rowVersions(of: [object]) else {
                    return true
                }
                guard let version = versions.first ?? nil else { continue }  // no row: not listed
                if version == object.snapshotVersion && !object.changedSlots.contains(toOne.index) {
                    return true
                }
            }
            let row: StoreRow?
            do { row = try upstreamRow(for: object.objectID) } catch { return true }
            guard let row else { continue }  // gone one level up: not listed
            if case .toOne(let id?) = row.values[toOne.index], id == target.objectID {
                return true
            }
        }
        return false
    }

    private func apply(
        _ rule: DeleteRule, of relationship: RelationshipDescription, to object: ManagedObject
    ) {
        switch rule {
        case .noAction, .deny:
            return  // deny is enforced by validateForDelete at save (1600)
        case .nullify:
            guard let inverse = relationship.inverseRelationship else { return }
            for target in object.destinations(of: relationship) {
                target.unlink(inverse, object)
            }
        case .cascade:
            let targets = object.destinations(of: relationship)
            for target in targets where !target.state.isDeleted {
                delete(target)
            }
            if let inverse = relationship.inverseRelationship {
                for target in targets { target.unlink(inverse, object) }
            }
        }
    }
}

/// Removals from to-many relationships that delete propagation's nullify rule makes, kept
/// for one round and made per target at once (see `ManagedObject.unlink(_:_:)`): deleting
/// half of 100,000 expenses in 20 categories took each category's to-many out of its slot
/// and back once per expense.
///
/// Targets keep the order in which they were first reached, so the objects they make
/// pending (and the save's updated rows) come in the same order as removing one by one.
private struct DeferredRemovals {
    /// Per target and to-many: the objects leaving it, in order, and the index of the same
    /// target's next group (another of its to-manys), or -1. `inverseKey` is the to-many's
    /// identifier, compared without a retain of the description.
    private var groups:
        [(
            target: ManagedObject, inverse: RelationshipDescription, inverseKey: ObjectIdentifier,
            objects: [ManagedObject], next: Int
        )] = []
    /// Each target's first group.
    private var first = ObjectPositions()

    /// Records that `object` leaves `target`'s to-many `inverse`.
    mutating func add(
        _ object: ManagedObject, from inverse: RelationshipDescription, of target: ManagedObject
    ) {
        guard var g = first[target] else {
            _ = first.insert(target, at: groups.count)
            groups.append((target, inverse, ObjectIdentifier(inverse), [object], -1))
            return
        }
        // The groups' relationships compared by their identifiers, which the groups keep:
        // reading a group's `inverse` retained and released it once a deletion.
        let key = ObjectIdentifier(inverse)
        while groups[g].inverseKey != key {
            if groups[g].next < 0 {
                groups[g].next = groups.count
                groups.append((target, inverse, key, [object], -1))
                return
            }
            g = groups[g].next
        }
        groups[g].objects.append(object)
    }

    /// Makes the recorded removals.
    mutating func flush() {
        guard !groups.isEmpty else { return }
        let made = groups
        groups = []
        first = ObjectPositions()
        for group in made { group.target.unlinkDeleted(group.inverse, group.objects) }
    }
}
