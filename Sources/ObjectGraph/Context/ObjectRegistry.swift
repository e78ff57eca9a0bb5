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
/// The table is an open-addressing hash table of its own (linear probing, at most half
/// full, deletion by backward shift) rather than a `Dictionary`: an ID is found by its
/// entity's identity and its primary key, mixed by two multiplications, where hashing a
/// `ManagedObjectID` through `Hasher` cost more than the rest of a lookup (a fetch of
/// 20,000 objects looks up 40,000 IDs). Entities and keys sit in plain arrays, so probing
/// touches no reference counts; the IDs' shared scopes (entity and store) are compared only on
/// a match of both.
///
/// - Note: Plays the part of Core Data's registered-object table with
///   `retainsRegisteredObjects == false` (the default) or `true`.
final class ObjectRegistry {
    // Confined to its context's queue, as the context's other state.
    /// Per slot: the identity of the entry's entity, 0 for a free slot.
    @exclusivity(unchecked) private var entities: [UInt] = []
    /// Per slot: the entry's primary key.
    @exclusivity(unchecked) private var keys: [Int64] = []
    /// Per slot: the scope (entity and store) of the entry's ID, initialised only where
    /// `entities` is not 0; the ID is this scope and `keys`' key. (The whole ID, 16 bytes,
    /// repeated the key: 8 bytes a slot more, ≈ 21 bytes an object in a table at most half
    /// full.)
    ///
    /// The scopes and objects live in buffers of the registry's own rather than arrays of
    /// optionals: growing the table moves each entry into the new buffers and frees the old
    /// ones without destroying their (moved-out) elements one by one, and a new buffer needs
    /// no zero fill. (With arrays, half of re-laying a table at each doubling was the old
    /// arrays' per-element destruction and the new ones' zeroing.)
    @exclusivity(unchecked) private var scopes: UnsafeMutablePointer<ObjectIDScope>
    /// Per slot: the entry's object, initialised only where `entities` is not 0.
    @exclusivity(unchecked) private var objects: UnsafeMutablePointer<ManagedObject>
    /// 64 minus the base-2 logarithm of the table's size: a hash's top bits are its home.
    @exclusivity(unchecked) private var shift: UInt64 = 64
    /// The number of registered objects, counting those the next sweep may drop.
    @exclusivity(unchecked) private(set) var count = 0
    /// The doubling threshold: twice the entry count at the last sweep (at least 1,024).
    @exclusivity(unchecked) private var sweepAt = 1024
    /// The grace after a fetch's reservation (``reserveCapacity(_:)``): twice the capacity
    /// reserved, 0 when none is pending. Registering sweeps once the count reaches the
    /// larger of this and `sweepAt`; a sweep ends the grace, and each reservation replaces
    /// it, so a series of fetches in one event does not push the doubling threshold away.
    @exclusivity(unchecked) private var graceUntil = 0
    /// Objects registered, handed out or let go by the context since the last sweep.
    @exclusivity(unchecked) private var work = 0
    /// Counts changes to the table's layout (entries added, removed, moved), so that
    /// ``object(for:orRegister:)`` can tell whether the slot it found is still the one.
    @exclusivity(unchecked) private var changes = 0
    /// Counts the ways an ID can stop naming the object registered under it, other than a
    /// sweep: removals (``removeValue(forKey:)``, ``removeAll()``, an entry ``move(_:)``
    /// takes away) and replacements (``register(_:as:)`` or ``move(_:)`` over an entry). A
    /// sweep is not counted: it drops only objects the registry alone references. While the
    /// count is unchanged, an object found under an ID and kept referenced since is still the
    /// one registered under it (see `ManagedObjectContext.keptDestinationsStamp`).
    @exclusivity(unchecked) private(set) var removals = 0

    /// Whether every registered object is kept until unregistered (`retainsRegisteredObjects`).
    @exclusivity(unchecked) var retainsAll = false

    init() {
        scopes = .allocate(capacity: 1)
        objects = .allocate(capacity: 1)
    }

    deinit {
        releaseEntries()
        scopes.deallocate()
        objects.deallocate()
    }

    /// Whether ``rebuild(size:keeping:)`` is moving the entries (a re-entrant change traps).
    @exclusivity(unchecked) private var isRebuilding = false

    /// Empties the table, then releases what it held: the table is empty (and usable) before
    /// the first release, so a `deinit` that calls back into the context while an object
    /// goes finds nothing rather than half-released entries.
    private func releaseEntries() {
        let oldEntities = entities
        let oldScopes = scopes
        let oldObjects = objects
        entities = []
        keys = []
        count = 0
        scopes = .allocate(capacity: 1)
        objects = .allocate(capacity: 1)
        for slot in oldEntities.indices where oldEntities[slot] != 0 {
            (oldScopes + slot).deinitialize(count: 1)
            (oldObjects + slot).deinitialize(count: 1)
        }
        oldScopes.deallocate()
        oldObjects.deallocate()
    }

    /// The object registered under `id`.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        @inline(__always) get {
            guard let slot = slot(of: id) else { return nil }
            return objects[slot]
        }
    }

    /// Registers `object` under `id`, replacing what was registered there.
    @inline(__always)
    func register(_ object: ManagedObject, as id: ManagedObjectID) {
        if count >= max(sweepAt, graceUntil) { sweep() }
        work &+= 1
        if let slot = slot(of: id) {
            removals &+= 1
            objects[slot] = object
            return
        }
        if (count + 1) * 2 > entities.count { resize(toHold: count + 1) }
        insertNew(id, object)
    }

    /// The object registered under `id`, or the one `make` returns, registered under `id`:
    /// one probe for both (``subscript(_:)`` then ``register(_:as:)`` probed and hashed the
    /// ID three times for a new entry).
    ///
    /// The new entry goes into the free slot the probe ended on, which is where
    /// ``register(_:as:)`` would put it, unless the table is due to sweep or grow, or `make`
    /// changed the table (an initialiser that registers objects): then it is registered as
    /// ``register(_:as:)`` does.
    @inline(__always)
    func object(for id: ManagedObjectID, orRegister make: () -> ManagedObject) -> ManagedObject {
        guard count < max(sweepAt, graceUntil), (count + 1) * 2 <= entities.count else {
            if let object = self[id] { return object }
            let object = make()
            register(object, as: id)
            return object
        }
        let (slot, found) = probe(id)
        if found { return objects[slot] }
        let before = changes
        let object = make()
        guard changes == before else {
            register(object, as: id)
            return object
        }
        work &+= 1
        entities[slot] = UInt(bitPattern: ObjectIdentifier(id.entity))
        keys[slot] = id.primaryKey
        (scopes + slot).initialize(to: id.scope)
        (objects + slot).initialize(to: object)
        count += 1
        changes &+= 1
        return object
    }

    /// Unregisters the object under `id`; returns it.
    @discardableResult
    func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        guard let slot = slot(of: id) else { return nil }
        removals &+= 1
        return remove(at: slot)
    }

    /// Moves objects whose IDs changed (a save's inserted objects, from their temporary IDs to
    /// their permanent ones) to their current IDs: for each, the entry under `from` is removed
    /// if it is that object, and the object is registered under its `objectID`, replacing
    /// what was registered there; as `removeValue(forKey:)` then `register(_:as:)` for each
    /// in turn.
    ///
    /// Each removal shifts at most the rest of its probe run (a `Dictionary` re-hashed the
    /// entries after a removed key, which made re-keying a fifth of an insert save). The table
    /// grows only when an entry is added beyond the ones removed: a move whose old entry was
    /// registered leaves the count as it was, so a save's re-keying never re-lays the table
    /// (sizing it up front for `count + moves.count` entries re-laid every entry of a large
    /// insert save once, ≈ 600 instructions an object, for room it never used).
    func move(_ moves: [(object: ManagedObject, from: ManagedObjectID)]) {
        work &+= moves.count
        for (object, from) in moves {
            if let slot = slot(of: from), objects[slot] === object {
                removals &+= 1
                _ = remove(at: slot)
            }
            // As `register(_:as:)`, without its sweep: a sweep between two moves would walk the
            // whole table for nothing.
            let id = object.objectID
            if let slot = slot(of: id) {
                removals &+= 1
                objects[slot] = object
            } else {
                if (count + 1) * 2 > entities.count { resize(toHold: count + 1) }
                insertNew(id, object)
            }
        }
    }

    /// The number of slots in the table (tests: whether an operation re-laid it).
    var slotCount: Int { entities.count }

    /// Every registered object, in no particular order.
    var values: [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for slot in entities.indices where entities[slot] != 0 { result.append(objects[slot]) }
        return result
    }

    /// Makes room for `capacity` entries at once (a large fetch), sweeping first so that no
    /// sweep runs while the table fills, nor at the first registration after it.
    ///
    /// The next sweep on registering is not due before the table holds twice `capacity`
    /// entries (a grace of its own, `graceUntil`, replaced by the next reservation and ended
    /// by any sweep): due at `capacity` itself, the first object registered after a fetch of
    /// `capacity` objects (a destination of a deleted object, in delete propagation) swept
    /// the whole table while every fetched object was still held by the fetch's result, to
    /// drop none (≈ 760,000 instructions after a fetch of 20,000). The doubling threshold
    /// (twice the count at the last sweep) is left as it is: raising it to twice `capacity`
    /// let each fetch of an event push the next sweep further away, and objects only the
    /// registry held piled up until the event ended. The end of the event sweeps as before.
    func reserveCapacity(_ capacity: Int) {
        if capacity > sweepAt { sweep() }
        graceUntil = capacity * 2
        if capacity * 2 > entities.count { resize(toHold: capacity) }
    }

    func removeAll() {
        changes &+= 1
        removals &+= 1
        releaseEntries()
        shift = 64
        sweepAt = 1024
        graceUntil = 0
        work = 0
    }

    /// Counts work that may leave objects held by the registry alone (objects handed out,
    /// pending changes saved or discarded), so the next end of event sweeps.
    func noteWork(_ amount: Int) { work += amount }

    /// At the end of an event: sweeps when the context did work since the last sweep, at
    /// once for a small table, else once that work reaches a quarter of the table's size.
    func endOfEvent() {
        guard work > 0, !retainsAll else { return }
        if count <= 4096 || work * 4 >= count { sweep() }
    }

    /// Drops the objects that only the registry references. Dropping one may leave others
    /// (its related objects) referenced by the registry alone: up to three rounds take them,
    /// later sweeps take what remains of longer chains.
    func sweep() {
        work = 0
        graceUntil = 0
        defer { sweepAt = max(1024, count * 2) }
        guard !retainsAll else { return }
        for _ in 0..<3 {
            // An empty table (a round that dropped every entry) has nothing to look at: its
            // slots are not walked again.
            if count == 0 { return }
            // Counted first: most sweeps that find many re-lay the table and need no list of
            // the slots (growing one by appending re-allocated it ≈ 7 times a sweep, 0.7 M
            // instructions of W5's sweeps). Nothing runs between the passes, so the second
            // finds the same slots.
            var found = 0
            for slot in entities.indices where entities[slot] != 0 {
                if isKnownUniquelyReferenced(&objects[slot]) { found += 1 }
            }
            if found == 0 { return }
            if found * 2 >= count {
                keepOnlyReferenced()
            } else {
                // Slots, not IDs, first (a copy of each ID retained and released its scope).
                var unreferenced: [Int] = []
                unreferenced.reserveCapacity(found)
                for slot in entities.indices where entities[slot] != 0 {
                    if isKnownUniquelyReferenced(&objects[slot]) { unreferenced.append(slot) }
                }
                // Removing moves later entries of a probe run: the IDs are taken first.
                let ids = unreferenced.map {
                    ManagedObjectID(scope: scopes[$0], primaryKey: keys[$0])
                }
                // Not `removeValue(forKey:)`: a sweep's removals are not counted in `removals`.
                for id in ids { if let slot = slot(of: id) { _ = remove(at: slot) } }
            }
        }
    }

    // MARK: The table

    /// The home slot of an entity identity and key.
    @inline(__always)
    private func home(_ entity: UInt, _ key: Int64) -> Int {
        let h =
            (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15)
            ^ (UInt64(entity) &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: h >> shift)
    }

    /// The slot holding `id`, or `nil`.
    @inline(__always)
    private func slot(of id: ManagedObjectID) -> Int? {
        guard count > 0 else { return nil }
        let (slot, found) = probe(id)
        return found ? slot : nil
    }

    /// Where the probe for `id` ends: the slot holding it (`found`), or the free slot a new
    /// entry for it would take. The table has a free slot (it is at most half full).
    @inline(__always)
    private func probe(_ id: ManagedObjectID) -> (slot: Int, found: Bool) {
        let entity = UInt(bitPattern: ObjectIdentifier(id.entity))
        let key = id.primaryKey
        let mask = entities.count - 1
        var slot = home(entity, key)
        while true {
            let e = entities[slot]
            if e == 0 { return (slot, false) }
            if e == entity && keys[slot] == key {
                let scope = scopes[slot]
                if scope === id.scope || scope.isEquivalent(to: id.scope) { return (slot, true) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Puts an entry for an ID not in the table into its first free slot.
    private func insertNew(_ id: ManagedObjectID, _ object: ManagedObject) {
        let entity = UInt(bitPattern: ObjectIdentifier(id.entity))
        let mask = entities.count - 1
        var slot = home(entity, id.primaryKey)
        while entities[slot] != 0 { slot = (slot + 1) & mask }
        entities[slot] = entity
        keys[slot] = id.primaryKey
        (scopes + slot).initialize(to: id.scope)
        (objects + slot).initialize(to: object)
        count += 1
        changes &+= 1
    }

    /// Empties `slot` and moves later entries of its probe run back, so that every entry
    /// stays reachable from its home without tombstones.
    private func remove(at slot: Int) -> ManagedObject? {
        // The hole holds nothing: its entry is moved out, later ones are moved into it.
        let removed = (objects + slot).move()
        (scopes + slot).deinitialize(count: 1)
        let mask = entities.count - 1
        var hole = slot
        var next = slot
        while true {
            next = (next + 1) & mask
            if entities[next] == 0 { break }
            let h = home(entities[next], keys[next])
            // The entry at `next` may fill the hole unless its home lies cyclically in
            // (hole, next].
            let stays = hole <= next ? (hole < h && h <= next) : (hole < h || h <= next)
            if stays { continue }
            entities[hole] = entities[next]
            keys[hole] = keys[next]
            (scopes + hole).moveInitialize(from: scopes + next, count: 1)
            (objects + hole).moveInitialize(from: objects + next, count: 1)
            hole = next
        }
        entities[hole] = 0
        keys[hole] = 0
        count -= 1
        changes &+= 1
        return removed
    }

    /// Re-lays the table with room for `capacity` entries at most half full.
    private func resize(toHold capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        rebuild(size: size) { _ in true }
    }

    /// Keeps only the objects something else references: when most entries go (a batch's
    /// objects let go at the end of its event), re-inserting the few that stay costs less than
    /// removing the many. The size is kept, so the next batch of the same size does not grow
    /// the table again.
    private func keepOnlyReferenced() {
        rebuild(size: entities.count) { object in !isKnownUniquelyReferenced(&object) }
    }

    /// Re-lays the table at `size` slots with the entries whose object passes `keep`.
    private func rebuild(size: Int, keeping keep: (inout ManagedObject) -> Bool) {
        precondition(
            !isRebuilding,
            "ObjectRegistry: an object was registered while the registry was re-laid "
                + "(from a deinit of an object it released?)")
        isRebuilding = true
        defer { isRebuilding = false }
        let oldEntities = entities
        let oldKeys = keys
        let oldScopes = scopes
        let oldObjects = objects
        // While entries move, the table reads as empty: a look-up from a `deinit` of a
        // dropped object finds nothing (and a registration traps above) instead of reading
        // moved-out slots.
        entities = []
        keys = []
        count = 0
        var newEntities = [UInt](repeating: 0, count: size)
        var newKeys = [Int64](repeating: 0, count: size)
        let newScopes = UnsafeMutablePointer<ObjectIDScope>.allocate(capacity: size)
        let newObjects = UnsafeMutablePointer<ManagedObject>.allocate(capacity: size)
        changes &+= 1
        shift = 64 - UInt64(size.trailingZeroBitCount)
        let mask = size - 1
        var kept = 0
        // Each entry is moved out of the old buffers (no retain and release of the ID's scope
        // and of the object), so that `keep` sees the old table's reference as the only one;
        // a kept entry is moved into its new slot, a dropped one released here. The old
        // buffers are left holding nothing and are freed without a pass over them.
        newEntities.withUnsafeMutableBufferPointer { entities in
            newKeys.withUnsafeMutableBufferPointer { keys in
                for old in oldEntities.indices where oldEntities[old] != 0 {
                    var object = (oldObjects + old).move()
                    let scope = (oldScopes + old).move()
                    guard keep(&object) else { continue }
                    let entity = oldEntities[old]
                    let key = oldKeys[old]
                    var slot = home(entity, key)
                    while entities[slot] != 0 { slot = (slot + 1) & mask }
                    entities[slot] = entity
                    keys[slot] = key
                    (newScopes + slot).initialize(to: scope)
                    (newObjects + slot).initialize(to: consume object)
                    kept += 1
                }
            }
        }
        oldScopes.deallocate()
        oldObjects.deallocate()
        entities = newEntities
        keys = newKeys
        scopes = newScopes
        objects = newObjects
        count = kept
    }
}
