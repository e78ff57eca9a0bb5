import Foundation

/// Inserting many new rows at once (log replay, snapshot loading, a save's inserts).
extension RowTable {
    /// Inserts rows none of which is in the table yet, in bulk, copying them (a save's
    /// inserts, replays that keep a transaction log, and the rows before a snapshot's clash;
    /// log replay otherwise moves them with ``insertNew(moving:)``): the table ends up
    /// exactly as after inserting them one by one, in order — rows, their order, the reverse
    /// index and the primary-key counters — but capacity is reserved once and the reverse
    /// index is filled target by target.
    ///
    /// - Returns: The position in `rows` of the first row whose object is in the table
    ///   already (or earlier in `rows`); the table is then left unchanged. `nil` when every
    ///   row was inserted.
    /// - Complexity: O(`rows.count`).
    mutating func insertNew(_ rows: [StoreRow]) -> Int? {
        guard !rows.isEmpty else { return nil }
        return rows.withUnsafeBufferPointer { rows -> Int? in
            var placed = PlacedKeys()
            let runs = RowRuns([rows])
            if let clash = placeKeys(of: runs, into: &placed) { return clash }
            // Each row copied into its entity's table, in order.
            for k in placed.tables.indices {
                let tag = Int32(truncatingIfNeeded: placed.tables[k].entity)
                for i in 0..<rows.count where placed.entityOf[i] == tag {
                    placed.tables[k].table.rows.append(rows[i])
                }
            }
            finish(placed, runs)
            return nil
        }
    }

    /// ``insertNew(_:)`` that takes the rows out of `rows` instead of copying them: each row
    /// is moved into its table, so its ID and values are neither retained on the way in nor
    /// released when `rows` goes (two of each a row, on the one thread that replays a
    /// file, plus a pass over every row's storage when the caller's array is freed).
    ///
    /// - Parameter rows: The rows to insert; empty on return when they were inserted, as
    ///   given when a row clashes. Held only by the caller, or the first row taken copies
    ///   the whole array (correct, only slower).
    /// - Returns: What ``insertNew(_:)`` returns; the table ends up as it leaves it.
    mutating func insertNew(moving rows: inout [StoreRow]) -> Int? {
        guard !rows.isEmpty else { return nil }
        var placed = PlacedKeys()
        let clash = rows.withUnsafeBufferPointer { rows -> Int? in
            let runs = RowRuns([rows])
            if let clash = placeKeys(of: runs, into: &placed) { return clash }
            finish(placed, runs, restoringTables: false)
            return nil
        }
        if let clash { return clash }
        // The rows reversed in place (moves, no copies), then taken from the back, each
        // appended to its table: `popLast()` moves a row out, where reading it from the array
        // copies it.
        // Each run of rows of one entity is appended to that table's rows taken out into a
        // local array (swapped out, so unique): no access through `placed.tables` a row.
        var tableOf = [Int](repeating: -1, count: entityTables.count)
        for k in placed.tables.indices { tableOf[placed.tables[k].entity] = k }
        rows.reverseThroughBuffer()
        let count = rows.count
        var current = -1
        var destination: [StoreRow?] = []
        let entityOf = placed.entityOf
        entityOf.withUnsafeBufferPointer { entityOf in
            while let row = rows.popLast() {
                let k = tableOf[Int(entityOf[count - 1 - rows.count])]
                if k != current {
                    if current >= 0 { swap(&destination, &placed.tables[current].table.rows) }
                    current = k
                    swap(&destination, &placed.tables[k].table.rows)
                }
                destination.append(consume row)
            }
        }
        if current >= 0 { swap(&destination, &placed.tables[current].table.rows) }
        for (e, table, _) in placed.tables { entityTables[e] = table }
        return nil
    }

    /// ``insertNew(moving:)`` for rows still in the parts a split read left them in
    /// (`RowCodec.readRowsInParts`), taken in order as if joined: each row is moved once,
    /// from its part into its entity's table, with no joined array between (neither its
    /// memory nor the moves into and out of it). The table ends up exactly as
    /// ``insertNew(_:)`` leaves it given the parts' rows joined into one array.
    ///
    /// - Parameter parts: The rows to insert; empty on return when they were inserted, as given
    ///   when a row clashes.
    /// - Returns: What ``insertNew(_:)`` returns for the rows joined (a position counts the
    ///   rows of the parts before); the table is then left unchanged.
    mutating func insertNew(movingParts parts: [PartRows<StoreRow>]) -> Int? {
        let runs = RowRuns(parts.map { UnsafeBufferPointer($0.storage.elements) })
        guard runs.count > 0 else { return nil }
        var placed = PlacedKeys()
        if let clash = placeKeys(of: runs, into: &placed) { return clash }
        finish(placed, runs, restoringTables: false)
        // Each run of rows of one entity is appended to that table's rows taken out into a
        // local array (swapped out, so unique), as `insertNew(moving:)` does; each row is
        // moved out of its part's memory, which then forgets it (its part frees no row).
        var tableOf = [Int](repeating: -1, count: entityTables.count)
        for k in placed.tables.indices { tableOf[placed.tables[k].entity] = k }
        var current = -1
        var destination: [StoreRow?] = []
        var offset = 0
        placed.entityOf.withUnsafeBufferPointer { entityOf in
            for part in parts {
                let run = part.storage.elements
                guard let base = run.baseAddress else { continue }
                for j in 0..<run.count {
                    let k = tableOf[Int(entityOf[offset &+ j])]
                    if k != current {
                        if current >= 0 { swap(&destination, &placed.tables[current].table.rows) }
                        current = k
                        swap(&destination, &placed.tables[k].table.rows)
                    }
                    destination.append((base + j).move())
                }
                part.storage.forgetMovedElements()
                offset += run.count
            }
        }
        if current >= 0 { swap(&destination, &placed.tables[current].table.rows) }
        for (e, table, _) in placed.tables { entityTables[e] = table }
        return nil
    }

    /// The tables of the entities new rows belong to, moved out of `entityTables` (unique, so
    /// never copied) with the rows' keys placed in their key maps, and what finishing the
    /// insert needs.
    ///
    /// Filled in place by its maker (`placeKeys(of:into:)`) and read in place by its user: a
    /// copy would share the tables' arrays, and the first row appended would then copy a
    /// whole table.
    struct PlacedKeys {
        /// Each row's entity index.
        var entityOf: [Int32] = []
        /// The number of rows of each entity, by entity index.
        var counts: [Int] = []
        /// Each entity with rows: its table (keys placed; rows not yet appended) and its
        /// greatest new key.
        var tables: [(entity: Int, table: EntityTable, maxKey: Int64)] = []
    }

    /// Places the keys of `rows` in their entities' key maps, each at the slot its row will
    /// take when appended in order (with the live count, order and last key as appending the
    /// rows one by one leaves them), the tables moved into `placed`; or finds the first clash
    /// and leaves the table unchanged.
    ///
    /// Each entity's key map grows once to the entity's greatest new key (within its dense
    /// range), not by half again as keys arrive. On a clash that growth stays (keys read as
    /// absent; no result changes): up to the dense range's bound of free slots, where
    /// placing the keys one by one grew only up to the keys before the clash.
    ///
    /// - Returns: The position of the first row whose key is in the table or earlier in
    ///   `rows` (nothing changed), or `nil` when every key is placed.
    private mutating func placeKeys(of rows: RowRuns, into placed: inout PlacedKeys) -> Int? {
        // Each row's entity index, read once: the passes below compare integers, not entities
        // (and never copy a row's ID, whose two references a copy would retain). A row's
        // entity is looked up only where its ID's scope changes (`entity` retained the
        // entity, and the comparison the scope, twice a row), and each entity's row count and
        // key range are counted through their buffer (no uniqueness check a row).
        var stats = [(count: Int, minKey: Int64, maxKey: Int64)](
            repeating: (0, .max, 0), count: entityTables.count)
        let entityOf = [Int32](unsafeUninitializedCapacity: rows.count) { buffer, initialized in
            stats.withUnsafeMutableBufferPointer { stats in
                var lastScope: ObjectIdentifier?
                var lastIndex = 0
                var offset = 0
                for run in rows.runs {
                    for j in 0..<run.count {
                        let scope = ObjectIdentifier(run[j].objectID.scope)
                        if scope != lastScope {
                            lastScope = scope
                            lastIndex = run[j].objectID.entity.index
                            precondition(
                                lastIndex >= 0 && lastIndex < stats.count,
                                "a row of an entity of another model")
                        }
                        buffer[offset &+ j] = Int32(truncatingIfNeeded: lastIndex)
                        let pk = run[j].objectID.primaryKey
                        stats[lastIndex].count += 1
                        stats[lastIndex].maxKey = max(stats[lastIndex].maxKey, pk)
                        stats[lastIndex].minKey = min(stats[lastIndex].minKey, pk)
                    }
                    offset += run.count
                }
            }
            initialized = rows.count
        }
        let counts = stats.map(\.count)
        let maxKeys = stats.map(\.maxKey)
        let minKeys = stats.map(\.minKey)
        typealias Before = (live: Int, sorted: Bool, lastKey: Int64)
        var tables: [(entity: Int, table: EntityTable, maxKey: Int64)] = []
        var befores: [Before] = []
        var placedCounts: [Int] = []
        var clash: Int?
        for e in counts.indices where counts[e] > 0 {
            var table = entityTables[e]
            entityTables[e] = EntityTable()
            befores.append((table.liveCount, table.isSorted, table.lastKey))
            table.rows.reserveCapacity(table.rows.count + counts[e])
            table.slotByKey.reserveDense(through: maxKeys[e])
            let tag = Int32(truncatingIfNeeded: e)
            if let (placedHere, found) = Self.placeDensely(
                rows, entityOf, tag: tag, keys: minKeys[e]...maxKeys[e], count: counts[e],
                in: &table)
            {
                if let found { clash = min(clash ?? found, found) }
                placedCounts.append(placedHere)
                tables.append((e, table, maxKeys[e]))
                continue
            }
            var slot = table.rows.count
            var offset = 0
            scan: for run in rows.runs {
                for j in 0..<run.count where entityOf[offset &+ j] == tag {
                    let pk = run[j].objectID.primaryKey
                    if table.slotByKey[pk] != nil {
                        clash = min(clash ?? offset &+ j, offset &+ j)
                        break scan
                    }
                    Self.place(pk, at: slot, in: &table)
                    slot += 1
                }
                offset += run.count
            }
            placedCounts.append(slot - table.rows.count)
            tables.append((e, table, maxKeys[e]))
        }
        guard let clash else {
            placed.entityOf = entityOf
            placed.counts = counts
            placed.tables = tables
            return nil
        }
        // Every key placed comes out again: a clash is a key found in the map, so no key the
        // table held before was placed over.
        for k in tables.indices {
            // Taken out of `tables`, so that clearing its keys does not copy its key map.
            let e = tables[k].entity
            var table = tables[k].table
            tables[k].table = EntityTable()
            var left = placedCounts[k]
            let tag = Int32(truncatingIfNeeded: e)
            var offset = 0
            for run in rows.runs {
                for j in 0..<run.count where left > 0 && entityOf[offset &+ j] == tag {
                    table.slotByKey[run[j].objectID.primaryKey] = nil
                    left -= 1
                }
                offset += run.count
            }
            (table.liveCount, table.isSorted, table.lastKey) = befores[k]
            entityTables[e] = table
        }
        return clash
    }

    /// Finishes an insert whose keys are placed and whose rows are appended (or about to be,
    /// when not `restoringTables`): the tables go back into `entityTables` (when
    /// `restoringTables`), the primary-key counters rise past the new keys, and each indexed
    /// to-one's reverse index gains the rows' targets.
    private mutating func finish(
        _ placed: PlacedKeys, _ rows: RowRuns, restoringTables: Bool = true
    ) {
        for (e, table, maxKey) in placed.tables {
            if restoringTables { entityTables[e] = table }
            let entity = model.entities[e]
            reservePrimaryKeys(for: entity, upTo: maxKey == .max ? maxKey : maxKey + 1)
            let tag = Int32(truncatingIfNeeded: e)
            for (key, slot) in indexedSlots[e] {
                // Keys only: every source is of `entity`, and the store is the table's.
                var pairs: [(target: Int64, source: Int64)] = []
                pairs.reserveCapacity(placed.counts[e])
                var offset = 0
                for run in rows.runs {
                    for j in 0..<run.count where placed.entityOf[offset &+ j] == tag {
                        let target = run[j].values.withUnsafeBufferPointer { values -> Int64? in
                            if case .toOne(let target?) = values[slot] { return target.primaryKey }
                            return nil
                        }
                        if let target { pairs.append((target, run[j].objectID.primaryKey)) }
                    }
                    offset += run.count
                }
                reverse[key]!.add(contentsOf: consume pairs, entity: entity)
            }
        }
    }

    /// Places the keys of the rows of entity index `tag` (`count` rows, keys within `keys`) in
    /// `table`'s key map as `placeKeys(of:into:)` does one by one, in one pass through the
    /// map's dense slots (no range, growth or uniqueness check a key), stopping at the first
    /// key found there (in the table, or earlier in `rows`).
    ///
    /// - Returns: How many keys were placed, and the position of the row whose key was found
    ///   (`nil` when none was); or `nil`, with nothing placed, when the keys are not all in
    ///   the map's dense array or the slots would not fit it.
    private static func placeDensely(
        _ rows: RowRuns, _ entityOf: [Int32], tag: Int32,
        keys: ClosedRange<Int64>, count: Int, in table: inout EntityTable
    ) -> (placed: Int, clash: Int?)? {
        let first = table.rows.count
        guard first + count < Int(Int32.max) else { return nil }
        var (lastKey, isSorted, slot) = (table.lastKey, table.isSorted, first)
        var clash: Int?
        let done: Void? = table.slotByKey.withDenseSlots(covering: keys) { dense in
            entityOf.withUnsafeBufferPointer { entityOf in
                var offset = 0
                for run in rows.runs {
                    for j in 0..<run.count where entityOf[offset &+ j] == tag {
                        let pk = run[j].objectID.primaryKey
                        let k = Int(truncatingIfNeeded: pk)
                        if dense[k] >= 0 {
                            clash = offset &+ j
                            return
                        }
                        if pk <= lastKey { isSorted = false } else { lastKey = pk }
                        dense[k] = Int32(truncatingIfNeeded: slot)
                        slot += 1
                    }
                    offset += run.count
                }
            }
        }
        guard done != nil else { return nil }
        (table.lastKey, table.isSorted) = (lastKey, isSorted)
        table.liveCount += slot - first
        return (slot - first, clash)
    }

    /// Records a new row's key `pk` at row slot `slot`: key map, order, live count (not the
    /// row itself, nor the reverse index or the key counters).
    static func place(_ pk: Int64, at slot: Int, in table: inout EntityTable) {
        if pk <= table.lastKey {
            table.isSorted = false
        } else {
            table.lastKey = pk
        }
        table.slotByKey[pk] = slot
        table.liveCount += 1
    }
}

/// Rows to insert in bulk (``RowTable/insertNew(_:)`` and its variants), in one or more runs of
/// memory taken in order: one array's, or the parts of a split read
/// (``RowTable/insertNew(movingParts:)``). A row's position is its position in the runs joined.
///
/// The buffers are valid only while their memory is unchanged: a `RowRuns` never outlives the
/// call that made it.
struct RowRuns {
    /// The runs, in order.
    let runs: [UnsafeBufferPointer<StoreRow>]
    /// How many rows the runs hold together.
    let count: Int

    /// The rows of `runs`, in order.
    init(_ runs: [UnsafeBufferPointer<StoreRow>]) {
        self.runs = runs
        self.count = runs.reduce(0) { $0 + $1.count }
    }
}
