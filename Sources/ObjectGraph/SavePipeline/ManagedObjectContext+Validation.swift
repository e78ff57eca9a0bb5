import Foundation

extension ManagedObjectContext {
    /// Validates every object a save writes and throws the collected failures: the single
    /// failure itself, or one 1560 listing them all.
    ///
    /// The save's validation plans (one per entity and class, see `ValidationPlan`) are made
    /// as the objects come and dropped when it returns.
    ///
    /// Each object is called unretained, read through its list's buffer: `changes` (the
    /// caller's, borrowed for the whole call) holds every object until this returns, whatever
    /// the validation methods do (a `reset()`, a nested save, dropping the object from the
    /// context). A `for`-`in` retained and released each object around its dynamically
    /// dispatched call (W1: two atomic reference-count operations an insert).
    func validate(_ changes: SaveChanges) throws {
        var errors: [any Error] = []
        ValidationPlans().during {
            Self.validateEach(changes.inserted, into: &errors) { try $0.validateForInsert() }
            Self.validateEach(changes.updated, into: &errors) { try $0.validateForUpdate() }
        }
        for object in changes.deleted {
            do { try object.validateForDelete() } catch { errors.append(error) }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
    }

    /// Calls `validation` on each of `objects` in order, unretained, and appends what it
    /// throws to `errors`. `objects` (borrowed for the call) holds each object throughout.
    @inline(__always)
    private static func validateEach(
        _ objects: [ManagedObject], into errors: inout [any Error],
        _ validation: (ManagedObject) throws -> Void
    ) {
        objects.withUnsafeBufferPointer { objects in
            for i in objects.indices {
                do {
                    // Unretained for the call: `objects` holds the object until it returns.
                    try Unmanaged.passUnretained(objects[i])._withUnsafeGuaranteedRef(validation)
                } catch { errors.append(error) }
            }
        }
    }
}
