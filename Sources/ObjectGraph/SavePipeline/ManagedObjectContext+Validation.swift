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
            for object in changes.inserted {
                do { try object.validateForInsert() } catch { errors.append(error) }
                if self.pending.removals != removals {
                    kept = false
                    return
                }
            }
            for object in changes.updated {
                do { try object.validateForUpdate() } catch { errors.append(error) }
                if self.pending.removals != removals {
                    kept = false
                    return
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
