import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hands the ID of a fault being made to ``ManagedObject/init(entity:insertInto:)`` on the
/// same thread, so that the object starts with its permanent ID.
///
/// A context makes a fault through the entity's class and its required initialiser (a
/// subclass may override it; there is no other way to make an instance of an unknown
/// subclass), which gives every new object a fresh temporary ID: the next process-wide key
/// under a lock, which the fault then replaced. A fetch of 20,000 faults drew 20,000 such IDs
/// for nothing (≈ 145 instructions each). The context now offers the fault's ID in a
/// thread-local slot for the duration of the initialiser; the initialiser takes it when it
/// is for its entity, and the slot is emptied at the first take, so an object the
/// initialiser of a subclass makes on the way cannot take it after the fault has.
enum FaultIdentity {
    /// The thread-local slot: a pointer to the offered ID, or `nil`.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `make` (which makes one object of `id`'s entity) with `id` offered to the
    /// initialiser; the slot is empty again when `make` returns.
    @inline(__always)
    static func offering<T>(_ id: ManagedObjectID, _ make: () -> T) -> T {
        withUnsafePointer(to: id) { pointer in
            let key = key
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, nil) }
            return make()
        }
    }

    /// The ID offered on this thread for an object of `entity`, taken (the slot is emptied);
    /// `nil` when none is offered, or one for another entity.
    @inline(__always)
    static func take(for entity: EntityDescription) -> ManagedObjectID? {
        let key = key
        guard let raw = pthread_getspecific(key) else { return nil }
        let id = raw.assumingMemoryBound(to: ManagedObjectID.self).pointee
        guard id.entity === entity else { return nil }
        pthread_setspecific(key, nil)
        return id
    }
}
