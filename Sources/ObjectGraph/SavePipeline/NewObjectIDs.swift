/// The permanent IDs a root save gives the inserted objects that still have temporary ones:
/// each object with its new ID, found by the object's identity.
///
/// Built once per save by `allocateIDs`, read once per written row and once per reference to
/// an inserted object while the rows are built, then walked in order to re-key the objects.
/// An identity table (``ObjectPositions``: the object's address mixed by one multiplication)
/// indexes the two arrays; the `[ObjectIdentifier: ManagedObjectID]` it replaces hashed every
/// object through `Hasher` three times per save (filled, read per row, read again to re-key).
/// The table holds no references: the objects are kept alive by ``objects``.
struct NewObjectIDs {
    /// The objects given new IDs, in allocation order.
    private(set) var objects: [ManagedObject] = []
    /// Each object's new ID, at the object's position in ``objects``.
    private(set) var ids: [ManagedObjectID] = []
    /// Each object's position in ``objects``.
    private var positions = ObjectPositions()

    /// The number of objects given new IDs.
    var count: Int { ids.count }

    /// Room for `capacity` objects without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        objects.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    /// New IDs for every object of `objects`, in order: `ids[i]` is `objects[i]`'s. The list
    /// is `objects` itself, sharing its storage (a save's inserts, when each has a temporary
    /// ID and allocation order is theirs): appending each object to a list of its own
    /// retained it, and freeing that list released it again. `nil` when an object appears
    /// twice (the caller then records them one by one, as ``append(_:_:)`` keeps the first).
    init?(sharing objects: [ManagedObject], ids: [ManagedObjectID]) {
        precondition(objects.count == ids.count, "NewObjectIDs: an ID for each object")
        var positions = ObjectPositions()
        positions.reserveCapacity(objects.count)
        // Each object's address is read from the list's storage as a word, without a
        // reference: read as an object, each was retained across the table's insert and
        // released after it (2 atomic calls an object, W1's save).
        let unique = objects.withUnsafeBytes { words in
            for i in 0..<objects.count {
                let address = words.load(
                    fromByteOffset: i * MemoryLayout<ManagedObject>.stride, as: UInt.self)
                if !positions.insert(address: address, at: i) { return false }
            }
            return true
        }
        guard unique else { return nil }
        self.objects = objects
        self.ids = ids
        self.positions = positions
    }

    /// An empty list.
    init() {}

    /// Records `id` as `object`'s new ID; an object recorded already keeps its first ID.
    mutating func append(_ object: ManagedObject, _ id: ManagedObjectID) {
        guard positions.insert(object, at: ids.count) else { return }
        objects.append(object)
        ids.append(id)
    }

    /// The new ID of `object` when it is the object at `cursor` in ``objects`` (the cursor
    /// then moves past it), else `nil` with the cursor left where it is.
    ///
    /// For a walk over the saved inserts in their order: inserts of one entity in one run get
    /// their IDs in that order, so each finds its ID at the cursor by one identity comparison,
    /// without the identity table's lookup; an object the cursor does not find (entities
    /// interleaved, an object with a permanent ID already) is looked up by the caller another
    /// way. `cursor` starts at 0 and is changed only here. Cost: a comparison.
    @inline(__always)
    func id(of object: ManagedObject, at cursor: inout Int) -> ManagedObjectID? {
        guard cursor < objects.count, objects[cursor] === object else { return nil }
        defer { cursor += 1 }
        return ids[cursor]
    }

    /// The new ID of `object`, or `nil` when it was given none.
    ///
    /// After ``dropIndex()`` (until ``reindex()``), found by walking ``objects``: the same
    /// answer, in O(n).
    @inline(__always)
    subscript(object: ManagedObject) -> ManagedObjectID? {
        guard isIndexed else { return objects.firstIndex { $0 === object }.map { ids[$0] } }
        guard let position = positions[object] else { return nil }
        return ids[position]
    }

    /// Whether the identity table indexes every object (`false` after ``dropIndex()``).
    var isIndexed: Bool { positions.count == objects.count }

    /// Lets go of the identity table (16 bytes a slot, at most half full: ≈ 42 bytes an
    /// object) once the rows are built, so that it is not held through the store's commit,
    /// a large save's peak: what reads the IDs after it walks ``objects`` and ``ids`` in
    /// order. A look-up still answers (see the subscript); ``reindex()`` makes it fast again.
    mutating func dropIndex() {
        positions = ObjectPositions()
    }

    /// Builds the identity table again after ``dropIndex()`` (nothing when it is whole), for
    /// a path that looks objects up: a failed commit's report, a save that merged objects.
    mutating func reindex() {
        guard !isIndexed else { return }
        var table = ObjectPositions()
        table.reserveCapacity(objects.count)
        for i in objects.indices { _ = table.insert(objects[i], at: i) }
        positions = table
    }
}

extension ManagedObjectContext {
    /// ``allocateIDs(for:coordinator:)`` where every object has a temporary ID, no store was
    /// chosen by ``assign(_:to:)`` and the entities' runs, group by group, are `objects` in
    /// order (inserts of one entity at a time, a save's usual shape): the new IDs' list of
    /// objects is `objects` itself, and each ID is made where the list keeps it, from the
    /// keys the store hands out, with no array of IDs between. Allocation order, keys and
    /// IDs are the same as the general path's. `nil` when the shape does not hold.
    func newIDsInOrder(
        _ objects: [ManagedObject],
        _ groups: [(entity: EntityDescription, runs: [Range<Int>], temporary: Int)], _ total: Int,
        _ coordinator: PersistentStoreCoordinator
    ) throws -> NewObjectIDs? {
        guard assignedStores.isEmpty, total == objects.count else { return nil }
        var next = 0
        for group in groups {
            for range in group.runs {
                guard range.lowerBound == next else { return nil }
                next = range.upperBound
            }
        }
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(total)
        for group in groups {
            let (scope, keys) = try coordinator.permanentKeys(
                for: group.entity, count: group.temporary)
            // The first `temporary` keys, as the general path takes them (a store that hands
            // out more than asked for does not misalign the list).
            for key in keys.prefix(group.temporary) {
                ids.append(ManagedObjectID(scope: scope, primaryKey: key))
            }
        }
        if let shared = NewObjectIDs(sharing: objects, ids: ids) { return shared }
        // An object listed twice: recorded one by one, as the general path does.
        var result = NewObjectIDs()
        result.reserveCapacity(total)
        for i in objects.indices { result.append(objects[i], ids[i]) }
        return result
    }
}
