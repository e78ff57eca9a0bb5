/// Rows to insert in bulk (``RowTable/insertNew(_:)`` and its variants), in one or more runs of
/// memory taken in order: one array's, or the parts of a split read
/// (``RowTable/insertNew(movingParts:)``). A row's position is its position in the runs joined.
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

/// Inserting the rows of a split read straight from its parts.
extension RowTable {
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
}
