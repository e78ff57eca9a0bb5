import Foundation

extension ManagedObjectContext {
    /// Validates every object a save writes and throws the collected failures: the single
    /// failure itself, or one 1560 listing them all.
    ///
    /// The save's validation plans (one per entity and class, see `ValidationPlan`) are made
    /// as the objects come and dropped when it returns.
    /// - Returns: `false` when a validation method's own code let go of pending changes
    ///   (`reset()`, `rollback()`, a nested `save()`: anything that takes an object off
    ///   the pending list): `changes` is no longer what the context
    ///   would save, so the objects after it are not validated and the failures collected
    ///   are dropped; the caller saves what is pending after it instead.
    func validate(_ changes: SaveChanges) throws -> Bool {
        let removals = pending.removals
        var errors: [any Error] = []
        var kept = true
        ValidationPlans().during {
            kept =
                validateEach(changes.inserted, removals, &errors) { try $0.validateForInsert() }
                && validateEach(changes.updated, removals, &errors) { try $0.validateForUpdate() }
        }
        guard kept else { return false }
        for object in changes.deleted {
            do { try object.validateForDelete() } catch { errors.append(error) }
            if self.pending.removals != removals { return false }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
        return true
    }

    /// Calls `check` on each of `objects` (a save's list), collecting what it throws in
    /// `errors`; returns `false`, and stops, once the context's pending changes were let go
    /// of (its `removals` are no longer `removals`).
    ///
    /// The objects are read through the list's buffer and called unretained, as
    /// `runWillSave()` calls `willSave()`: the save's `changes` holds its lists, and they their
    /// objects, until ``validate(_:)`` returns, whatever a hook lets go of (a `reset()` empties
    /// the pending list, with which a list may share its buffer: the buffer is then no longer
    /// unique and is left as it is). A `for`-`in` retained and released each object around
    /// its dynamically dispatched call.
    @inline(__always)
    private func validateEach(
        _ objects: [ManagedObject], _ removals: Int, _ errors: inout [any Error],
        _ check: (ManagedObject) throws -> Void
    ) -> Bool {
        objects.withUnsafeBufferPointer { objects in
            for i in objects.indices {
                do {
                    try Unmanaged.passUnretained(objects[i])._withUnsafeGuaranteedRef {
                        try check($0)
                    }
                } catch { errors.append(error) }
                if pending.removals != removals { return false }
            }
            return true
        }
    }
}
