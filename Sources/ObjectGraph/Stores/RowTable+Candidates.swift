import Foundation

extension RowTable {
    /// The only rows that can match `predicate`, found through the reverse index of a to-one,
    /// or `nil` to scan every row.
    ///
    /// Applies when the predicate is (or is an `AND` containing) a to-one key path test that
    /// is false for a nil destination, like `category.name == 'Food'`, and the to-one's
    /// inverse is a derived to-many (so the table indexes each destination's sources). The
    /// destinations are tested once each; the candidates are the sources of those that pass,
    /// by entity index, each list of slots in primary-key order (the scan's order). Every
    /// candidate still goes through the whole filter, so the index narrows the scan and never
    /// decides a match. Used only when the destinations are few against the rows to scan and
    /// the candidates at most half of them.
    func indexedCandidates(
        _ predicate: CompiledPredicate, filter: RowFilter, entities: [EntityDescription],
        scannedRows: Int
    ) -> [Int: [Int]]? {
        let conjuncts: [PredicateNode]
        if case .and(let nodes) = predicate.root {
            conjuncts = nodes
        } else {
            conjuncts = [predicate.root]
        }
        for node in conjuncts {
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
            return candidates(
                pointingAt: passing, index: index, entities: entities, limit: scannedRows / 2)
        }
        return nil
    }

    /// The primary keys of the rows of `entities` that pass `test`.
    private func primaryKeys(of entities: [EntityDescription], passing test: (RowPointer) -> Bool)
        -> [Int64]
    {
        var keys: [Int64] = []
        for entity in entities {
            entityTables[entity.index].rows.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for slot in buffer.indices {
                    let row = base + slot
                    if case .none = row.pointee { continue }
                    if test(row) { keys.append(row.live.pointee.objectID.primaryKey) }
                }
            }
        }
        return keys
    }

    /// The slots, by entity index, of the rows of `entities` that the index lists as sources
    /// of `targets`, in primary-key order; `nil` when there are more than `limit`.
    ///
    /// The sources are of the to-one's entity hierarchy, whose primary keys are unique, so a
    /// key names one row among the fetched entities (every row with the key is taken, and
    /// each once, so a table breaking that rule still yields a superset of the matches).
    private func candidates(
        pointingAt targets: [Int64], index: ReverseIndex, entities: [EntityDescription],
        limit: Int
    ) -> [Int: [Int]]? {
        let tables = entityTables
        var keyed: [[KeyedSlot]] = Array(repeating: [], count: entities.count)
        // Whether each entity's keys arrived strictly ascending: a target's sources are kept
        // in key order, so with one passing target they are already in the scan's order.
        var ascending = Array(repeating: true, count: entities.count)
        var total = 0
        for target in targets {
            guard let keys = index.sourceKeys(of: target) else { continue }
            total += keys.count
            if total > limit { return nil }
            for key in keys {
                for (position, entity) in entities.enumerated() {
                    if let slot = tables[entity.index].slotByKey[key] {
                        if let last = keyed[position].last, last.key >= key {
                            ascending[position] = false
                        }
                        keyed[position].append(KeyedSlot(key: key, slot: slot))
                    }
                }
            }
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

/// A row's primary key and slot, for putting candidates in key order.
private struct KeyedSlot {
    let key: Int64
    let slot: Int
}
