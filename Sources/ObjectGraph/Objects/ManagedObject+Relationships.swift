import Foundation

extension ManagedObject {
    /// Whether the object is in `context`: ``managedObjectContext`` `=== context`, by a
    /// comparison of tokens (no load of the context, no retain or release).
    @inline(__always)
    func isIn(_ context: ManagedObjectContext) -> Bool { contextToken === context.token }

    /// Adds `object` to the to-many relationship `key`, updating the inverse.
    ///
    /// - Precondition: `key` names a to-many relationship whose destination fits `object`.
    /// - Note: Mirrors the generated `addToX(_:)` accessors (`mutableSetValue(forKey:)`).
    public func add(_ object: ManagedObject, toRelationship key: String) {
        let r = toManyRelationship(key, "add(_:toRelationship:)")
        checkDestination(r, object)
        insertRelated(r, object)
    }

    /// Removes `object` from the to-many relationship `key`, updating the inverse.
    ///
    /// - Note: Mirrors the generated `removeFromX(_:)` accessors.
    public func remove(_ object: ManagedObject, fromRelationship key: String) {
        let r = toManyRelationship(key, "remove(_:fromRelationship:)")
        removeRelated(r, object)
    }

    func toManyRelationship(_ key: String, _ call: String) -> RelationshipDescription {
        guard let r = entity.relationshipsByName[key], r.isToMany else {
            preconditionFailure(
                "ObjectGraph: \(call): \(entity.name).\(key) is not a to-many relationship")
        }
        return r
    }

    func checkDestination(_ r: RelationshipDescription, _ object: ManagedObject) {
        guard let destination = r.destinationEntity, object.entity.isKind(of: destination) else {
            preconditionFailure(
                """
                ObjectGraph: \(entity.name).\(r.name) expects \(r.destinationEntityName) objects; \
                got a \(object.entity.name)
                """)
        }
        // The contexts are loaded only when the tokens differ (see `contextToken`): a new
        // object and its destination in one context never load them.
        if contextToken !== object.contextToken, let mine = managedObjectContext,
            let theirs = object.managedObjectContext, mine !== theirs
        {
            preconditionFailure(
                """
                ObjectGraph: \(entity.name).\(r.name): cannot relate objects from different contexts \
                (\(mine) and \(theirs)); bring the object over with existingObject(with:)
                """)
        }
    }

    /// The current members of a to-many (loading it if needed).
    func related(_ r: RelationshipDescription) -> [ManagedObject] {
        if case .toMany(let m) = read(r) {
            return m?.objects ?? []
        }
        return []
    }

    /// The current destination of a to-one.
    func toOne(_ r: RelationshipDescription) -> ManagedObject? {
        if case .toOne(let o) = read(r) { return o }
        return nil
    }

    /// Sets a to-one relationship and keeps the inverse in step.
    ///
    /// The new value is used through optional chaining (`newValue?.…`), not bound by
    /// `if let`: the binding copied it around `checkDestination` and around `link` (a retain
    /// and release each, every set of a to-one); the old value is bound where it is tested,
    /// so a `nil` one is not released.
    func setToOne(_ r: RelationshipDescription, _ newValue: ManagedObject?) {
        newValue?.checkIsDestination(of: r, in: self)
        if let old = toOne(r) {
            if old === newValue { return }
            let inverse = r.inverseRelationship
            if let inverse { old.unlink(inverse, self) }
            replaceToOne(r, with: newValue, inverse: inverse)
        } else if newValue != nil {
            replaceToOne(r, with: newValue, inverse: r.inverseRelationship)
        }
    }

    /// The rest of ``setToOne(_:_:)`` once the old destination is unlinked: the new one's
    /// previous source unlinked (a one-to-one), the slot written and the inverse linked.
    ///
    /// `inverse` is the caller's strong reference, loaded from `r`'s unowned one; it is
    /// consumed by the binding that passes it to `link`: an `if let` of the borrowed value
    /// copied it around the call (a retain and a release, every set of a to-one).
    @inline(__always)
    private func replaceToOne(
        _ r: RelationshipDescription, with newValue: ManagedObject?,
        inverse: consuming RelationshipDescription?
    ) {
        if let newValue, let inverse, !inverse.isToMany, let previous = newValue.toOne(inverse),
            previous !== self
        {
            previous.unlink(r, newValue)
        }
        // `toOne(r)` above loaded the slot and the unlinks touched only other objects: write it
        // directly (`link` would read it again), as `link` does, its committed value kept first
        // (without it, a saved object's committed to-one was lost: `committedValues`,
        // `rollback()` and merges read the new destination as the committed one).
        keepCommittedValue(r.index)
        slots[r.index] = .toOne(newValue)
        markChanged(r.index)
        if let inverse = consume inverse { newValue?.link(inverse, self) }
    }

    /// `owner.checkDestination(r, self)`: the check of a new to-one destination, called by
    /// optional chaining on it.
    @inline(__always)
    private func checkIsDestination(of r: RelationshipDescription, in owner: ManagedObject) {
        owner.checkDestination(r, self)
    }

    /// Replaces a to-many relationship's members.
    func setRelated(_ r: RelationshipDescription, _ objects: [ManagedObject]) {
        for o in objects { checkDestination(r, o) }
        let current = related(r)
        let keep = Set(objects.map(ObjectIdentifier.init))
        for o in current where !keep.contains(ObjectIdentifier(o)) { removeRelated(r, o) }
        for o in objects { insertRelated(r, o) }
        if r.isOrdered, case .toMany(var m?) = slots[r.index],
            m.objects.map(ObjectIdentifier.init) != objects.map(ObjectIdentifier.init)
        {
            m = RelatedObjects(objects)
            keepCommittedValue(r.index)
            slots[r.index] = .toMany(m)
            markChanged(r.index)
        }
    }

    func insertRelated(_ r: RelationshipDescription, _ object: ManagedObject) {
        if let inverse = r.inverseRelationship, !inverse.isToMany {
            object.setToOne(inverse, self)
            return
        }
        guard !related(r).contains(where: { $0 === object }) else { return }
        link(r, object)
        if let inverse = r.inverseRelationship { object.link(inverse, self) }
    }

    func removeRelated(_ r: RelationshipDescription, _ object: ManagedObject) {
        if let inverse = r.inverseRelationship, !inverse.isToMany {
            if object.toOne(inverse) === self { object.setToOne(inverse, nil) }
            return
        }
        unlink(r, object)
        if let inverse = r.inverseRelationship { object.unlink(inverse, self) }
    }

    /// Adds `object` to one side only (no inverse).
    func link(_ r: RelationshipDescription, _ object: ManagedObject?) {
        prepare(r)
        if r.isToMany {
            // `object` is tested, not bound: a `guard let object` copied it for the closure
            // (a retain and a release, every link of a new member), and the members' insert
            // makes the one copy they keep from the borrowed parameter.
            guard object != nil, holdsLoadedToMany(r.index) else { return }
            keepCommittedValue(r.index)
            if changeMembers(r.index, { $0.insert(object.unsafelyUnwrapped) }) {
                markChanged(r.index)
            }
        } else {
            if case .toOne(let o) = slots[r.index], o === object { return }
            keepCommittedValue(r.index)
            slots[r.index] = .toOne(object)
            markChanged(r.index)
        }
    }

    /// Removes `object` from one side only (no inverse).
    func unlink(_ r: RelationshipDescription, _ object: ManagedObject) {
        prepare(r)
        if r.isToMany {
            guard holdsLoadedToMany(r.index) else { return }
            keepCommittedValue(r.index)
            if changeMembers(r.index, { $0.remove(object) }) { markChanged(r.index) }
        } else if case .toOne(let o) = slots[r.index], o === object {
            keepCommittedValue(r.index)
            slots[r.index] = .toOne(nil)
            markChanged(r.index)
        }
    }

    /// Removes `objects` from the to-many `r` on this side only (no inverse): as `unlink` of
    /// each in turn, with the relationship taken out of its slot once.
    func unlink(_ r: RelationshipDescription, _ objects: [ManagedObject]) {
        prepare(r)
        guard holdsLoadedToMany(r.index) else { return }
        // The committed members first, as the single unlink keeps them: a merge by property
        // tells from them whether the store changed the relationship.
        keepCommittedValue(r.index)
        let changed = changeMembers(r.index) { m in
            var changed = false
            for object in objects where m.remove(object) { changed = true }
            return changed
        }
        if changed { markChanged(r.index) }
    }

    /// Whether slot `index` holds a loaded to-many, tested in place: a pattern match on
    /// `slots[index]` copied the members out to test them (a retain and release of each of
    /// their arrays). Call after ``prepare(_:)``, which makes the slots current.
    @inline(__always)
    private func holdsLoadedToMany(_ index: Int) -> Bool {
        slots.withUnsafeBufferPointer { buffer in
            precondition(index < buffer.count, "ObjectGraph: slot \(index) out of range")
            if case .toMany(.some) = buffer[index] { return true }
            return false
        }
    }

    /// Applies `change` to the members of the loaded to-many in slot `index` in place, and
    /// returns what it returns. The slot must hold a loaded to-many (`.toMany(_?)`): the
    /// callers check it first.
    ///
    /// The slot's value is moved out of the slots' buffer and moved back, so the members'
    /// two arrays stay uniquely referenced and are changed where they are: taking them out
    /// with `case .toMany(var m?) = slots[i]`, clearing the slot and writing them back cost
    /// a copy of the members (two retains), two releases and two destructions of the slot's
    /// old value (≈ 390 instructions against ≈ 170, in a small program of the same shape).
    /// The value is matched by a `guard case` on the moved value itself: a `switch` with a
    /// second arm that keeps the value copied the members instead of moving them, and every
    /// insert then copied the whole to-many. `change` must not touch this object's slots.
    @inline(__always)
    private func changeMembers(_ index: Int, _ change: (inout RelatedObjects) -> Bool) -> Bool {
        slots.withUnsafeMutableBufferPointer { buffer in
            let slot = buffer.baseAddress.unsafelyUnwrapped + index
            guard case .toMany(var members?) = slot.move() else {
                preconditionFailure("ObjectGraph: slot \(index) holds no loaded to-many")
            }
            let changed = change(&members)
            slot.initialize(to: .toMany(members))
            return changed
        }
    }

    /// Takes `deleted` (objects of this context whose delete rules are running) out of the
    /// to-many `r` on this side only, as ``unlink(_:_:)-([ManagedObject])`` does, without
    /// loading `r` when it is a relationship fault that the store derives from its members'
    /// to-one (``RelationshipDescription/isStoredInRow`` false): the slot stays a fault,
    /// marked changed, and ``loadToMany(_:)`` leaves the deleted members out when it is next
    /// read. Deleting half of a category's 1,000 expenses loaded all 1,000 into the context
    /// (registry look-ups, a member table) only to take 500 out again.
    ///
    /// Under an undo manager the to-many is loaded as before: undo restores states slot by
    /// slot and compares them with the committed ones, which a fault cannot tell apart.
    ///
    /// When none of `deleted` is a member one level up any more (their rows there point
    /// elsewhere, or are gone: another context's save this one has not merged), nothing
    /// changes: the to-many it would load does not list them.
    func unlinkDeleted(_ r: RelationshipDescription, _ deleted: [ManagedObject]) {
        if !hasValues { fireFault() }
        if case .toMany(nil) = slots[r.index], !r.isStoredInRow, !r.isTransient,
            managedObjectContext?.undoManager == nil,
            // Never saved: not among the members the store reports, so nothing to leave out.
            !deleted.contains(where: { $0.state.isInserted })
        {
            if ConcurrencyCheck.isEnabled {
                managedObjectContext?.checkQueue("\(entity.name).\(r.name)")
            }
            // Only members the parent or store still lists change it: a stale context may
            // hold a to-one that another context's save has since moved elsewhere, and the
            // to-many it names lost nothing.
            if let context = managedObjectContext, let toOne = r.inverseRelationship,
                !context.anyListedUpstream(deleted, via: toOne, pointingAt: self)
            {
                return
            }
            keepCommittedValue(r.index)
            markChanged(r.index)
            return
        }
        unlink(r, deleted)
    }

    /// Loads a to-many relationship fault from the context's parent.
    ///
    /// A fault marked changed is one that deleted members left (``unlinkDeleted(_:_:)``):
    /// members deleted in this context whose delete rules already ran are left out, while
    /// the parent or store still lists them until the deletion is saved. (Any other change
    /// loads the to-many first, so a loaded to-many never needs this.)
    func loadToMany(_ index: Int) {
        guard let r = entity.properties[index] as? RelationshipDescription else { return }
        var members = managedObjectContext?.loadRelated(r, of: self) ?? []
        if changedSlots.contains(index), !r.isStoredInRow {
            members.removeAll { member in
                member.state.isDeleted && member.state.deletionProcessed
                    && member.state.isPending
            }
        }
        // The snapshot keeps the relationship fault (`.toMany(nil)`), as a whole copy did.
        keepCommittedValue(index)
        slots[index] = .toMany(RelatedObjects(members))
    }
}
