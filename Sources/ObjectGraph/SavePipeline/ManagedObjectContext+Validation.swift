import Foundation

extension ManagedObjectContext {
    /// Validates every object a save writes and throws the collected failures: the single
    /// failure itself, or one 1560 listing them all.
    ///
    /// The save's validation plans (one per entity and class, see `ValidationPlan`) are made
    /// as the objects come and dropped when it returns.
    func validate(_ changes: SaveChanges) throws {
        var errors: [any Error] = []
        ValidationPlans().during {
            for object in changes.inserted {
                do { try object.validateForInsert() } catch { errors.append(error) }
            }
            for object in changes.updated {
                do { try object.validateForUpdate() } catch { errors.append(error) }
            }
        }
        for object in changes.deleted {
            do { try object.validateForDelete() } catch { errors.append(error) }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
    }
}
