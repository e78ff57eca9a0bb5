import Foundation

// Undo: at the end of each event (`processPendingChanges()`), the objects changed in it are
// compared with their state at the end of the previous event (or, the first time, their last
// saved state), and one action restoring those states is registered with the undo manager.
// Undoing it restores the earlier states and registers the way back (redo). Both sides of a
// relationship change are among the changed objects, so states are restored slot by slot
// without running inverse maintenance again.

extension ManagedObjectContext {
    /// Reverses the last undo group: first processes pending changes (ending the current
    /// event's group), then asks the ``undoManager`` to undo.
    ///
    /// Objects come back to the state they had before that group, marked changed where that
    /// differs from the store (also when the group was saved since: undoing a saved change
    /// makes the object changed again, and a saved insertion is undone as a deletion).
    /// Does nothing without an undo manager.
    ///
    /// - Note: Mirrors `undo()`.
    public func undo() {
        checkQueue("undo()")
        guard let undoManager else { return }
        processPendingChanges()
        undoManager.undo()
        processPendingChanges()
    }

    /// Replays the last undone group, as ``undo()`` reverses one.
    ///
    /// - Note: Mirrors `redo()`.
    public func redo() {
        checkQueue("redo()")
        guard let undoManager else { return }
        processPendingChanges()
        undoManager.redo()
        processPendingChanges()
    }

    /// Empties the undo manager's stacks and starts recording from the current state
    /// (rollback, reset).
    func forgetUndo() {
        undoBaselines.removeAll()
        undoManager?.removeAllActions()
    }

    /// Records the changes of the event now ending as one undo action.
    func recordUndo(in manager: ObjectGraphUndoManager) {
        var seen = Set<ObjectIdentifier>()
        var changes: [UndoChange] = []
        let newcomers = Set(unannounced.inserted.map(ObjectIdentifier.init))
        for object in unannounced.inserted + unannounced.updated + unannounced.deleted
        where object.isIn(self) && seen.insert(ObjectIdentifier(object)).inserted {
            let key = ObjectIdentifier(object)
            let after = UndoState(of: object)
            guard let before = undoBaselines[key] ?? committedState(of: object, newcomers) else {
                continue
            }
            if after.existence == .absent {
                undoBaselines[key] = nil
            } else {
                undoBaselines[key] = after
            }
            if !before.isSame(as: after) { changes.append(UndoChange(object, before, after)) }
        }
        if manager.isUndoRegistrationEnabled && !changes.isEmpty {
            manager.registerUndo(withTarget: self) { $0.applyUndo(changes, restoringBefore: true) }
        }
        manager.endEventGroup()
    }

    /// The state an object had before its first recorded change: absent for an object
    /// inserted in this event, else its last saved values (to-manys read from upstream).
    private func committedState(of object: ManagedObject, _ newcomers: Set<ObjectIdentifier>)
        -> UndoState?
    {
        if object.state.isInserted {
            return newcomers.contains(ObjectIdentifier(object)) ? UndoState(absent: object) : nil
        }
        guard object.snapshot != nil else { return nil }
        var slots = object.slots
        for index in object.changedSlots {
            if let r = object.entity.properties[index] as? RelationshipDescription, r.isToMany,
                !r.isTransient
            {
                slots[index] = .toMany(RelatedObjects(loadRelated(r, of: object)))
            } else {
                slots[index] = object.committedValue(at: index)
            }
        }
        return UndoState(existence: .present, slots: slots)
    }

    /// Puts every object of `changes` back in its before (or after) state, and registers the
    /// way back.
    func applyUndo(_ changes: [UndoChange], restoringBefore: Bool) {
        for change in changes {
            let state = restoringBefore ? change.before : change.after
            restore(change.object, to: state, slots: change.changedSlots)
            // What the object now is (a partial restore keeps unrecorded changes) is where
            // the next event's changes start from.
            let now = UndoState(of: change.object)
            let key = ObjectIdentifier(change.object)
            let gone = !change.object.isIn(self) || now.existence == .absent
            undoBaselines[key] = gone ? nil : now
        }
        undoManager?.registerUndo(withTarget: self) {
            $0.applyUndo(changes, restoringBefore: !restoringBefore)
        }
    }

    /// Puts `object` in `state`: its existence, and the values of `slots` (every slot when
    /// `nil`), so that changes made while registration was off stay.
    private func restore(_ object: ManagedObject, to state: UndoState, slots: [Int]?) {
        var reinserted = false
        switch state.existence {
        case .absent:
            if object.state.isInserted {
                registry.removeValue(forKey: object.objectID)
                pending.remove(object)
                unprocessedDeletes.removeAll { $0 === object }
                object.state.clearLifecycle()
                object.changedSlots = SlotSet()
                forgetEventState(of: object)  // never announced again: let it go
                object.managedObjectContext = nil
            } else if object.isIn(self) {
                markDeletedByUndo(object)
            }
            return
        case .present, .deleted:
            reinserted = !object.isIn(self)
            if reinserted {
                // Removed by an undone insertion, or a deletion saved since: inserted again.
                object.managedObjectContext = self
                object.state.clearLifecycle()
                object.state.isInserted = true
                object.snapshot = nil
                registry.register(object, as: object.objectID)
                pending.add(object)
                announceInserted(object)
            }
        }
        // The slots to compare with their committed values: those changed already and those
        // this restore writes. Any other slot is as a save or fetch left it, or was set by
        // `setPrimitiveValue(_:forKey:)` alone, which is not a change (comparing every slot
        // made such a value a change the next save wrote).
        var touched: SlotSet? = reinserted ? nil : object.changedSlots
        if let slots, object.hasValues {
            for index in slots where !object.slots[index].isSame(as: state.slots[index]) {
                touched?.insert(index)
                object.keepCommittedValue(index)
                object.slots[index] = state.slots[index]
            }
        } else {
            if object.slots.count == state.slots.count {
                for i in state.slots.indices where !object.slots[i].isSame(as: state.slots[i]) {
                    touched?.insert(i)
                }
            } else {
                touched = nil
            }
            object.replaceSlots(with: state.slots)
        }
        // An overlay of written attributes not converted above stays: it is the values.
        if !object.hasRowOverlay { object.faultSource = nil }
        object.changedSlots = changedSlots(of: object, among: touched)
        if state.existence == .deleted {
            markDeletedByUndo(object)
        } else if object.state.isDeleted {
            object.state.isDeleted = false
            object.state.deletionProcessed = false
            unprocessedDeletes.removeAll { $0 === object }
        }
        if object.hasChanges {
            pending.add(object)
            announceUpdated(object)
        } else {
            pending.remove(object)
            announceRefreshed(object)
        }
    }

    /// Marks `object` deleted with its delete rules already applied (their effects are part of
    /// the same undo group).
    private func markDeletedByUndo(_ object: ManagedObject) {
        guard !object.state.isDeleted else { return }
        object.state.isDeleted = true
        object.state.deletionProcessed = true
        pending.add(object)
        announceDeleted(object)
    }

    /// The slots (of `candidates`, or all when `nil`) that differ from the object's last saved
    /// values (all set ones for an inserted object).
    private func changedSlots(of object: ManagedObject, among candidates: SlotSet?) -> SlotSet {
        let reference =
            object.state.isInserted
            ? ManagedObject.initialSlots(for: object.entity) : object.committedSlots
        guard let reference else { return SlotSet(object.slots.indices) }
        let differs = { (i: Int) in !object.slots[i].isSame(as: reference[i]) }
        if let candidates { return SlotSet(candidates.filter(differs)) }
        return SlotSet(object.slots.indices.filter(differs))
    }
}

/// Whether an object is in its context, and how.
enum UndoExistence {
    /// Not inserted yet (or its insertion undone).
    case absent
    /// Inserted or fetched, not deleted.
    case present
    /// Deleted, not yet saved.
    case deleted
}

/// An object's state at the end of an event: enough to put it back.
struct UndoState {
    var existence: UndoExistence
    var slots: [ObjectValue]

    init(existence: UndoExistence, slots: [ObjectValue]) {
        self.existence = existence
        self.slots = slots
    }

    init(absent object: ManagedObject) {
        self.init(existence: .absent, slots: ManagedObject.initialSlots(for: object.entity))
    }

    init(of object: ManagedObject) {
        let existence: UndoExistence =
            object.state.isDeleted ? (object.state.isInserted ? .absent : .deleted) : .present
        self.init(existence: existence, slots: object.slots)
    }

    func isSame(as other: UndoState) -> Bool {
        guard existence == other.existence else { return false }
        if existence == .absent { return true }
        return slots.count == other.slots.count
            && zip(slots, other.slots).allSatisfy { $0.isSame(as: $1) }
    }
}

/// One object's change in an undo group.
struct UndoChange {
    let object: ManagedObject
    let before: UndoState
    let after: UndoState
    /// The slots that differ between the two states; `nil` when the object's existence
    /// changes (every slot is restored).
    let changedSlots: [Int]?

    init(_ object: ManagedObject, _ before: UndoState, _ after: UndoState) {
        self.object = object
        self.before = before
        self.after = after
        changedSlots =
            before.existence == after.existence
            ? before.slots.indices.filter { !before.slots[$0].isSame(as: after.slots[$0]) } : nil
    }
}

extension ObjectValue {
    /// Equal values: attributes by value, relationships by the identity of their objects.
    func isSame(as other: ObjectValue) -> Bool {
        switch (self, other) {
        case (.attribute(let a), .attribute(let b)): return a == b
        case (.toOne(let a), .toOne(let b)): return a === b
        case (.toMany(nil), .toMany(nil)): return true
        case (.toMany(let a?), .toMany(let b?)):
            return a.count == b.count && zip(a.objects, b.objects).allSatisfy { $0 === $1 }
        default: return false
        }
    }
}
