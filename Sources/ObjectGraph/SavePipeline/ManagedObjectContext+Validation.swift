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
        // The objects are read through the lists' buffers and called unretained, as
        // `runWillSave()` calls `willSave()`: `changes` holds its lists, and they their
        // objects, until this returns, whatever a hook lets go of (a `reset()` empties the
        // context's pending list, which a list may share: that list's buffer is then no
        // longer unique and is left as it is). A `for`-`in` retained and released each object
        // around its dynamically dispatched call.
        ValidationPlans().during {
            changes.inserted.withUnsafeBufferPointer { inserted in
                for i in inserted.indices {
                    do {
                        try Unmanaged.passUnretained(inserted[i])._withUnsafeGuaranteedRef {
                            try $0.validateForInsert()
                        }
                    } catch { errors.append(error) }
                    if self.pending.removals != removals {
                        kept = false
                        return
                    }
                }
            }
            guard kept else { return }
            changes.updated.withUnsafeBufferPointer { updated in
                for i in updated.indices {
                    do {
                        try Unmanaged.passUnretained(updated[i])._withUnsafeGuaranteedRef {
                            try $0.validateForUpdate()
                        }
                    } catch { errors.append(error) }
                    if self.pending.removals != removals {
                        kept = false
                        return
                    }
                }
            }
        }
        guard kept else { return false }
        for object in changes.deleted {
            do { try object.validateForDelete() } catch { errors.append(error) }
            if self.pending.removals != removals { return false }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
        return true
    }
}
