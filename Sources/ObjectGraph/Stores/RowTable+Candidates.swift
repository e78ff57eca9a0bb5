import Foundation

/// The rows a fetch needs to read, found through a reverse index, and the rest of the
/// predicate they must still pass.
struct IndexedCandidates {
    /// The slots by entity index, each list in primary-key order (the scan's order).
    let slots: [Int: [Int]]
    /// The predicate without the conjunct the candidates decide: every candidate passes
    /// that conjunct, and every row passing it is a candidate. `nil` when nothing remains.
    let remaining: PredicateNode?
}

extension RowTable {
    /// The only rows that can match `predicate`, found through the reverse index of a to-one,
    /// or `nil` to scan every row.
    ///
    /// Applies when the predicate is (or is an `AND` containing) a to-one key path test that
    /// is false for a nil destination, like `category.name == 'Food'`, and the to-one's
    /// inverse is a derived to-many (so the table indexes each destination's sources). The
    /// destinations are tested once each; the candidates are the sources of those that pass
    /// whose to-one holds that very destination (entity and key), by entity index, each list of
    /// slots in primary-key order (the scan's order). So the candidates are exactly the rows
    /// passing that conjunct, and only the other conjuncts (``IndexedCandidates/remaining``)
    /// are left to test. Used only when the destinations are few against the rows to scan and
    /// the candidates at most half of them.
    func indexedCandidates(
        _ predicate: CompiledPredicate, filter: RowFilter, entities: [EntityDescription],
        scannedRows: Int
    ) -> IndexedCandidates? {
        let conjuncts: [PredicateNode]
        if case .and(let nodes) = predicate.root {
            conjuncts = nodes
        } else {
            conjuncts = [predicate.root]
        }
        for (position, node) in conjuncts.enumerated() {
            guard case .toOne(let slot, let inner, false, _) = node,
                slot < predicate.entity.properties.count,
                let relationship = predicate.entity.properties[slot] as? RelationshipDescription,
                let owner = relationship.entity, let destination = relationship.destinationEntity,
                let index = reverse[SlotKey(entity: owner.index, slot: relationship.index)]
            else { continue }
            let targets = destination.selfAndDescendants
            let targetRows = targets.reduce(0) { $0 + entityTables[$1.index].liveCount }
            guard targetRows <= scannedRows / 8 else { continue }
            let passing = primaryKeys(of: targets, passing: filter.builder.make(inner))
            guard
                let slots = candidates(
                    pointingAt: passing, through: relationship, index: index,
                    entities: entities, limit: scannedRows / 2)
            else { return nil }
            var others = conjuncts
            others.remove(at: position)
            let remaining: PredicateNode? =
                others.isEmpty ? nil : others.count == 1 ? others[0] : .and(others)
            return IndexedCandidates(slots: slots, remaining: remaining)
        }
        return nil
    }

    /// The primary keys of the rows of `entities` that pass `test`.
    private func primaryKeys(of entities: [EntityDescription], passing test: (RowPointer) -> Bool)
        -> [DestinationKey]
    {
        var keys: [DestinationKey] = []
        for entity in entities {
            entityTables[entity.index].rows.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for slot in buffer.indices {
                    let row = base + slot
                    if case .none = row.pointee { continue }
                    if test(row) {
                        keys.append(
                            DestinationKey(
                                entity: entity.index, key: row.live.pointee.objectID.primaryKey))
                    }
                }
            }
        }
        return keys
    }

    /// The slots, by entity index, of the rows of `entities` whose to-one `relationship` holds
    /// one of `targets`, in primary-key order; `nil` when the index lists more than `limit`.
    ///
    /// The index lists each source by entity and key under its target's key; a source is
    /// looked up only in its own entity's table. When the destination has subentities a key
    /// alone does not name the target, so each listed row's to-one is read to check that it
    /// holds that very target (same entity and key): either way the candidates are exactly the
    /// rows pointing at a passing target, each once.
    private func candidates(
        pointingAt targets: [DestinationKey], through relationship: RelationshipDescription,
        index: ReverseIndex, entities: [EntityDescription], limit: Int
    ) -> [Int: [Int]]? {
        let tables = entityTables
        let slot = relationship.index
        let destinationHasSubentities =
            !(relationship.destinationEntity?.subentities.isEmpty ?? true)
        // A to-one whose entity has no sub- or superentities has sources of that entity alone.
        let soleSourceEntity = relationship.entity.flatMap {
            $0.superentity == nil && $0.subentities.isEmpty ? $0.index : nil
        }
        var position = [Int](repeating: -1, count: tables.count)
        for (p, entity) in entities.enumerated() { position[entity.index] = p }
        if let sole = soleSourceEntity, !destinationHasSubentities, position[sole] >= 0 {
            return candidates(
                ofSole: sole, pointingAt: targets, index: index,
                entity: entities[position[sole]], limit: limit)
        }
        var keyed: [[KeyedSlot]] = Array(repeating: [], count: entities.count)
        // Whether each entity's keys arrived strictly ascending: a target's sources are kept
        // in key order, so with one passing target they are already in the scan's order.
        var ascending = Array(repeating: true, count: entities.count)
        var total = 0
        for target in targets {
            var overflow = false
            index.forEachSource(of: target.key, entity: soleSourceEntity) { e, key in
                guard !overflow else { return }
                total += 1
                if total > limit {
                    overflow = true
                    return
                }
                let p = position[e]
                guard p >= 0, let found = tables[e].slotByKey[key] else { return }
                if destinationHasSubentities
                    && !Self.holds(target, tables[e].rows, at: found, slot: slot)
                {
                    return
                }
                if let last = keyed[p].last, last.key >= key { ascending[p] = false }
                keyed[p].append(KeyedSlot(key: key, slot: found))
            }
            if overflow { return nil }
        }
        var result: [Int: [Int]] = [:]
        for (position, entity) in entities.enumerated() where !keyed[position].isEmpty {
            result[entity.index] =
                ascending[position]
                ? keyed[position].map(\.slot)
                : inKeyOrder(keyed[position], entity: entity)
        }
        return result
    }

    /// ``candidates(pointingAt:through:index:entities:limit:)`` for a to-one whose sources are
    /// all of one entity, `entity` (index `e`), and whose destination has no subentities: each
    /// listed key names its row, so the keys are looked up in that entity's key map alone, into
    /// one list reserved for every listed source.
    private func candidates(
        ofSole e: Int, pointingAt targets: [DestinationKey], index: ReverseIndex,
        entity: EntityDescription, limit: Int
    ) -> [Int: [Int]]? {
        let map = entityTables[e].slotByKey
        var keyed: [KeyedSlot] = []
        keyed.reserveCapacity(
            Swift.min(targets.reduce(0) { $0 + index.sourceCount(of: $1.key) }, limit + 1))
        var ascending = true
        var lastKey = Int64.min
        var total = 0
        for target in targets {
            var overflow = false
            index.forEachSource(of: target.key, entity: e) { _, key in
                guard !overflow else { return }
                total += 1
                if total > limit {
                    overflow = true
                    return
                }
                guard let found = map[key] else { return }
                if lastKey >= key { ascending = false }
                lastKey = key
                keyed.append(KeyedSlot(key: key, slot: found))
            }
            if overflow { return nil }
        }
        if keyed.isEmpty { return [:] }
        return [e: ascending ? keyed.map(\.slot) : inKeyOrder(keyed, entity: entity)]
    }

    /// Whether the row at `found` holds `target` in its to-one `slot`.
    private static func holds(
        _ target: DestinationKey, _ rows: [StoreRow?], at found: Int, slot: Int
    ) -> Bool {
        guard case .toOne(let id?) = rows[found]?.values[slot] else { return false }
        return id.primaryKey == target.key && id.entity.index == target.entity
    }

    /// The slots of `keyed` in primary-key order, each once. In a table whose slots are in
    /// key order (rows appended by ascending key) the slots are marked in a bit set and read
    /// back in slot order; otherwise marked in a byte map over the hierarchy's key range when
    /// that range is small against the count, else sorted.
    private func inKeyOrder(_ keyed: [KeyedSlot], entity: EntityDescription) -> [Int] {
        var slots: [Int] = []
        slots.reserveCapacity(keyed.count)
        let table = entityTables[entity.index]
        if table.isSorted {
            var words = [UInt64](repeating: 0, count: (table.rows.count + 63) >> 6)
            for k in keyed { words[k.slot >> 6] |= 1 << UInt64(k.slot & 63) }
            for (w, word) in words.enumerated() where word != 0 {
                var bits = word
                while bits != 0 {
                    slots.append(w << 6 | bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
            }
            return slots
        }
        let range = nextPrimaryKey[entity.rootEntity.index]
        if range > 0 && range / 64 <= Int64(keyed.count)
            && keyed.allSatisfy({ $0.key >= 0 && $0.key < range })
        {
            var marks = [UInt8](repeating: 0, count: Int(range))
            for k in keyed { marks[Int(k.key)] = 1 }
            for key in marks.indices where marks[key] != 0 {
                if let slot = table.slotByKey[Int64(key)] { slots.append(slot) }
            }
            return slots
        }
        for k in keyed.sorted(by: { $0.key < $1.key }) where slots.last != k.slot {
            slots.append(k.slot)
        }
        return slots
    }
}

/// A destination row that passed the to-one's test: its entity index and primary key.
private struct DestinationKey {
    let entity: Int
    let key: Int64
}

/// A row's primary key and slot, for putting candidates in key order.
private struct KeyedSlot {
    let key: Int64
    let slot: Int
}
