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
    mutating func add(
        contentsOf pairs: [(target: Int64, source: Int64)], entity: EntityDescription
    ) {
        withLists(of: pairs, creating: true) { list, source in
            list.add(key: source, entity: entity)
        }
    }

    mutating func remove(_ source: ManagedObjectID, from target: Int64) {
        sources[target]?.remove(source.primaryKey)
    }

    /// Removes many sources at once (a save's deleted rows), each given by its key, as
    /// ``remove(_:from:)`` of each in turn.
    mutating func remove(contentsOf pairs: [(target: Int64, source: Int64)]) {
        withLists(of: pairs, creating: false) { list, source in list.remove(source) }
    }

    /// Calls `body` with each pair's target list and source: each target's list is taken out
    /// of the dictionary once and put back at the end, not looked up (hashed, moved out and
    /// back) per pair. A target is found through a dense array of positions while keys are
    /// small (stores hand out keys from 1), else through a dictionary of positions. A target
    /// without a list gets an empty one when `creating`; otherwise its pairs are skipped.
    private mutating func withLists(
        of pairs: [(target: Int64, source: Int64)], creating: Bool,
        _ body: (inout SourceList, Int64) -> Void
    ) {
        var lists: [(target: Int64, list: SourceList)] = []
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
                else { continue }
                i = lists.count
                lists.append((pair.target, list))
                if isDense {
                    dense[Int(pair.target)] = Int32(i + 1)
                } else {
                    position[pair.target] = i
                }
            }
            body(&lists[i].list, pair.source)
        }
        for entry in lists { sources[entry.target] = entry.list }
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
/// A source is kept as its key and its entity (16 bytes; the store is the table's), not as a
/// whole ``ManagedObjectID`` (32 bytes, optional or not): a to-one that every row sets puts
/// one entry per row in its index.
struct SourceList: Sendable {
    /// Ascending primary keys, holes included.
    private var keys: [Int64] = []
    /// The entity of each key's source, `nil` for a hole.
    private var entities: [EntityDescription?] = []
    private var holes = 0

    /// The number of slots, holes included.
    var count: Int { keys.count }

    /// The sources, in primary-key order, as IDs of `scopes` (a table's, by entity index).
    func members(scopes: [ObjectIDScope]) -> [ManagedObjectID] {
        var result: [ManagedObjectID] = []
        result.reserveCapacity(keys.count - holes)
        for i in keys.indices {
            if let entity = entities[i] {
                result.append(ManagedObjectID(scope: scopes[entity.index], primaryKey: keys[i]))
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
                    guard let source = entities[i] else { continue }
                    body(entity ?? source.index, keys[i])
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
    mutating func add(key pk: Int64, entity: EntityDescription) {
        if keys.isEmpty || keys[keys.count - 1] < pk {
            keys.append(pk)
            entities.append(entity)
            return
        }
        let j = position(of: pk)
        if keys[j] == pk {
            if entities[j] == nil { holes -= 1 }
            entities[j] = entity
        } else {
            keys.insert(pk, at: j)
            entities.insert(entity, at: j)
        }
    }

    /// Removes the source with key `pk`, if present.
    mutating func remove(_ pk: Int64) {
        guard !keys.isEmpty else { return }
        let j = position(of: pk)
        guard j < keys.count, keys[j] == pk, entities[j] != nil else { return }
        entities[j] = nil
        holes += 1
        if holes * 2 > keys.count { squeeze() }
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
        for i in keys.indices where entities[i] != nil {
            keys[kept] = keys[i]
            entities.swapAt(kept, i)
            kept += 1
        }
        keys.removeSubrange(kept...)
        entities.removeSubrange(kept...)
        holes = 0
    }
}
