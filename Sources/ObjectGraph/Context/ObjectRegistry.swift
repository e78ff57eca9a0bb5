import Foundation

/// The objects a context has registered, by ID, held **weakly** as Core Data holds them.
///
/// An object stays registered while something else keeps it alive: the application, another
/// object's relationship, the context's pending changes (inserted, updated and deleted objects
/// are held strongly until saved or rolled back), the objects kept until the end of the
/// current event, or — with ``retainsAll`` — the registry itself. When the last reference
/// goes, the object leaves the registry by itself; a later fetch makes a new instance.
///
/// Entries of objects that went away are dropped in sweeps run when the table has doubled
/// since the last one, so registering stays amortised O(1).
///
/// - Note: Plays the part of Core Data's registered-object table
///   (`retainsRegisteredObjects == false`).
struct ObjectRegistry {
    /// A weak reference to a registered object.
    private struct Entry {
        weak var object: ManagedObject?
    }

    private var entries: [ManagedObjectID: Entry] = [:]
    /// Strong references to every registered object, while ``retainsAll``.
    private var retained: [ObjectIdentifier: ManagedObject] = [:]
    /// The entry count at which the next sweep runs.
    private var sweepAt = 1024

    /// Whether every registered object is also held strongly (`retainsRegisteredObjects`).
    var retainsAll = false {
        didSet {
            guard retainsAll != oldValue else { return }
            retained.removeAll()
            if retainsAll { for object in values { retained[ObjectIdentifier(object)] = object } }
        }
    }

    /// The live object registered under `id`; setting registers it, `nil` unregisters.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get { entries[id]?.object }
        set {
            if let newValue {
                register(newValue, as: id)
            } else {
                removeValue(forKey: id)
            }
        }
    }

    /// Unregisters the object under `id`; returns it when it was still alive.
    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        guard let object = entries.removeValue(forKey: id)?.object else { return nil }
        if retainsAll { retained[ObjectIdentifier(object)] = nil }
        return object
    }

    /// Every live registered object, in no particular order.
    var values: [ManagedObject] { entries.values.compactMap(\.object) }

    /// The number of entries, including those of objects that went away since the last sweep.
    var count: Int { entries.count }

    /// Makes room for `capacity` entries at once (a large fetch), sweeping first so that no
    /// sweep rebuilds the table while it fills.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > sweepAt { sweep() }
        sweepAt = max(sweepAt, capacity)
        entries.reserveCapacity(capacity)
    }

    mutating func removeAll() {
        entries.removeAll()
        retained.removeAll()
        sweepAt = 1024
    }

    private mutating func register(_ object: ManagedObject, as id: ManagedObjectID) {
        if entries.count >= sweepAt { sweep() }
        entries[id] = Entry(object: object)
        if retainsAll { retained[ObjectIdentifier(object)] = object }
    }

    /// Drops the entries of objects that went away.
    private mutating func sweep() {
        entries = entries.filter { $0.value.object != nil }
        sweepAt = max(1024, entries.count * 2)
    }
}
