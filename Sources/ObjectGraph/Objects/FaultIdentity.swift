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
///
/// The slot is a cell allocated once per thread (freed when the thread ends) that holds a
/// pointer to the offered ID: offering and taking write the cell, and only read the
/// thread-specific value. Setting the thread-specific value itself on every offer, take and
/// end of offer cost three `pthread_setspecific` calls per fault (≈ 100 instructions).
enum FaultIdentity {
    /// The cell's type: a pointer to the offered `ManagedObjectID`, or `nil`.
    private typealias Cell = UnsafeMutablePointer<UnsafeRawPointer?>

    /// The thread-specific key whose value is this thread's cell (`nil` until the thread's
    /// first offer); the destructor frees a thread's cell when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { cell in
            // Optional on Linux, not on Darwin: one spelling for both.
            let pointer: UnsafeMutableRawPointer? = cell
            pointer?.assumingMemoryBound(to: UnsafeRawPointer?.self).deallocate()
        }
        return key
    }()

    /// This thread's cell, allocated (empty) on first use.
    @inline(__always)
    private static func cell() -> Cell {
        let key = key
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: UnsafeRawPointer?.self)
        }
        let cell = Cell.allocate(capacity: 1)
        cell.initialize(to: nil)
        pthread_setspecific(key, cell)
        return cell
    }

    /// Runs `make` (which makes one object of `id`'s entity) with `id` offered to the
    /// initialiser. When `make` returns, the slot holds what it held before (an offer made
    /// around this one and not taken yet stays offered).
    @inline(__always)
    static func offering<T>(_ id: ManagedObjectID, _ make: () -> T) -> T {
        withUnsafePointer(to: id) { pointer in
            let cell = cell()
            let previous = cell.pointee
            cell.pointee = UnsafeRawPointer(pointer)
            defer { cell.pointee = previous }
            return make()
        }
    }

    /// The ID offered on this thread for an object of `entity`, taken (the slot is emptied);
    /// `nil` when none is offered, or one for another entity.
    @inline(__always)
    static func take(for entity: EntityDescription) -> ManagedObjectID? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let cell = raw.assumingMemoryBound(to: UnsafeRawPointer?.self)
        guard let offered = cell.pointee else { return nil }
        let id = offered.assumingMemoryBound(to: ManagedObjectID.self).pointee
        guard id.entity === entity else { return nil }
        cell.pointee = nil
        return id
    }
}
