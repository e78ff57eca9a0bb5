import Foundation

// What `changedValuesForCurrentEvent()` compares with: each changed object's values as the
// last objects-did-change notification left them.
//
// Captured before each notification posted outside a save (so a write an observer makes is
// a change of the next event, compared with the value from before it), for the objects it
// announced that still have changes, and kept once the observers have run; forgotten by a
// save (its objects' committed values are their values then), `rollback()`, `reset()`, a
// refresh that turns the object into a fault and an undone insert. The notifications a save
// posts record nothing: the save commits those values next, and a save of N changed objects
// does not make N entries it drops at once.
//
// Sparse, as `Snapshot.kept`: only the values of the slots changed at the posting (a slot
// unchanged then held its committed value, or its default on an insert). Sharing the
// object's whole slot array instead made the object's next write copy every slot (the
// per-object copy `Snapshot` removed); the values of one posting are kept in one array that
// the entries slice, so a posting makes one allocation, not one per object.

/// An object's changed values at the end of the last event that announced it.
struct EventBaseline {
    let object: ManagedObject
    /// The value of each slot that was changed at the posting.
    var kept: ArraySlice<Snapshot.Entry>

    /// The value slot `index` had at the posting, if it was changed then.
    func value(at index: Int) -> ObjectValue? {
        for entry in kept where entry.slot == index { return entry.value }
        return nil
    }
}

/// The event baselines of a context, and a count of the times they were all forgotten (a
/// notification's observers may save, roll back or reset: what was captured before is then
/// stale).
struct EventBaselines {
    var entries: [ObjectIdentifier: EventBaseline] = [:]
    private(set) var clearings = 0

    var isEmpty: Bool { entries.isEmpty }

    subscript(key: ObjectIdentifier) -> EventBaseline? {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    mutating func removeAll() {
        if !entries.isEmpty { entries.removeAll() }
        clearings &+= 1
    }
}

extension ManagedObjectContext {
    /// The baselines the objects announced in `changes` will have once the notification has
    /// been posted: their changed slots' values now (`nil`: forget the object's entry).
    func captureEventBaselines(_ changes: ChangeAnnouncement)
        -> [(key: ObjectIdentifier, baseline: EventBaseline?)]
    {
        guard announcedDuringSave == nil else { return [] }
        var captured: [(key: ObjectIdentifier, baseline: EventBaseline?)] = []
        var values: [Snapshot.Entry] = []
        var ranges: [Range<Int>] = []
        for objects in [changes.inserted, changes.updated, changes.refreshed, changes.deleted] {
            for object in objects {
                let key = ObjectIdentifier(object)
                if object.isIn(self), !object.changedSlots.isEmpty,
                    !object.state.isDeleted, object.hasValues
                {
                    let start = values.count
                    // `forEachSlot`, not `for in`: the set's iterator is an `AnyIterator`
                    // (an allocation per object).
                    object.changedSlots.forEachSlot { index in
                        values.append(
                            Snapshot.Entry(slot: index, value: object.currentValue(at: index)))
                    }
                    ranges.append(start..<values.count)
                    captured.append((key, EventBaseline(object: object, kept: [])))
                } else if !eventBaselines.isEmpty {
                    captured.append((key, nil))
                }
            }
        }
        var r = 0
        for i in captured.indices where captured[i].baseline != nil {
            captured[i].baseline!.kept = values[ranges[r]]
            r += 1
        }
        return captured
    }

    /// Keeps baselines captured before a notification, unless its observers made them stale
    /// (a save, rollback or reset: `clearings` moved on).
    func keepEventBaselines(
        _ captured: [(key: ObjectIdentifier, baseline: EventBaseline?)], clearings: Int
    ) {
        guard eventBaselines.clearings == clearings else { return }
        for (key, baseline) in captured { eventBaselines[key] = baseline }
    }

    /// Forgets what the open change notifications and the last posting kept for `object`
    /// (it leaves the context, or turns into a fault).
    func forgetEventState(of object: ManagedObject) {
        let key = ObjectIdentifier(object)
        if !eventBaselines.isEmpty { eventBaselines[key] = nil }
        if !openChanges.isEmpty { openChanges[key] = nil }
    }
}

extension ManagedObject {
    /// The persistent properties changed in the current event (since the last
    /// objects-did-change notification), with their values from before the event.
    ///
    /// Inside an objects-did-change observer (and so in a fetched results controller's
    /// delegate), the current event is the one announced: an object renamed from "Aaron" to
    /// "Abby" gives `["name": "Aaron"]`. Once the event has ended, a property changed in it
    /// and not since is no longer listed (``changedValues()`` still lists it until the
    /// save). The first event after a fetch or save compares with the committed values; an
    /// inserted object's first event compares with its entity's defaults. `nil` values are
    /// `NSNull()`; transient properties are left out, as in ``changedValues()``.
    ///
    /// ```swift
    /// let old = employee.changedValuesForCurrentEvent()["name"] as? String
    /// ```
    ///
    /// After a save that failed, the changes of the event that save ended are reported with
    /// the next event's (that save recorded no baseline).
    ///
    /// - Note: Mirrors `changedValuesForCurrentEvent()`, which Apple documents as returning
    ///   "the old value of the persistent properties" changed "since the last posting of
    ///   NSManagedObjectContextObjectsDidChange".
    public func changedValuesForCurrentEvent() -> [String: Any] {
        managedObjectContext?.checkQueue("changedValuesForCurrentEvent()")
        guard !changedSlots.isEmpty else { return [:] }
        let recorded = managedObjectContext?.eventBaselines[ObjectIdentifier(self)]
        let baseline = recorded?.object === self ? recorded : nil
        let defaults = state.isInserted ? ManagedObject.initialSlots(for: entity) : nil
        var result: [String: Any] = [:]
        let transient = entity.layout.transientSlots
        for index in changedSlots where !transient.contains(index) {
            // A slot the baseline does not list was unchanged at that posting: it held its
            // committed value (its default, on an insert).
            let old = baseline?.value(at: index) ?? defaults?[index] ?? committedValue(at: index)
            if baseline != nil, old.isSame(as: currentValue(at: index)) { continue }
            let property = entity.properties[index]
            if case .toMany(nil) = old, let r = property as? RelationshipDescription {
                // A relationship fault's members are the committed ones, one level up.
                let members = managedObjectContext?.loadRelated(r, of: self) ?? []
                result[property.name] = r.isOrdered ? members : Set(members)
                continue
            }
            result[property.name] = bridged(old, property) ?? NSNull()
        }
        return result
    }
}
