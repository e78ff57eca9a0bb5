import Foundation

extension JSONLinesStore {
    /// Appends one save to the file, then applies it to the rows: all of it or none of it.
    ///
    /// The changes are checked against the current rows, encoded as one line and written at
    /// the end of the file (a line of many rows as it is encoded, so that it is never whole
    /// in memory; it counts only once its final LF is written); with ``SynchronousMode/full`` (the
    /// default) the file is synced before this returns. If the write or the sync fails, the
    /// file is truncated back to its previous length, the rows are untouched, and a retry
    /// may succeed once the fault clears. A save with no changes writes nothing. Afterwards
    /// the store may compact itself (see ``StoreOptions/automaticCompaction``); a failed
    /// automatic compaction does not fail the save and is reported in ``recoveryNotices``.
    ///
    /// - Throws: ``ObjectGraphError`` — `.storeSaveConflict` (134050) when a row's version
    ///   is not the expected one or an inserted ID exists; `.danglingReference` (1550) when a
    ///   written reference's target row will not exist (see ``PersistentStore/commit(_:)``);
    ///   `.invalidStoreRow` (134030) when a value does not fit its attribute;
    ///   `.storeWriteFailed` (134030) when the write or sync fails; `.storeUnusable` (134030)
    ///   after a write that could not be undone; `.readOnlyStore` (134030) when the store is
    ///   read-only; `.storeClosed` (134070) when it is closed.
    /// - Complexity: O(size of the changes), plus a compaction now and then.
    public func commit(_ changes: StoreChangeSet) throws {
        var changes = changes
        try commit(&changes, moving: false)
    }

    /// ``StagedCommitting/commit(movingRows:)``: ``commit(_:)``, the inserted rows moved
    /// into the table once the line is written.
    func commit(movingRows changes: inout StoreChangeSet) throws {
        try commit(&changes, moving: true)
    }

    /// ``commit(_:)`` and ``commit(movingRows:)``: under the store's lock, a closed,
    /// read-only or unusable store refused; then, unless the change set is empty, once no
    /// other store of this process that shares the writer lock writes, catches up with what
    /// they wrote, checks `changes` and appends them; `moving`: the inserted rows are moved
    /// out of `changes` into the table.
    private func commit(_ changes: inout StoreChangeSet, moving: Bool) throws {
        PausePoints.reach("commit.start")
        try locked {
            guard file != nil else { throw StoreFileErrors.closed(path) }
            if isReadOnly { throw StoreErrors.readOnly(url) }
            if isBroken { throw StoreFileErrors.unusable(path) }
            guard !changes.isEmpty, let writerLock else { return }
            try writerLock.serializingWrites {
                try catchUpWithSharers()
                try table.check(changes)
                try append(&changes) { table, changes in
                    if moving {
                        table.applyUnchecked(moving: &changes)
                    } else {
                        table.applyUnchecked(changes)
                    }
                }
            }
        }
    }

    /// ``StagedCommitting/withStagedCommit(_:_:)``: under the store's lock and the writer
    /// lock, catches up with the other writers, checks `changes` and encodes them as the next
    /// transaction line; `body` then writes it (``StagedCommit/write``), may take it back
    /// (``StagedCommit/undo``: the file truncated to where it ended) and applies it to the
    /// rows (``StagedCommit/apply``), all before the locks are released.
    ///
    /// - Throws: what ``commit(_:)`` throws before writing (closed, read-only, unusable, a
    ///   conflict, a dangling reference, a value that does not fit), and what `body` throws.
    func withStagedCommit<R>(_ changes: StoreChangeSet, _ body: (StagedCommit) throws -> R)
        throws -> R
    {
        PausePoints.reach("commit.start")
        return try locked {
            guard file != nil else { throw StoreFileErrors.closed(path) }
            if isReadOnly { throw StoreErrors.readOnly(url) }
            if isBroken { throw StoreFileErrors.unusable(path) }
            guard !changes.isEmpty, let writerLock else { return try body(.nothing) }
            return try writerLock.serializingWrites {
                // A line not applied (another store failed) is not kept in the buffer.
                defer { writer.reset() }
                try catchUpWithSharers()
                try table.check(changes)
                let encoded = try encodeAppend(changes)
                return try body(
                    StagedCommit(
                        write: { try self.writeEncodedLine() },
                        keptAfterFailedWrite: { self.failedLineStayed },
                        undo: { self.undoEncodedLine() },
                        apply: {
                            var changes = changes
                            self.finishAppend(&changes, encoded) { $0.applyUnchecked($1) }
                        }))
            }
        }
    }

    /// Appends `changes`, already checked against the rows, as the next transaction line
    /// (updated rows written partially where ``partialUpdates(_:)`` says), then `apply`s them
    /// to the rows (`apply` may take rows out of `changes`); on a failed write nothing is
    /// applied. The caller holds `lock` and the writer lock, and has caught up with the other
    /// writers.
    func append(
        _ changes: inout StoreChangeSet,
        applying apply: (inout RowTable, inout StoreChangeSet) -> Void
    ) throws {
        let encoded = try spilling { try encodeAppend(changes) }
        try writeEncodedLine()
        finishAppend(&changes, encoded, applying: apply)
    }

    /// What ``encodeAppend(_:)`` decided for a change set's line, for
    /// ``finishAppend(_:_:applying:)``.
    struct EncodedAppend {
        var line: EncodedLine
        var changedSlots: [[Int]?]?
        var patchWrites: PatchWrites
    }

    /// Encodes `changes` (checked) as the next transaction line in `writer`, updated rows
    /// written partially where ``partialUpdates(_:)`` says. The caller holds `lock` and the
    /// writer lock, and has caught up with the other writers.
    func encodeAppend(_ changes: StoreChangeSet) throws -> EncodedAppend {
        let changedSlots = partialUpdates(changes.updated)
        let patchWrites = patchWrites(changes.patched)
        let line = try encodeLine(
            timestamp: changes.timestamp, author: changes.author, contextName: changes.contextName,
            history: { number in
                StoreHistoryTransaction(
                    committing: changes, number: number, oldRow: { table.row(for: $0) })
            },
            members: { codec, w, runs in
                try TransactionLine.writeMembers(
                    changes, codec: codec, changedSlots: changedSlots, patchWrites: patchWrites,
                    to: w, runs: &runs)
            },
            liveDelta: { codec in
                liveDelta(
                    of: changes, partial: changedSlots, patchWrites: patchWrites, codec: codec)
            })
        return EncodedAppend(line: line, changedSlots: changedSlots, patchWrites: patchWrites)
    }

    /// Applies a change set whose line ``writeEncodedLine()`` wrote: the file's bookkeeping,
    /// `apply` on the rows, then automatic compaction if it is due.
    func finishAppend(
        _ changes: inout StoreChangeSet, _ encoded: EncodedAppend,
        applying apply: (inout RowTable, inout StoreChangeSet) -> Void
    ) {
        let changedSlots = encoded.changedSlots
        let patchWrites = encoded.patchWrites
        finishLine(
            encoded.line,
            willApply: { generations.willApply(changes, to: table) },
            applying: { apply(&$0, &changes) },
            compacting: { sizes in
                compactAutomaticallyIfNeeded(
                    liveAtLeast: sizes.inserted + sizes.updated,
                    partiallyUpdated: changedSlots == nil ? [] : changes.updated,
                    patched: options.automaticCompaction
                        ? zip(changes.patched, patchWrites).filter { $0.1.complete == nil }.map(
                            \.0.objectID)
                        : [])
            })
    }

    /// The core of every append: writes one transaction line whose change members `members`
    /// writes (returning the snapshot sizes of the rows it wrote complete, inserted and
    /// updated), writes it at the end of the file and syncs it, then `apply`s the change to
    /// the rows; on a failed write or sync the file is truncated back and nothing is applied.
    ///
    /// The other closures are called only when needed: `history` (given the transaction's
    /// number) when the store tracks history, before the write, on the rows as they were;
    /// `liveDelta` when the live rows' size is known, before the write (how much it changes
    /// beyond the complete rows' sizes); `willApply` just before `apply`; `compacting` (given
    /// the sizes) last. The caller holds `lock` and the writer lock, and has caught up with
    /// the other writers.
    func appendLine(
        timestamp: Date, author: String?, contextName: String?,
        history: (Int64) -> StoreHistoryTransaction,
        members: (RowCodec, JSONByteWriter, inout [RowRun]) throws -> (inserted: Int, updated: Int),
        liveDelta: (RowCodec) -> Int,
        willApply: () -> Void,
        applying apply: (inout RowTable) -> Void,
        compacting: ((inserted: Int, updated: Int)) -> Void
    ) throws {
        let line = try spilling {
            try encodeLine(
                timestamp: timestamp, author: author, contextName: contextName, history: history,
                members: members, liveDelta: liveDelta)
        }
        try writeEncodedLine()
        finishLine(line, willApply: willApply, applying: apply, compacting: compacting)
    }

    /// A transaction line encoded in `writer` and not yet written: its history record, the
    /// sizes of the rows it writes complete, and how much it changes the live rows' size.
    struct EncodedLine {
        var record: StoreHistoryTransaction?
        var sizes: (inserted: Int, updated: Int)
        var delta: Int
    }

    /// ``appendLine``'s first step: encodes the line in `writer` (nothing is written, unless
    /// the writer spills: see ``spilling(_:)``). The
    /// caller holds `lock` and the writer lock, and has caught up with the other writers.
    func encodeLine(
        timestamp: Date, author: String?, contextName: String?,
        history: (Int64) -> StoreHistoryTransaction,
        members: (RowCodec, JSONByteWriter, inout [RowRun]) throws -> (inserted: Int, updated: Int),
        liveDelta: (RowCodec) -> Int
    ) throws -> EncodedLine {
        guard let file else { throw StoreFileErrors.closed(path) }
        try checkWriterLock()
        // One copy of the codec for the whole append: each method call on the stored `var`
        // copied the struct (a retain and a release of each of its arrays), twice per updated
        // row in the live-byte count.
        let codec = self.codec
        let counters = table.primaryKeyCounters
        let keys = model.entities.compactMap { entity -> (String, Int64)? in
            guard entity.superentity == nil, let next = counters[entity.name],
                next != recordedCounters[entity.name]
            else { return nil }
            return (entity.name, next)
        }
        writer.reset()
        guard file.lastTransaction < .max else {
            throw StoreFileErrors.failed(
                .storeWriteFailed, path, "has used up its transaction numbers; compact the file"
            )
        }
        let record = historyLog.map { _ in history(file.lastTransaction + 1) }
        let sizes = try TransactionLine.write(
            number: file.lastTransaction + 1, timestamp: timestamp, author: author,
            contextName: contextName, keys: keys,
            origin: record.map { ($0.bundleID, $0.processID) }, to: writer
        ) { w, runs in try members(codec, w, &runs) }
        let delta = liveRowBytes == nil ? 0 : sizes.inserted + sizes.updated + liveDelta(codec)
        return EncodedLine(record: record, sizes: sizes, delta: delta)
    }

    /// ``appendLine``'s last step, once the line is written: the file's bookkeeping, `apply`
    /// on the rows, the history record, the end record, then `compacting`.
    func finishLine(
        _ line: EncodedLine, willApply: () -> Void, applying apply: (inout RowTable) -> Void,
        compacting: ((inserted: Int, updated: Int)) -> Void
    ) {
        guard var file else { return }
        defer { writer.reset() }  // a large save's buffer is not kept
        file.length += writer.count
        file.lineCount += 1
        file.lastTransaction += 1
        file.transactionLines += 1
        self.file = file
        willApply()
        apply(&table)
        if let record = line.record { historyLog?.append(record, bytes: writer.count) }
        recordedCounters = table.primaryKeyCounters
        seenWrites = writerLock?.noteWrite() ?? seenWrites
        recordEnd()
        reportWrites()
        PausePoints.reach("commit.synced")
        if let live = liveRowBytes { liveRowBytes = live + line.delta }
        compacting(line.sizes)
    }

    /// ``appendLine``'s `liveDelta` for a change set: deleted rows' sizes off, and updated
    /// rows' changes (a partial row by its changed values and its version's length, a
    /// complete one by its old size).
    private func liveDelta(
        of changes: StoreChangeSet, partial changedSlots: [[Int]?]?, patchWrites: PatchWrites,
        codec: RowCodec
    ) -> Int {
        var liveDelta = -changes.deleted.reduce(0) { $0 + snapshotSize(of: $1.objectID) }
        for (k, row) in changes.updated.enumerated() {
            if let changed = changedSlots?[k] ?? nil, let old = table.row(for: row.objectID) {
                // A partial row: its snapshot line changes by its changed values only.
                let entityIndex = row.objectID.entity.index
                liveDelta +=
                    codec.valueBytes(
                        of: row, changed: changed, entityIndex: entityIndex, using: measurer)
                    - codec.valueBytes(
                        of: old, changed: changed, entityIndex: entityIndex, using: measurer)
                    + Self.versionGrowth(from: old.version, to: row.version)
            } else {
                liveDelta -= snapshotSize(of: row.objectID)
            }
        }
        for (patch, write) in zip(changes.patched, patchWrites) {
            guard write.complete == nil, let old = table.row(for: patch.objectID) else {
                liveDelta -= snapshotSize(of: patch.objectID)
                continue
            }
            let entityIndex = patch.objectID.entity.index
            liveDelta +=
                codec.valueBytes(
                    changed: write.changed, entityIndex: entityIndex, using: measurer,
                    value: { _, slot in patch.value(at: slot) })
                - codec.valueBytes(
                    of: old, changed: write.changed, entityIndex: entityIndex, using: measurer)
                + Self.versionGrowth(from: old.version, to: patch.version)
        }
        return liveDelta
    }

    /// How many bytes a row's snapshot line gains when its version goes from `old` to `new`
    /// (9 → 10 adds a digit): the part of a partially written row's size change that is not
    /// in its values.
    static func versionGrowth(from old: Int64, to new: Int64) -> Int {
        JSONByteWriter.decimalLength(of: new) - JSONByteWriter.decimalLength(of: old)
    }

    /// For each updated row (checked against the current rows), the stored slots to write as a
    /// partial row (<doc:StoreFileFormat#3-Transactions>, version 5): those whose values
    /// differ from the current row, when they are fewer than half of the entity's stored
    /// slots; `nil` to write the row complete. `nil` when every row is written complete.
    /// The caller holds `lock`.
    func partialUpdates(_ updated: [StoreRow]) -> [[Int]?]? {
        guard !updated.isEmpty else { return nil }
        var entities = EntityIndexMemo()
        var anyPartial = false
        var list: [[Int]?] = []
        list.reserveCapacity(updated.count)
        // Rows changing the same slots share one array (a save editing one field of many
        // objects kept one small array per row, ≈ 50 bytes each, alive during the write).
        var last: [Int] = []
        let codec = self.codec  // one copy, not one per row (see `append`)
        for row in updated {
            let entityIndex = entities.index(of: row)
            guard let old = table.row(for: row.objectID) else {
                list.append(nil)
                continue
            }
            var changed = codec.changedSlots(from: old, to: row, entityIndex: entityIndex)
            if changed == last { changed = last } else { last = changed }
            if codec.writesPartially(changed: changed.count, entityIndex: entityIndex) {
                anyPartial = true
                list.append(changed)
            } else {
                list.append(nil)
            }
        }
        return anyPartial ? list : nil
    }

    /// Records in the lock file where the file now ends
    /// (<doc:StoreFileFormat#65-The-end-record>). The caller holds `lock`.
    func recordEnd() {
        guard let file else { return }
        writerLock?.record(
            StoreEndRecord(
                store: identifier, transaction: file.lastTransaction, length: file.length))
    }

    /// Refuses to write once the lock file was removed or replaced under this writer (another
    /// writer may have locked the new one). The caller holds `lock`.
    func checkWriterLock() throws {
        if let writerLock, !writerLock.isIntact {
            throw StoreFileErrors.lockLost(path, lockPath: writerLock.path)
        }
    }

    /// The bytes the current row of `id` takes in a snapshot (0 when there is none).
    func snapshotSize(of id: ManagedObjectID) -> Int {
        guard let row = table.row(for: id) else { return 0 }
        measurer.reset()
        return ((try? codec.write(row, to: measurer)) ?? 0) + LineFrame.snapshotRowOverhead
    }

    /// What a fresh snapshot of the live rows would take: header and row lines. The caller
    /// holds `lock`.
    func liveBytes() -> Int {
        guard let file else { return 0 }
        if liveRowBytes == nil {
            // Encode every row once (across cores when there are many) to measure it.
            let scratch = JSONByteWriter(capacity: 1 << 16)
            let rows = table.allRows()
            liveRowBytes = (try? codec.write(rows, to: scratch)) ?? 0
        }
        measurer.reset()
        snapshotHeader(from: file.header, compacted: file.header.compacted ?? file.header.created)
            .write(to: measurer)
        return measurer.count + (liveRowBytes ?? 0)
    }

    /// The header a snapshot of the current rows carries.
    func snapshotHeader(from header: StoreFileHeader, compacted: Date) -> StoreFileHeader {
        // The model parts come from the store's model: a snapshot records the model its rows
        // are in (after a migration, or rule changes that apply without one).
        var snapshot = StoreFileHeader(
            model: model, storeIdentifier: header.storeIdentifier, created: header.created)
        let counters = table.primaryKeyCounters
        snapshot.base = file?.lastTransaction ?? header.base
        snapshot.rows = table.totalRowCount
        snapshot.keys = snapshot.keys.map { ($0.0, counters[$0.0] ?? $0.1) }
        snapshot.compacted = compacted
        snapshot.metadata = header.metadata
        snapshot.history = historyLog.map { HeaderHistory(start: $0.start, retained: $0.retained) }
        return snapshot
    }

    /// Compacts when more than half the file is dead bytes. `liveAtLeast` is a lower bound
    /// of the live rows' snapshot size (the rows the last commit wrote complete, which are
    /// live), to which the rows of `partiallyUpdated` and `patched` (live too) add a lower
    /// bound of their sizes found without encoding them: when it already shows the file is at most half
    /// dead, the live size is not measured (which would encode every row once after an open).
    func compactAutomaticallyIfNeeded(
        liveAtLeast: Int, partiallyUpdated: [StoreRow] = [], patched: [ManagedObjectID] = []
    ) {
        compactAutomaticallyIfNeeded(liveAtLeast: liveAtLeast) {
            var atLeast = 0
            var entities = EntityIndexMemo()
            for row in partiallyUpdated {
                atLeast += codec.snapshotSizeLowerBound(
                    of: row, entityIndex: entities.index(of: row))
            }
            // Rows patched and written partially are live too (read as the commit left them;
            // those written complete are in `liveAtLeast` already).
            for id in patched {
                guard let row = table.row(for: id) else { continue }
                atLeast += codec.snapshotSizeLowerBound(
                    of: row, entityIndex: entities.index(of: row))
            }
            return atLeast
        }
    }

    /// ``compactAutomaticallyIfNeeded(liveAtLeast:partiallyUpdated:patched:)`` with the lower
    /// bound of the other live rows' size given by `alsoLive`, called only when the live size
    /// is not known.
    func compactAutomaticallyIfNeeded(liveAtLeast: Int, alsoLive: () -> Int) {
        guard options.automaticCompaction, let file, file.length > options.compactionMinimumBytes,
            file.length >= compactionRetryLength
        else { return }
        if liveRowBytes == nil {
            let atLeast = liveAtLeast + alsoLive()
            if file.length - atLeast <= file.length / 2 { return }
        }
        // With history, the lines of the transactions it holds are kept by a compaction: only
        // what lies before the retention point counts as reclaimable.
        let live = liveBytes() + (historyLog?.keptBytes ?? 0)
        guard file.length - live > file.length / 2 else { return }
        do {
            try compactHoldingLock()
        } catch {
            notices.append(
                "store \(path): automatic compaction failed; the file is unchanged: \(error)")
            compactionRetryLength =
                file.length + max(options.compactionMinimumBytes, file.length / 2)
        }
    }
}
