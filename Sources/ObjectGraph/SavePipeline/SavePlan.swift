import Foundation

/// Everything a root save will write and change, decided under the coordinator's lock before
/// anything is touched.
///
/// Conflict resolution and constraint merges record their decisions here instead of
/// changing objects; the rows come from the plan, and only after the store has committed
/// them does ``ManagedObjectContext/apply(_:newIDs:)`` bring the objects in line. A save
/// that fails at any step therefore leaves every object exactly as it was.
struct SavePlan {
    /// Objects written as new rows, in first-change order.
    var inserted: [ManagedObject]
    /// Objects written over existing rows (including inserts that took over a stored row).
    var updated: [ManagedObject]
    /// Objects whose rows are deleted.
    var deleted: [ManagedObject]
    /// The row version a write expects to find, when not the object's `snapshotVersion`.
    var expectedVersion: [ObjectIdentifier: Int64] = [:]
    /// Values that replace an object's current slots: for its row, then in memory.
    private(set) var slots: [ObjectIdentifier: (object: ManagedObject, values: [ObjectValue])] = [:]
    /// Objects whose changes the rollback policy discarded, with the store's values.
    var rolledBack: [(object: ManagedObject, values: [ObjectValue])] = []
    /// Objects whose rows were deleted by another save: they leave the context.
    var vanished: [ManagedObject] = []
    /// Inserted objects that take over an existing row (constraint upsert): its ID.
    var takeovers: [ObjectIdentifier: ManagedObjectID] = [:]
    /// Objects merged into another by a constraint merge, and that survivor.
    var survivorOf: [ObjectIdentifier: ManagedObject] = [:]
    /// The merged objects, in the order they were merged.
    var losers: [ManagedObject] = []
    /// The objects that received merged values from a constraint merge.
    var survivors = Set<ObjectIdentifier>()

    init(_ changes: SaveChanges) {
        inserted = changes.inserted
        updated = changes.updated
        deleted = changes.deleted
    }

    /// The values an object will have: planned ones, or its current slots.
    func values(of object: ManagedObject) -> [ObjectValue] {
        // Most saves plan no values: skip hashing every object then.
        if slots.isEmpty { return object.slots }
        return slots[ObjectIdentifier(object)]?.values ?? object.slots
    }

    /// Plans new values for `object`.
    mutating func setValues(_ values: [ObjectValue], of object: ManagedObject) {
        slots[ObjectIdentifier(object)] = (object, values)
    }

    /// Whether the plan gives any object other values than its slots.
    var plansValues: Bool { !slots.isEmpty }

    /// Whether the plan gives `object` new values.
    func hasValues(for object: ManagedObject) -> Bool {
        !slots.isEmpty && slots[ObjectIdentifier(object)] != nil
    }

    /// The object standing for `object` after merges (itself when not merged).
    func survivor(_ object: ManagedObject) -> ManagedObject {
        Self.survivor(object, survivorOf)
    }

    /// The object standing for `object` after the merges `survivorOf` records.
    static func survivor(
        _ object: ManagedObject, _ survivorOf: [ObjectIdentifier: ManagedObject]
    ) -> ManagedObject {
        if survivorOf.isEmpty { return object }
        var current = object
        while let next = survivorOf[ObjectIdentifier(current)] { current = next }
        return current
    }

    /// The version the store must hold for `object`'s row.
    func expected(_ object: ManagedObject) -> Int64 {
        if expectedVersion.isEmpty { return object.snapshotVersion }
        return expectedVersion[ObjectIdentifier(object)] ?? object.snapshotVersion
    }

    /// The ID `object`'s row is written under, before permanent IDs are known.
    func plannedID(_ object: ManagedObject) -> ManagedObjectID {
        let s = survivor(object)
        if takeovers.isEmpty { return s.objectID }
        return takeovers[ObjectIdentifier(s)] ?? s.objectID
    }

    /// Drops `objects` from the writes, in one pass.
    mutating func remove(_ objects: Set<ObjectIdentifier>) {
        guard !objects.isEmpty else { return }
        inserted.removeAll { objects.contains(ObjectIdentifier($0)) }
        updated.removeAll { objects.contains(ObjectIdentifier($0)) }
        deleted.removeAll { objects.contains(ObjectIdentifier($0)) }
    }

    /// The objects whose rows this save writes, in first-change order.
    var written: [ManagedObject] { inserted + updated }
}
