/// The permanent IDs a context's saves gave objects that had temporary ones, by the
/// temporary ID: a child context that pushed inserts still names them by their temporary IDs
/// when it reads from this context, as in Core Data.
///
/// An insert save records its whole batch at once, as the two arrays of old and new IDs in
/// the save's order (the new IDs are the array the save allocated, shared, not copied); the
/// dictionary that answers look-ups is built from the recorded batches on the first look-up
/// after them. Most contexts that save many inserts are never asked (a batch import, then
/// `reset()`): inserting every ID into the dictionary at the save cost ≈ 250 instructions an
/// object there, for nothing.
///
/// Confined to its context's queue, as the context's other state.
struct PermanentIDMap {
    /// Answers look-ups: everything recorded before the last look-up.
    private var map: [ManagedObjectID: ManagedObjectID] = [:]
    /// Batches recorded since the last look-up, in order (a later entry for the same ID wins,
    /// as a later assignment to the dictionary did).
    private var batches: [(from: [ManagedObjectID], to: [ManagedObjectID])] = []

    /// The permanent ID recorded for `id`, or `nil`. Folds the recorded batches into the
    /// dictionary first.
    subscript(id: ManagedObjectID) -> ManagedObjectID? {
        mutating get {
            if !batches.isEmpty { fold() }
            return map.isEmpty ? nil : map[id]
        }
        set {
            if !batches.isEmpty { fold() }
            map[id] = newValue
        }
    }

    /// Records that each object named by `from` is now named by `to` at the same position.
    ///
    /// - Precondition: `from` and `to` have the same count.
    mutating func record(from: [ManagedObjectID], to: [ManagedObjectID]) {
        precondition(from.count == to.count, "PermanentIDMap: \(from.count) IDs for \(to.count)")
        if from.isEmpty { return }
        batches.append((from, to))
    }

    /// Forgets every recorded ID (`reset()`).
    mutating func removeAll() {
        map = [:]
        batches = []
    }

    /// The number of IDs recorded (tests).
    var count: Int {
        mutating get {
            if !batches.isEmpty { fold() }
            return map.count
        }
    }

    /// Moves the recorded batches into the dictionary, in the order they were recorded.
    private mutating func fold() {
        let pending = batches
        batches = []
        map.reserveCapacity(map.count + pending.reduce(0) { $0 + $1.from.count })
        for (from, to) in pending {
            for (old, new) in zip(from, to) { map[old] = new }
        }
    }
}
