import Foundation

/// The objects a context has registered, by ID, kept only while something else references
/// them, as Core Data keeps them.
///
/// An object stays registered while it is referenced outside the registry: by the
/// application, by a relationship of another live object, by the context's pending changes
/// (inserted, updated and deleted objects are held until saved or rolled back), or by the
/// objects kept until the end of the current event. Sweeps drop the objects only the registry
/// still holds; a later fetch makes a new instance. With ``retainsAll`` nothing is dropped.
///
/// Swift's weak references would cost every managed object a side table and slow down every
/// retain and release of it for its whole life, so the table holds strong references and a
/// sweep asks each object whether the table's reference is its last
/// (`isKnownUniquelyReferenced`). Sweeps run at the end of events (see ``endOfEvent()``) and
/// when the table has doubled since the last one, so their cost stays proportional to the
/// context's work.
///
/// - Note: Plays the part of Core Data's registered-object table with
///   `retainsRegisteredObjects == false` (the default) or `true`.
final class ObjectRegistry {
    // Confined to its context's queue, as the context's other state.
    @exclusivity(unchecked) private var entries: [ManagedObjectID: ManagedObject] = [:]
    /// The entry count at which registering sweeps first.
    @exclusivity(unchecked) private var sweepAt = 1024
    /// Objects registered, handed out or let go by the context since the last sweep.
    @exclusivity(unchecked) private var work = 0

    /// Whether every registered object is kept until unregistered (`retainsRegisteredObjects`).
    @exclusivity(unchecked) var retainsAll = false

    /// The object registered under `id`.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        @inline(__always) get { entries[id] }
    }

    /// Registers `object` under `id`, replacing what was registered there.
    @inline(__always)
    func register(_ object: ManagedObject, as id: ManagedObjectID) {
        if entries.count >= sweepAt { sweep() }
        entries[id] = object
        work &+= 1
    }

    /// Unregisters the object under `id`; returns it.
    @discardableResult
    func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        entries.removeValue(forKey: id)
    }

    /// Moves objects whose IDs changed (a save's inserted objects, from their temporary IDs to
    /// their permanent ones) to their current IDs: for each, the entry under `from` is removed
    /// if it is that object, and the object is registered under its `objectID`, replacing
    /// what was registered there; as `removeValue(forKey:)` then `register(_:as:)` for each
    /// in turn.
    ///
    /// When the moves are a large part of the table (a save of many inserts), the table is
    /// rebuilt once instead: removing a key from a Swift dictionary shifts and re-hashes the
    /// entries after it, which made re-keying a fifth of an insert save.
    func move(_ moves: [(object: ManagedObject, from: ManagedObjectID)]) {
        guard moves.count >= 64, moves.count * 4 >= entries.count else {
            for (object, from) in moves {
                if let previous = entries.removeValue(forKey: from), previous !== object {
                    entries[from] = previous
                }
                register(object, as: object.objectID)
            }
            return
        }
        for (object, _) in moves { object.state.isMoving = true }
        var rebuilt = [ManagedObjectID: ManagedObject](minimumCapacity: entries.count + moves.count)
        for (id, object) in entries {
            // A moving object's entry is the one under an ID it no longer has (its old one).
            if object.state.isMoving, id != object.objectID { continue }
            rebuilt[id] = object
        }
        for (object, _) in moves {
            object.state.isMoving = false
            rebuilt[object.objectID] = object
        }
        entries = rebuilt
        work &+= moves.count
        if entries.count >= sweepAt { sweep() }
    }

    /// Every registered object, in no particular order.
    var values: [ManagedObject] { Array(entries.values) }

    /// The number of registered objects, counting those the next sweep may drop.
    var count: Int { entries.count }

    /// Makes room for `capacity` entries at once (a large fetch), sweeping first so that no
    /// sweep runs while the table fills.
    func reserveCapacity(_ capacity: Int) {
        if capacity > sweepAt { sweep() }
        sweepAt = max(sweepAt, capacity)
        entries.reserveCapacity(capacity)
    }

    func removeAll() {
        entries.removeAll()
        sweepAt = 1024
        work = 0
    }

    /// Counts work that may leave objects held by the registry alone (objects handed out,
    /// pending changes saved or discarded), so the next end of event sweeps.
    func noteWork(_ amount: Int) { work += amount }

    /// At the end of an event: sweeps when the context did work since the last sweep, at
    /// once for a small table, else once that work reaches a quarter of the table's size.
    func endOfEvent() {
        guard work > 0, !retainsAll else { return }
        if entries.count <= 4096 || work * 4 >= entries.count { sweep() }
    }

    /// Drops the objects that only the registry references. Dropping one may leave others
    /// (its related objects) referenced by the registry alone: up to three rounds take them,
    /// later sweeps take what remains of longer chains.
    func sweep() {
        work = 0
        defer { sweepAt = max(1024, entries.count * 2) }
        guard !retainsAll else { return }
        for _ in 0..<3 {
            var unreferenced: [ManagedObjectID] = []
            var index = entries.startIndex
            while index != entries.endIndex {
                if isKnownUniquelyReferenced(&entries.values[index]) {
                    unreferenced.append(entries.keys[index])
                }
                entries.formIndex(after: &index)
            }
            if unreferenced.isEmpty { return }
            for id in unreferenced { entries[id] = nil }
        }
    }
}
