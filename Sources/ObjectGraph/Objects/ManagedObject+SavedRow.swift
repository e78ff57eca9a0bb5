import Foundation

// An insert being saved to a store takes the row its save writes as its values (shared with
// the change set, then the store's rows), in place of its slots, so that each value is held
// once from there on; its slot values are moved into that row, not copied and released.

extension ManagedObject {
    /// Builds the row an insert's save writes from its slots, moving each value out of its
    /// slot (attributes into the row, destinations beside it), and makes the object keep that
    /// row as its values; returns the row, or `nil`, with nothing changed, when the row could
    /// not give the slots back (the caller then builds the row from a copy of the slots).
    ///
    /// The row holds what ``ManagedObjectContext/storeValues(_:_:_:)`` makes of the slots:
    /// attribute values as they are (the same payloads: a string's storage is not copied),
    /// each to-one's destination and a stored to-many's live members named by `id`,
    /// `.notStored` for an unloaded derived to-many (kept defensively: no insert has one, its
    /// derived to-manys start loaded and a loaded one keeps the slots). The destinations the
    /// slots held stay held beside the row, as an object that left its context keeps them (its
    /// one to-one's destination in `faultSource`, else its relationship values in slot order;
    /// `state.keepsResolvedRelationships`), so a destination that nothing else references
    /// stays registered and reads as the same object, and converting the row back into slots
    /// (``materialiseRow()``, on the first write or relationship read, or after a failed
    /// commit) gives exactly the slots taken here. No value is retained or released on the
    /// way: the slots are reversed in place (the buffer's `swapAt` moves bits) and taken from
    /// the end (`removeLast()` moves the value out), and the slots array, empty then, is freed
    /// by ``keepRow(_:)`` without a pass over its elements. Slots shared with another holder
    /// (an undo state, a copy) are copied first by the array's copy-on-write, so the holder
    /// keeps its values.
    ///
    /// Returns `nil` when the object keeps a row already, its slots do not match its entity's
    /// layout, or its entity has no properties, and when the row cannot give its slots back:
    /// a transient property (its value is not in the row), a loaded to-many the row does not
    /// keep (a derived one: its members would have to be fetched again), a stored to-many
    /// holding a deleted member (the row leaves it out).
    ///
    /// - Precondition: the object is an insert of a root save, `plan`, that merges no objects
    ///   and plans no values for any (so that its slots are what the save writes and every
    ///   reference in the row names the object the slot holds); asserted in debug builds
    ///   (`plan` is read only there). If the commit fails, ``materialiseRow()`` gives the
    ///   slots back. For an entity whose properties are all stored attributes and to-ones
    ///   (``EntityLayout/attributeAndToOneSlotCount``), each slot holds its kind's value, as
    ///   every write keeps it (checked in debug builds): the slots are then not read to
    ///   decide. Cost: the row's allocation, a pass over the slots to decide (none for such
    ///   an entity), one to reverse them in place and one to move them out (the relationship
    ///   values' array when more than one is kept), no reference counting of the values (W1:
    ///   ≈ 650 instructions an expense fewer than copying and releasing them).
    func moveSlotsIntoSavedRow(
        of plan: SavePlan, _ id: (ManagedObject) -> ManagedObjectID
    ) -> [StoreValue]? {
        assert(
            state.isInserted && plan.survivorOf.isEmpty && !plan.plansValues
                && managedObjectContext?.parent == nil,
            "a saved insert's slots move into its row only in a root save that merges nothing")
        // An entity of stored attributes and to-ones only: the row stands for any slots of
        // the layout's count, which are not read beforehand (`savedRowShape` read each slot's
        // kind and value: ≈ 220 instructions an expense).
        let plainCount = entity.layout.attributeAndToOneSlotCount
        if plainCount > 0 {
            guard rowValues == nil, slots.count == plainCount else { return nil }
            assert(savedRowShape() != nil, "a slot holds another kind's value")
            // Room for every to-one's destination when more than one can be kept.
            let toOnes = entity.layout.toOneSlotCount
            return moveCheckedSlotsIntoSavedRow(reserving: toOnes > 1 ? toOnes : 0, id)
        }
        guard let count = savedRowShape() else { return nil }
        return moveCheckedSlotsIntoSavedRow(reserving: count > 1 ? count : 0, id)
    }

    /// The move of ``moveSlotsIntoSavedRow(of:_:)``, once it has decided that the row can
    /// stand for the slots; `reserving`: room for that many relationship values kept beside
    /// the row (0 when at most one is expected).
    ///
    /// The destinations are counted as they are moved: a to-one's destination is kept alone
    /// while it is the only relationship value (in `faultSource`), and a second value, or a
    /// stored to-many, starts the list of every one in slot order
    /// (``keepResolvedRelationships(_:)``).
    ///
    /// - Precondition: the object keeps no row, its slots match its entity's layout and hold
    ///   no transient, no loaded derived to-many and no deleted member of a stored to-many
    ///   (``savedRowShape()`` is not `nil`).
    private func moveCheckedSlotsIntoSavedRow(
        reserving: Int, _ id: (ManagedObject) -> ManagedObjectID
    ) -> [StoreValue] {
        // The slots' count (equal to the layout's, checked), not the layout's array: holding
        // that cost a retain and a release.
        let slotCount = slots.count
        var row: [StoreValue] = []
        row.reserveCapacity(slotCount)
        var destination: ManagedObject?
        var related: [ObjectValue] = []
        if reserving > 0 { related.reserveCapacity(reserving) }
        // Reversed (values moved, not copied), then taken from the end one by one: each value
        // leaves the array without a retain, and the array, empty at the end, is freed
        // without a pass over its elements.
        slots.withUnsafeMutableBufferPointer { $0.reverse() }
        for _ in 0..<slotCount {
            switch slots.removeLast() {
            case .attribute(let v): row.append(.attribute(v))
            case .toOne(let o?):
                row.append(.toOne(id(o)))
                if related.isEmpty, destination == nil {
                    destination = o
                } else {
                    if let first = destination.take() { related.append(.toOne(first)) }
                    related.append(.toOne(o))
                }
            case .toOne(nil): row.append(.toOne(nil))
            case .toMany(let members?):
                row.append(.toMany(ManagedObjectContext.storedMembers(members, id)))
                if let first = destination.take() { related.append(.toOne(first)) }
                related.append(.toMany(members))
            // Defensive: unreached while inserts' derived to-manys start loaded (an empty
            // `RelatedObjects`, which `savedRowShape` refuses); an unloaded one is what the
            // row keeps for it (`.notStored`, read back as `.toMany(nil)`).
            case .toMany(nil): row.append(.notStored)
            }
        }
        // The row moved into the object, and the object's copy returned: keeping it with
        // `keepRow(row)` and returning `row` copied it for the call and released the copy
        // after (a retain and a release an insert).
        keepRow(consume row)
        if let destination = consume destination {
            keepResolvedDestination(destination)
        } else if !related.isEmpty {
            keepResolvedRelationships(related)
        }
        return rowValues.unsafelyUnwrapped
    }

    /// Whether the object's slots can be kept as a saved row (see
    /// ``moveSlotsIntoSavedRow(of:_:)``), and if so how many relationship values the row stands
    /// for, a to-one's destination counted as 1 and a stored to-many as 2 (the room the move
    /// reserves for the values kept beside the row when above 1); `nil` when they cannot.
    /// Reads the slots in place.
    private func savedRowShape() -> Int? {
        let kinds = entity.layout.kinds
        guard !kinds.isEmpty, rowValues == nil else { return nil }
        var count = 0
        guard slots.count == kinds.count else { return nil }
        // The kind, then the value, read in place (a `(kind, value)` tuple, or a binding of a
        // to-one's destination, would copy each value; a closure over the slots' buffer was
        // not inlined and retained the array).
        for i in kinds.indices {
            switch kinds[i] {
            case .attribute:
                guard case .attribute = slots[i] else { return nil }
            case .toOne:
                switch slots[i] {
                case .toOne(.some): count += 1
                case .toOne(nil): continue
                case .attribute, .toMany: return nil
                }
            case .toManyStored:
                guard case .toMany(let members?) = slots[i], members.liveCount == members.count
                else { return nil }
                count += 2
            case .toManyDerived:
                guard case .toMany(nil) = slots[i] else { return nil }
            case .transientAttribute, .transientToOne, .transientToMany: return nil
            }
        }
        return count
    }
}
