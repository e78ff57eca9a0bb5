import Foundation

// What `changedValuesForCurrentEvent()` compares with: each changed object's values as the
// last objects-did-change notification left them.
//
// Recorded after each notification posted outside a save, for the objects it announced that
// still have changes; forgotten by a save (its objects' committed values are their values
// then), `rollback()` and `reset()`. The notifications a save posts record nothing: the save
// commits those values next, and a save of N changed objects does not make N entries it drops
// at once. The entries share the objects' slot arrays until an object is written again (its
// slots are then copied once, as a snapshot's would be), so an object changed in one event
// and not again costs one dictionary entry.

/// An object's values at the end of the last event that announced it.
struct EventBaseline {
    let object: ManagedObject
    let slots: [ObjectValue]
}

extension ManagedObjectContext {
    /// Records the announced objects' values as the baseline of the next event; called after
    /// an objects-did-change notification, so that its observers still compare with the
    /// baseline of the event it announces.
    func recordEventBaselines(_ changes: ChangeAnnouncement) {
        guard announcedDuringSave == nil else { return }
        for objects in [changes.inserted, changes.updated, changes.refreshed, changes.deleted] {
            for object in objects {
                let key = ObjectIdentifier(object)
                if object.managedObjectContext === self, object.hasChanges,
                    !object.state.isDeleted
                {
                    eventBaselines[key] = EventBaseline(object: object, slots: object.slots)
                } else if !eventBaselines.isEmpty {
                    eventBaselines[key] = nil
                }
            }
        }
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
        let baseline = recorded?.object === self ? recorded?.slots : nil
        let defaults =
            state.isInserted && baseline == nil
            ? ManagedObject.initialSlots(for: entity) : nil
        var result: [String: Any] = [:]
        let transient = entity.layout.transientSlots
        for index in changedSlots where !transient.contains(index) {
            let old: ObjectValue
            if let baseline {
                if baseline[index].isSame(as: slots[index]) { continue }
                old = baseline[index]
            } else if let defaults {
                old = defaults[index]
            } else {
                old = committedValue(at: index)
            }
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
