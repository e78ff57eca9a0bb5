import Foundation

/// The sources of one derived to-many, by target key.
///
/// Each target's sources are kept in primary-key order (keys are unique within the to-one's
/// hierarchy): adding a source with a greater key than all others — the common case, since
/// stores hand out increasing keys — appends; removing one finds it by binary search and
/// leaves a hole, and the holes are squeezed out once they are the majority. A read is a
/// copy without sorting.
struct ReverseIndex: Sendable {
    private var sources: [Int64: SourceList] = [:]

    mutating func add(_ source: ManagedObjectID, to target: Int64) {
        sources[target, default: SourceList()].add(source)
    }

    /// Adds many sources of one entity at once (each pair a target's key and a source's key),
    /// as ``add(_:to:)`` of each in turn.
    ///
    /// The pairs are grouped by target first (a counting sort of their keys, in order), then
    /// each target's keys are added together (``SourceList/add(keys:entity:)``: appended in
    /// bulk when they come after the list's last key, as a replay's and a save's do), not one
    /// by one through the list (≈ 160 instructions a pair when each was added alone).
    ///
    /// `pairs` is taken (`consuming`) and freed once grouped, before the lists grow: the
    /// caller's array (16 bytes a pair) and the grouping's (12 bytes a pair) are not both held
    /// while the lists take the keys, at the apply's peak of memory.
    ///
    /// - Precondition: `entity` is in a model (its index is not negative).
    mutating func add(
        contentsOf pairs: consuming [(target: Int64, source: Int64)], entity: EntityDescription
    ) {
        guard !pairs.isEmpty else { return }
        precondition(entity.index >= 0, "a source of an entity in no model")
        let index = Int32(entity.index)
        var (lists, positions) = takeLists(of: pairs, creating: true)
        // Where each list's keys start in `grouped`, then (after the scatter) where they end;
        // counted and scattered through the arrays' buffers (no uniqueness check a pair).
        var ends = [Int](repeating: 0, count: lists.count + 1)
        let grouped = [Int64](unsafeUninitializedCapacity: pairs.count) { buffer, initialized in
            ends.withUnsafeMutableBufferPointer { ends in
                positions.withUnsafeBufferPointer { positions in
                    for p in positions { ends[Int(p) + 1] += 1 }
                    for i in 1..<ends.count { ends[i] += ends[i - 1] }
                    pairs.withUnsafeBufferPointer { pairs in
                        for j in pairs.indices {
                            let p = Int(positions[j])
                            buffer[ends[p]] = pairs[j].source
                            ends[p] += 1
                        }
                    }
                }
            }
            initialized = pairs.count
        }
        positions = []
        pairs = []
        grouped.withUnsafeBufferPointer { grouped in
            var start = 0
            for i in lists.indices {
                lists[i].list.add(
                    keys: UnsafeBufferPointer(rebasing: grouped[start..<ends[i]]), entity: index)
                start = ends[i]
            }
        }
        for (target, list) in lists { sources[target] = list }
    }

    mutating func remove(_ source: ManagedObjectID, from target: Int64) {
        sources[target]?.remove(source.primaryKey)
    }

    /// Removes many sources at once (a save's deleted rows), each given by its key, as
    /// ``remove(_:from:)`` of each in turn: each target's leaving keys are gathered, then
    /// taken out of its list together (see ``SourceList/remove(keys:)``).
    mutating func remove(contentsOf pairs: [(target: Int64, source: Int64)]) {
        var leaving: [[Int64]] = []
        withLists(of: pairs, creating: false) { _, list, source in
            if list == leaving.count { leaving.append([]) }
            leaving[list].append(source)
        } finish: { list, index in
            list.remove(keys: &leaving[index])
        }
    }

    /// Calls `body` with each pair's target list and source: each target's list is taken out
    /// of the dictionary once and put back at the end, not looked up (hashed, moved out and
    /// back) per pair. A target is found through a dense array of positions while keys are
    /// small (stores hand out keys from 1), else through a dictionary of positions. A target
    /// without a list gets an empty one when `creating`; otherwise its pairs are skipped.
    /// `body` also gets the list's position among the lists taken out (0, 1, … in the order
    /// their targets first appear); `finish` is called with each list and its position before
    /// it is put back.
    private mutating func withLists(
        of pairs: [(target: Int64, source: Int64)], creating: Bool,
        _ body: (inout SourceList, _ position: Int, _ source: Int64) -> Void,
        finish: (inout SourceList, _ position: Int) -> Void = { _, _ in }
    ) {
        var (lists, positions) = takeLists(of: pairs, creating: creating)
        for j in pairs.indices where positions[j] >= 0 {
            let i = Int(positions[j])
            body(&lists[i].list, i, pairs[j].source)
        }
        positions = []
        for i in lists.indices {
            finish(&lists[i].list, i)
            sources[lists[i].target] = lists[i].list
        }
    }

    /// The lists of the pairs' targets, each taken out of the dictionary once (in the order
    /// their targets first appear; a target without a list gets an empty one when `creating`),
    /// and each pair's position among them (-1 for a pair whose target has none, when not
    /// `creating`). The caller puts the lists back.
    private mutating func takeLists(
        of pairs: [(target: Int64, source: Int64)], creating: Bool
    ) -> (lists: [(target: Int64, list: SourceList)], positions: [Int32]) {
        var lists: [(target: Int64, list: SourceList)] = []
        var positions: [Int32] = []
        positions.reserveCapacity(pairs.count)
        // Target key → its position in `lists` + 1 (0: not seen yet).
        var dense: [Int32] = []
        var position: [Int64: Int] = [:]
        let denseLimit = Int64(max(4096, pairs.count * 4))
        for pair in pairs {
            let isDense = pair.target >= 0 && pair.target < denseLimit
            var i: Int
            if isDense {
                let t = Int(pair.target)
                if t >= dense.count {
                    dense.append(
                        contentsOf: repeatElement(0, count: max(t + 1 - dense.count, dense.count)))
                }
                i = Int(dense[t]) - 1
            } else {
                i = position[pair.target] ?? -1
            }
            if i < 0 {
                guard
                    let list = sources.removeValue(forKey: pair.target)
                        ?? (creating ? SourceList() : nil)
                else {
                    positions.append(-1)
                    continue
                }
                i = lists.count
                lists.append((pair.target, list))
                if isDense {
                    dense[Int(pair.target)] = Int32(i + 1)
                } else {
                    position[pair.target] = i
                }
            }
            positions.append(Int32(truncatingIfNeeded: i))
        }
        return (lists, positions)
    }

    /// The sources pointing at `target`, in primary-key order, as IDs of the scopes `scopes`
    /// (the table's, by entity index: sources and targets live in one store).
    func sources(of target: Int64, scopes: [ObjectIDScope]) -> [ManagedObjectID] {
        sources[target]?.members(scopes: scopes) ?? []
    }

    /// Calls `body` with the entity index and primary key of each source pointing at
    /// `target`, in primary-key order, without copying the list. With `entity`, every source
    /// is known to be of that entity and the sources' IDs are not read.
    func forEachSource(
        of target: Int64, entity: Int?, _ body: (_ entity: Int, _ key: Int64) -> Void
    ) {
        sources[target]?.forEachMember(entity: entity, body)
    }

    /// How many sources `target` lists at most (removed ones may still be counted).
    func sourceCount(of target: Int64) -> Int { sources[target]?.count ?? 0 }
}

/// One target's sources in primary-key order, with holes where sources were removed.
///
/// A source is kept as its key and its entity's index (12 bytes; the store is the table's),
/// not as a whole ``ManagedObjectID`` (32 bytes, optional or not): a to-one that every row
/// sets puts one entry per row in its index.
struct SourceList: Sendable {
    /// The entity index that marks a hole in ``entities``.
    private static let hole: Int32 = -1

    /// Ascending primary keys, holes included.
    private var keys: [Int64] = []
    /// The index of each key's source's entity in its model (`EntityDescription.index`), or
    /// ``hole`` for a hole.
    ///
    /// An index rather than the entity: the list holds no reference, so adding, moving and
    /// removing sources retains and releases nothing, and its storage is freed or cut short
    /// without a pass over its elements (cutting 500 removed sources off a list of entities
    /// destroyed each through the generic optional's witness, ≈ 70 instructions a source in
    /// a save deleting half of 20,000 rows). 4 bytes a source, where a reference took 8.
    private var entities: [Int32] = []
    private var holes = 0

    /// The number of slots, holes included.
    var count: Int { keys.count }

    /// The sources, in primary-key order, as IDs of `scopes` (a table's, by entity index).
    ///
    /// The lists and `scopes` are read through their buffers, in place: indexing the arrays
    /// retained and released each source's entity and its scope once more than the ID needs
    /// (≈ 45 instructions a source; validating a category's unloaded to-many reads every
    /// expense pointing at it this way).
    func members(scopes: [ObjectIDScope]) -> [ManagedObjectID] {
        var result: [ManagedObjectID] = []
        result.reserveCapacity(keys.count - holes)
        scopes.withUnsafeBufferPointer { scopes in
            keys.withUnsafeBufferPointer { keys in
                entities.withUnsafeBufferPointer { entities in
                    for i in keys.indices {
                        let index = Int(entities[i])
                        if index < 0 { continue }
                        // Checked in release builds too: an entity of another model traps
                        // rather than reading past the scopes.
                        precondition(index < scopes.count, "a source of an entity of another model")
                        result.append(ManagedObjectID(scope: scopes[index], primaryKey: keys[i]))
                    }
                }
            }
        }
        return result
    }

    /// Calls `body` with each source's entity index (`entity` when given, without reading the
    /// entities) and key, in order.
    func forEachMember(entity: Int?, _ body: (_ entity: Int, _ key: Int64) -> Void) {
        keys.withUnsafeBufferPointer { keys in
            entities.withUnsafeBufferPointer { entities in
                if let entity, holes == 0 {
                    for key in keys { body(entity, key) }
                    return
                }
                for i in keys.indices {
                    let source = Int(entities[i])
                    if source < 0 { continue }
                    body(entity ?? source, keys[i])
                }
            }
        }
    }

    mutating func reserveCapacity(_ n: Int) {
        keys.reserveCapacity(n)
        entities.reserveCapacity(n)
    }

    /// Adds `id`, or replaces the source with its key.
    mutating func add(_ id: ManagedObjectID) {
        add(key: id.primaryKey, entity: id.entity)
    }

    /// Adds the source of key `pk` and entity `entity`, or replaces the source with its key.
    ///
    /// - Precondition: `entity` is in a model (its index is not negative: a negative one
    ///   would read as a hole).
    mutating func add(key pk: Int64, entity: EntityDescription) {
        precondition(entity.index >= 0, "a source of an entity in no model")
        add(key: pk, entity: Int32(entity.index))
    }

    /// Adds the sources of keys `added` (any order), all of the entity of index
    /// `index`, as `add(key:entity:)` of each in turn: appended in
    /// bulk (two array appends, no per-key checks of the arrays) when they ascend and come
    /// after the list's last key, else added one by one.
    ///
    /// - Precondition: `index` is not negative (a negative one would read as a hole).
    mutating func add(keys added: UnsafeBufferPointer<Int64>, entity index: Int32) {
        precondition(index >= 0, "a source of an entity in no model")
        guard let first = added.first else { return }
        var ascending = keys.last.map { $0 < first } ?? true
        var j = 1
        while ascending && j < added.count {
            ascending = added[j - 1] < added[j]
            j += 1
        }
        guard ascending else {
            for pk in added { add(key: pk, entity: index) }
            return
        }
        keys.append(contentsOf: added)
        entities.append(contentsOf: repeatElement(index, count: added.count))
    }

    /// `add(key:entity:)` by the entity's index.
    private mutating func add(key pk: Int64, entity index: Int32) {
        if keys.isEmpty || keys[keys.count - 1] < pk {
            keys.append(pk)
            entities.append(index)
            return
        }
        let j = position(of: pk)
        if keys[j] == pk {
            if entities[j] == Self.hole { holes -= 1 }
            entities[j] = index
        } else {
            keys.insert(pk, at: j)
            entities.insert(index, at: j)
        }
    }

    /// Removes the source with key `pk`, if present.
    mutating func remove(_ pk: Int64) {
        guard !keys.isEmpty else { return }
        let j = position(of: pk)
        guard j < keys.count, keys[j] == pk, entities[j] != Self.hole else { return }
        entities[j] = Self.hole
        holes += 1
        if holes * 2 > keys.count { squeeze() }
    }

    /// Removes the sources whose keys are in `removed` (any order, duplicates allowed), as
    /// ``remove(_:)`` of each in turn would: the same sources are left, in the same order.
    /// When many leave at once the list is walked once beside the sorted keys and left
    /// without holes (a binary search, a hole and later a squeeze per source cost ≈ 310
    /// instructions a deleted row in a delete of half of 20,000); a few are removed one by one.
    ///
    /// - Complexity: O(`count` + *r* log *r*) for *r* keys removed, or O(*r* log `count`)
    ///   when *r* is small beside `count`.
    mutating func remove(keys removed: inout [Int64]) {
        guard !keys.isEmpty, !removed.isEmpty else { return }
        if removed.count * 16 < keys.count {
            for key in removed { remove(key) }
            return
        }
        var sorted = true
        for i in removed.indices.dropFirst() where removed[i - 1] > removed[i] {
            sorted = false
            break
        }
        if !sorted { removed.sort() }
        // Through buffer pointers: the arrays' subscripts checked uniqueness and bounds per
        // entry (≈ 150 instructions an entry when the entities were references, swapped
        // through the array with a retain and a release each).
        var kept = 0
        removed.withUnsafeBufferPointer { removed in
            keys.withUnsafeMutableBufferPointer { keys in
                entities.withUnsafeMutableBufferPointer { entities in
                    var r = 0
                    for i in 0..<keys.count {
                        let key = keys[i]
                        while r < removed.count && removed[r] < key { r += 1 }
                        if entities[i] == Self.hole || (r < removed.count && removed[r] == key) {
                            continue
                        }
                        if kept != i {
                            keys[kept] = key
                            entities[kept] = entities[i]
                        }
                        kept += 1
                    }
                }
            }
        }
        keys.removeSubrange(kept...)
        entities.removeSubrange(kept...)
        holes = 0
    }

    /// The first index whose key is at least `pk` (`count` when none).
    private func position(of pk: Int64) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < pk { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private mutating func squeeze() {
        var kept = 0
        for i in keys.indices where entities[i] != Self.hole {
            keys[kept] = keys[i]
            entities[kept] = entities[i]
            kept += 1
        }
        keys.removeSubrange(kept...)
        entities.removeSubrange(kept...)
        holes = 0
    }
}
