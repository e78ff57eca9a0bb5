import Foundation

extension JSONLinesStore: RowBatchUpdatingStore {
    /// Runs a batch update on the rows: plans it on the current rows (every new value
    /// computed first, so a value that does not fit writes nothing, and which slots each row
    /// really changes), appends it as one transaction line, then writes the new values into
    /// the rows where they are. The line is a batch line (format version 6, ``BatchLine``:
    /// the rows as key runs and the assignments, which readers evaluate again) when the
    /// update's assignments are constants or `double` arithmetic that give the plan's values
    /// bit for bit; otherwise the line a save of the same patches writes (partial rows
    /// carrying the attributes whose values change), written straight from the plan.
    /// History and pinned query generations are served from the plan as for a save's patches.
    /// The rows come from the table under the writer lock, so there is no version or
    /// reference to check.
    func batchUpdate(_ update: RowBatchUpdate) throws -> [ManagedObjectID] {
        PausePoints.reach("commit.start")
        return try locked {
            guard file != nil else { throw StoreFileErrors.closed(path) }
            guard let writerLock else {
                // A reader: refused only when something would change, as a save would be.
                try refreshIfNeeded()
                if isReadOnly, try !table.plan(update).isEmpty { throw StoreErrors.readOnly(url) }
                return []
            }
            return try writerLock.serializingWrites {
                try catchUpWithSharers()
                let plan = try table.plan(update, findingChanges: true)
                if plan.isEmpty { return [] }
                if isReadOnly { throw StoreErrors.readOnly(url) }
                if isBroken { throw StoreFileErrors.unusable(path) }
                return try append(plan, of: update)
            }
        }
    }
}

extension JSONLinesStore {
    /// Appends a batch update's `plan` (planned on the current rows with `findingChanges`) as
    /// the next transaction line, then writes it into the rows in place; on a failed write or
    /// sync no row changes. The line is a batch line when ``BatchLine`` can record the update
    /// (and ``writesBatchLines``), else the one a save of the same updates as patches writes
    /// (``append(_:applying:)``), made from the plan's flat values without a patch per row;
    /// history's record and a pinned generation's before-images are made from the plan only
    /// when something keeps them. Returns the updated IDs. The caller holds `lock` and the
    /// writer lock, and has caught up with the other writers.
    func append(_ plan: RowBatchPlan, of update: RowBatchUpdate) throws -> [ManagedObjectID] {
        // The update itself when a reader can evaluate it again exactly (version 6), else
        // its partial rows.
        let line = writesBatchLines ? BatchLine(update, plan, table: table) : nil
        var ids: [ManagedObjectID] = []
        try appendLine(
            timestamp: update.timestamp, author: update.author, contextName: update.contextName,
            history: { number in
                StoreHistoryTransaction(
                    number: number, timestamp: update.timestamp, author: update.author,
                    contextName: update.contextName, changes: table.historyChanges(plan))
            },
            members: { codec, w, runs in
                if let line {
                    try codec.write(line, to: w)
                    return (0, 0)
                }
                w.append(ascii: ",\"upd\":[")
                let size = try codec.write(plan, of: table, to: w, runs: &runs, member: "upd")
                w.append(0x5D)
                return (0, size)
            },
            liveDelta: { codec in liveDelta(of: plan, codec: codec, allPartial: line != nil) },
            willApply: { generations.didChange(before: table.beforeImages(of: plan)) },
            applying: { ids = $0.apply(plan) },
            compacting: { sizes in
                compactAutomaticallyIfNeeded(liveAtLeast: sizes.inserted + sizes.updated) {
                    partiallyWrittenLowerBound(of: plan, allPartial: line != nil)
                }
            })
        return ids
    }

    /// How much the live rows' snapshot size changes by `plan`'s rows written partially (their
    /// changed values and their version, one higher), and minus the old size of those
    /// written complete (whose new size the line's writing counts); with `allPartial` (a batch
    /// line, which writes no row), every row counts by its changed values. The caller holds
    /// `lock`; the rows are as before the update.
    private func liveDelta(of plan: RowBatchPlan, codec: RowCodec, allPartial: Bool) -> Int {
        var delta = 0
        var entities = EntityIndexMemo()
        for (i, ref) in plan.refs.enumerated() {
            let old = table.entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped
            let entityIndex = entities.index(of: old.objectID)
            let change = plan.changes[Int(plan.changeOf[i])]
            guard
                allPartial
                    || codec.writesPartially(changed: change.slots.count, entityIndex: entityIndex)
            else {
                delta -= snapshotSize(of: old.objectID)
                continue
            }
            delta +=
                codec.valueBytes(
                    changed: change.slots, entityIndex: entityIndex, using: measurer,
                    value: { k, _ in plan.value(row: i, position: change.positions[k]) })
                - codec.valueBytes(
                    of: old, changed: change.slots, entityIndex: entityIndex, using: measurer)
                + Self.versionGrowth(from: old.version, to: old.version + 1)
        }
        return delta
    }

    /// A lower bound of the snapshot size of `plan`'s rows written partially (live rows the
    /// line's size does not count; with `allPartial`, every row), once the plan is applied.
    /// The caller holds `lock`.
    private func partiallyWrittenLowerBound(of plan: RowBatchPlan, allPartial: Bool) -> Int {
        let codec = self.codec  // one copy, not one per row (see `appendLine`)
        var total = 0
        var entities = EntityIndexMemo()
        for (i, ref) in plan.refs.enumerated() {
            let row = table.entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped
            let entityIndex = entities.index(of: row.objectID)
            let change = plan.changes[Int(plan.changeOf[i])]
            guard
                allPartial
                    || codec.writesPartially(changed: change.slots.count, entityIndex: entityIndex)
            else { continue }
            total += codec.snapshotSizeLowerBound(of: row, entityIndex: entityIndex)
        }
        return total
    }
}
