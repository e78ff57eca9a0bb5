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

    /// Adds many sources of one entity at once (each pair a target's key and a source's key):
    /// each target's list is taken out of the dictionary once, filled, and put back. A target
    /// is found through a dense array of positions while keys are small (stores hand out keys
    /// from 1), else through a dictionary of positions.
    mutating func add(
        contentsOf pairs: [(target: Int64, source: Int64)], entity: EntityDescription
    ) {
        var lists: [(target: Int64, list: SourceList)] = []
        // Target key → its position in `lists` + 1 (0: not seen yet).
        var dense: [Int32] = []
        var position: [Int64: Int] = [:]
        let denseLimit = Int64(max(4096, pairs.count * 4))
        for pair in pairs {
            var i: Int
            if pair.target >= 0 && pair.target < denseLimit {
                let t = Int(pair.target)
                if t >= dense.count {
                    dense.append(
                        contentsOf: repeatElement(0, count: max(t + 1 - dense.count, dense.count)))
                }
                i = Int(dense[t]) - 1
                if i < 0 {
                    i = lists.count
                    dense[t] = Int32(i + 1)
                }
            } else {
                i = position[pair.target] ?? -1
                if i < 0 {
                    i = lists.count
                    position[pair.target] = i
                }
            }
            if i == lists.count {
                lists.append(
                    (pair.target, sources.removeValue(forKey: pair.target) ?? SourceList()))
            }
            lists[i].list.add(key: pair.source, entity: entity)
        }
        for entry in lists { sources[entry.target] = entry.list }
    }

    mutating func remove(_ source: ManagedObjectID, from target: Int64) {
        sources[target]?.remove(source.primaryKey)
    }

    /// Removes many sources at once (a save's deleted rows), each given by its key: as
    /// ``add(contentsOf:)`` does, each target's list is taken out of the dictionary once, not
    /// looked up (hashed, moved out and back) per source.
    mutating func remove(contentsOf pairs: [(target: Int64, source: Int64)]) {
        var lists: [(target: Int64, list: SourceList)] = []
        var position: [Int64: Int] = [:]
        for pair in pairs {
            var i = -1
            if lists.count <= Self.linearTargets {
                for k in lists.indices where lists[k].target == pair.target {
                    i = k
                    break
                }
            } else {
                i = position[pair.target] ?? -1
            }
            if i < 0 {
                guard let list = sources.removeValue(forKey: pair.target) else { continue }
                i = lists.count
                lists.append((pair.target, list))
                if lists.count > Self.linearTargets {
                    if position.isEmpty {
                        for (k, entry) in lists.enumerated() { position[entry.target] = k }
                    } else {
                        position[pair.target] = i
                    }
                }
            }
            lists[i].list.remove(pair.source)
        }
        for entry in lists { sources[entry.target] = entry.list }
    }

    /// Up to this many distinct targets in one ``remove(contentsOf:)`` batch are found by a
    /// linear scan, past them through a dictionary of positions.
    private static let linearTargets = 16

    /// The sources pointing at `target`, in primary-key order, as IDs of the store
    /// `storeIdentifier` (the table's: sources and targets live in one store).
    func sources(of target: Int64, store storeIdentifier: String) -> [ManagedObjectID] {
        sources[target]?.members(store: storeIdentifier) ?? []
    }

    /// Calls `body` with the entity index and primary key of each source pointing at
    /// `target`, in primary-key order, without copying the list. With `entity`, every source
    /// is known to be of that entity and the sources' IDs are not read.
    func forEachSource(
        of target: Int64, entity: Int?, _ body: (_ entity: Int, _ key: Int64) -> Void
    ) {
        sources[target]?.forEachMember(entity: entity, body)
    }
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

    /// The sources, in primary-key order, as IDs of the store `storeIdentifier`.
    func members(store storeIdentifier: String) -> [ManagedObjectID] {
        var result: [ManagedObjectID] = []
        result.reserveCapacity(keys.count - holes)
        for i in keys.indices {
            if let entity = entities[i] {
                result.append(
                    ManagedObjectID(
                        entity: entity, storeIdentifier: storeIdentifier, primaryKey: keys[i]))
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
