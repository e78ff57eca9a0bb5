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
/// 20,000 objects looks up 40,000 IDs).
///
/// A slot holds 12 bytes: a 32-bit tag (a hash of the ID's entity and key, never 0, see
/// `tag(_:)`) and the object. The ID itself is not kept: **an object is registered under its
/// own `objectID`** (``register(_:as:)`` and ``object(for:orRegister:)`` require it), so a
/// probe compares tags in a plain array, touching no reference counts, and reads the object's
/// ID only on a tag match. The home slot is read from the tag alone, so moving and re-laying
/// entries read only tags. An entity's keys are placed in blocks of eight consecutive slots,
/// so that work in key order walks the table's memory in runs rather than at random. An
/// object whose ID changes is moved (``move(_:)``) before the table is looked up again; until
/// then a look-up under either ID may miss it. (Kept per slot before: the
/// entity's identity, the key, the ID's scope and the object, 32 bytes: 8.4 MB for W4b's
/// 100,020 objects in 262,144 slots, 3.1 MB now.)
///
/// - Note: Plays the part of Core Data's registered-object table with
///   `retainsRegisteredObjects == false` (the default) or `true`.
final class ObjectRegistry {
    // Confined to its context's queue, as the context's other state.
    /// Per slot: the entry's tag (see `tag(_:)`), 0 for a free slot.
    @exclusivity(unchecked) private(set) var tags: [UInt32] = []
    /// Per slot: the entry's object, initialised only where `tags` is not 0; it is registered
    /// under its `objectID`.
    ///
    /// The objects live in a buffer of the registry's own rather than an array of optionals:
    /// growing the table moves each entry into the new buffer and frees the old one without
    /// destroying its (moved-out) elements one by one, and a new buffer needs no zero fill.
    /// (With arrays, half of re-laying a table at each doubling was the old arrays'
    /// per-element destruction and the new ones' zeroing.)
    @exclusivity(unchecked) private(set) var objects: UnsafeMutablePointer<ManagedObject>
    /// 32 minus the base-2 logarithm of the table's size: how far `home(_:)` shifts a tag's
    /// hash bits down to its home's block.
    @exclusivity(unchecked) private(set) var shift: UInt32 = 32
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
        objects = .allocate(capacity: 1)
    }

    deinit {
        releaseEntries()
        objects.deallocate()
    }

    /// Whether ``rebuild(size:keeping:)`` is moving the entries (a re-entrant change traps).
    @exclusivity(unchecked) private var isRebuilding = false

    /// Empties the table, then releases what it held: the table is empty (and usable) before
    /// the first release, so a `deinit` that calls back into the context while an object
    /// goes finds nothing rather than half-released entries.
    private func releaseEntries() {
        let oldTags = tags
        let oldObjects = objects
        tags = []
        count = 0
        objects = .allocate(capacity: 1)
        for slot in oldTags.indices where oldTags[slot] != 0 {
            (oldObjects + slot).deinitialize(count: 1)
        }
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
    ///
    /// - Precondition: `id` is `object.objectID` (checked in debug builds): the table finds an
    ///   entry by its object's ID.
    @inline(__always)
    func register(_ object: ManagedObject, as id: ManagedObjectID) {
        assert(object.objectID == id, "ObjectRegistry: an object registered under another ID")
        if count >= max(sweepAt, graceUntil) { sweep() }
        work &+= 1
        // The object's own ID read where it is used, not `id`: the caller's copy of it
        // (`register(object, as: object.objectID)`, a new object's) was kept across the probe
        // and the insert, a retain and a release of its scope.
        let tag = Self.tag(object.objectID)
        if count > 0, case (let slot, true) = probe(tag, { $0.objectID == object.objectID }) {
            removals &+= 1
            objects[slot] = object
            return
        }
        if (count + 1) * 2 > tags.count { resize(toHold: count + 1) }
        insertNew(tag, object)
    }

    /// The object registered under `id`, or the one `make` returns, registered under `id`:
    /// one probe for both (``subscript(_:)`` then ``register(_:as:)`` probed and hashed the
    /// ID three times for a new entry).
    ///
    /// The new entry goes into the free slot the probe ended on, which is where
    /// ``register(_:as:)`` would put it, unless the table is due to sweep or grow, or `make`
    /// changed the table (an initialiser that registers objects): then it is registered as
    /// ``register(_:as:)`` does.
    ///
    /// - Precondition: `make` returns an object whose `objectID` is `id` (checked in debug
    ///   builds).
    @inline(__always)
    func object(for id: ManagedObjectID, orRegister make: () -> ManagedObject) -> ManagedObject {
        guard count < max(sweepAt, graceUntil), (count + 1) * 2 <= tags.count else {
            if let object = self[id] { return object }
            let object = make()
            register(object, as: id)
            return object
        }
        let tag = Self.tag(id)
        let (slot, found) = probe(tag, { $0.objectID == id })
        if found { return objects[slot] }
        let before = changes
        let object = make()
        guard changes == before else {
            register(object, as: id)
            return object
        }
        assert(object.objectID == id, "ObjectRegistry: an object registered under another ID")
        work &+= 1
        tags[slot] = tag
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
    /// The entry under `from` is found by `from`'s tag and the object's identity (its object
    /// reads its new ID already): the objects of `moves` may all have their new IDs before
    /// the first is moved, and no other entry is looked up by ID until they are.
    ///
    /// Each removal shifts at most the rest of its probe run (a `Dictionary` re-hashed the
    /// entries after a removed key, which made re-keying a fifth of an insert save). The table
    /// grows only when an entry is added beyond the ones removed: a move whose old entry was
    /// registered leaves the count as it was, so a save's re-keying never re-lays the table
    /// (sizing it up front for `count + moves.count` entries re-laid every entry of a large
    /// insert save once, ≈ 600 instructions an object, for room it never used).
    func move(_ moves: [(object: ManagedObject, from: ManagedObjectID)]) {
        work &+= moves.count
        for (object, from) in moves { moveOne(object, fromTag: Self.tag(from)) }
    }

    /// ``move(_:)`` for `moved[i]`, whose ID was `from[i]`, for each `i`: the same moves, in
    /// the same order, from two arrays that a save has already (its inserts in allocation
    /// order, the IDs they had), read through their buffers.
    ///
    /// A list of `(object, from)` pairs was a third array of every inserted object, each
    /// object and ID copied into it and again out of it as the loop bound each pair (a retain
    /// and a release of both per object: W1's re-keying of 20,020 inserts).
    ///
    /// - Precondition: `moved` and `from` have the same count.
    func move(_ moved: [ManagedObject], from: [ManagedObjectID]) {
        precondition(
            moved.count == from.count,
            "ObjectRegistry.move: \(moved.count) objects for \(from.count) IDs")
        work &+= moved.count
        moved.withUnsafeBufferPointer { moved in
            from.withUnsafeBufferPointer { from in
                for i in moved.indices {
                    // Unretained: `moved`, borrowed for the call, holds it (read from the
                    // buffer, it was retained across the removal and released after).
                    Unmanaged.passUnretained(moved[i])._withUnsafeGuaranteedRef {
                        moveOne($0, fromTag: Self.tag(from[i]))
                    }
                }
            }
        }
    }

    /// One move of ``move(_:)``: the entry under the old ID (whose tag is `fromTag`: all it
    /// needs of the ID, the entry is found by the tag and the object's identity) removed if it
    /// is `object`, and the object placed under its `objectID` (``place(_:)``), the removed
    /// entry's reference moved into the new entry (no release and retain of the object).
    @inline(__always)
    private func moveOne(_ object: ManagedObject, fromTag: UInt32) {
        guard let slot = slot(of: object, tag: fromTag) else { return place(object) }
        removals &+= 1
        place(remove(at: slot))
    }

    /// `object` registered under its `objectID`, replacing what was registered there: as
    /// `register(_:as:)`, without its sweep (a sweep between two moves would walk the whole
    /// table for nothing).
    @inline(__always)
    private func place(_ object: consuming ManagedObject) {
        let id = object.objectID
        if let slot = slot(of: id) {
            removals &+= 1
            objects[slot] = object
        } else {
            if (count + 1) * 2 > tags.count { resize(toHold: count + 1) }
            insertNew(Self.tag(id), object)
        }
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
        if capacity * 2 > tags.count { resize(toHold: capacity) }
    }

    func removeAll() {
        // A `deinit` of an object the rebuild lets go that resets the context would free the
        // buffers the rebuild is still moving entries out of.
        precondition(!isRebuilding, "the registry was emptied while it re-laid its table")
        changes &+= 1
        removals &+= 1
        releaseEntries()
        shift = 32
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
            for slot in tags.indices where tags[slot] != 0 {
                if isKnownUniquelyReferenced(&objects[slot]) { found += 1 }
            }
            if found == 0 { return }
            if found * 2 >= count {
                keepOnlyReferenced()
            } else {
                // Slots first, then the IDs (the objects' own, under which they are
                // registered): removing moves later entries of a probe run.
                var unreferenced: [Int] = []
                unreferenced.reserveCapacity(found)
                for slot in tags.indices where tags[slot] != 0 {
                    if isKnownUniquelyReferenced(&objects[slot]) { unreferenced.append(slot) }
                }
                let ids = unreferenced.map { objects[$0].objectID }
                // Not `removeValue(forKey:)`: a sweep's removals are not counted in `removals`.
                for id in ids { if let slot = slot(of: id) { _ = remove(at: slot) } }
            }
        }
    }

    // MARK: The table

    /// The slot holding `id`, or `nil`.
    @inline(__always)
    private func slot(of id: ManagedObjectID) -> Int? {
        guard count > 0 else { return nil }
        let (slot, found) = probe(Self.tag(id), { $0.objectID == id })
        return found ? slot : nil
    }

    /// Where the probe for an ID whose tag is `tag` ends: the slot holding it (`found`: its
    /// object passes `isID`, a comparison of the object's ID with it), or the free slot a new
    /// entry for it would take. The table has a free slot (it is at most half full). An
    /// entry's object is read only when its tag is `tag`.
    @inline(__always)
    private func probe(_ tag: UInt32, _ isID: (ManagedObject) -> Bool) -> (slot: Int, found: Bool) {
        let mask = tags.count - 1
        var slot = home(tag)
        while true {
            let t = tags[slot]
            if t == 0 { return (slot, false) }
            if t == tag && isID(objects[slot]) { return (slot, true) }
            slot = (slot + 1) & mask
        }
    }

    /// The slot of an entry with the tag `tag` whose object is `object`, or `nil`: an entry
    /// found by identity, whatever its object's ID now reads (see ``move(_:)``).
    private func slot(of object: ManagedObject, tag: UInt32) -> Int? {
        guard count > 0 else { return nil }
        let mask = tags.count - 1
        var slot = home(tag)
        while true {
            let t = tags[slot]
            if t == 0 { return nil }
            if t == tag && objects[slot] === object { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// Puts an entry for an ID not in the table, whose tag is `tag`, into its first free slot.
    private func insertNew(_ tag: UInt32, _ object: consuming ManagedObject) {
        let mask = tags.count - 1
        var slot = home(tag)
        while tags[slot] != 0 { slot = (slot + 1) & mask }
        tags[slot] = tag
        (objects + slot).initialize(to: object)
        count += 1
        changes &+= 1
    }

    /// Empties `slot` and moves later entries of its probe run back, so that every entry
    /// stays reachable from its home without tombstones.
    private func remove(at slot: Int) -> ManagedObject {
        // The hole holds nothing: its entry is moved out, later ones are moved into it.
        let removed = (objects + slot).move()
        let mask = tags.count - 1
        let objects = self.objects
        // Through the buffer, and each entry's place told by its distance from home: the
        // rest of a run is read on every removal, and runs are longer since an entity's keys
        // sit in blocks (see `tag(_:)`).
        tags.withUnsafeMutableBufferPointer { tags in
            var hole = slot
            var next = slot
            while true {
                next = (next &+ 1) & mask
                let t = tags[next]
                if t == 0 { break }
                // The entry at `next` stays unless it is at least as far from its home as
                // the hole is from `next` (its home lies cyclically in (hole, next]).
                if (next &- home(t)) & mask < (next &- hole) & mask { continue }
                tags[hole] = t
                (objects + hole).moveInitialize(from: objects + next, count: 1)
                hole = next
            }
            tags[hole] = 0
        }
        count -= 1
        changes &+= 1
        return removed
    }

    /// Re-lays the table with room for `capacity` entries at most half full.
    ///
    /// - Precondition: `capacity` is at most 2^30 (a tag's 32 bits address 2^31 slots at most).
    private func resize(toHold capacity: Int) {
        precondition(capacity <= 1 << 30, "ObjectRegistry: more than 2^30 registered objects")
        var size = 16
        while size < capacity * 2 { size *= 2 }
        rebuild(size: size) { _ in true }
    }

    /// Keeps only the objects something else references: when most entries go (a batch's
    /// objects let go at the end of its event), re-inserting the few that stay costs less than
    /// removing the many. The size is kept, so the next batch of the same size does not grow
    /// the table again.
    private func keepOnlyReferenced() {
        rebuild(size: tags.count) { object in !isKnownUniquelyReferenced(&object) }
    }

    /// Re-lays the table at `size` slots with the entries whose object passes `keep`.
    private func rebuild(size: Int, keeping keep: (inout ManagedObject) -> Bool) {
        precondition(
            !isRebuilding,
            "ObjectRegistry: an object was registered while the registry was re-laid "
                + "(from a deinit of an object it released?)")
        isRebuilding = true
        defer { isRebuilding = false }
        let oldTags = tags
        let oldObjects = objects
        // While entries move, the table reads as empty: a look-up from a `deinit` of a
        // dropped object finds nothing (and a registration traps above) instead of reading
        // moved-out slots.
        tags = []
        count = 0
        var newTags = [UInt32](repeating: 0, count: size)
        let newObjects = UnsafeMutablePointer<ManagedObject>.allocate(capacity: size)
        changes &+= 1
        shift = 32 - UInt32(size.trailingZeroBitCount)
        let mask = size - 1
        var kept = 0
        // Each entry is moved out of the old buffer (no retain and release of the object), so
        // that `keep` sees the old table's reference as the only one; a kept entry is moved
        // into its new slot, a dropped one released here. The old buffer is left holding
        // nothing and is freed without a pass over it.
        newTags.withUnsafeMutableBufferPointer { tags in
            for old in oldTags.indices where oldTags[old] != 0 {
                var object = (oldObjects + old).move()
                guard keep(&object) else { continue }
                let tag = oldTags[old]
                var slot = home(tag)
                while tags[slot] != 0 { slot = (slot + 1) & mask }
                tags[slot] = tag
                (newObjects + slot).initialize(to: consume object)
                kept += 1
            }
        }
        oldObjects.deallocate()
        tags = newTags
        objects = newObjects
        count = kept
    }
}
