import Foundation

extension JSONLinesStore {
    /// Rewrites the file as a snapshot of the live rows, dropping superseded lines.
    ///
    /// The snapshot (header, then one line per live row) goes to `FILE.tmp`, which is synced
    /// and renamed over the file; then the directory is synced (no syncs with
    /// ``SynchronousMode/off``). A crash at any point leaves the old file or the new one,
    /// complete, with the same rows. Transaction numbers keep counting from where they were.
    /// With persistent history, the transactions history holds (those from the retention
    /// point on, <doc:StoreFileFormat#32-History>) follow the snapshot as history lines; older
    /// lines are dropped.
    /// Readers notice the new file at their next fetch.
    ///
    /// ```swift
    /// try store.compact()
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` `.storeOperationFailed` (134070) when writing, syncing or
    ///   renaming fails: the old file is intact and the store keeps working. If only the final
    ///   directory sync fails, the new file is in place and in use. `.readOnlyStore` (134030)
    ///   for a read-only store.
    /// - Complexity: O(live rows).
    public func compact() throws {
        try locked { try compactHoldingLock() }
    }

    /// ``compact()``, telling `progress` how many rows of the snapshot are written of how
    /// many: `(0, total)` first, then every ``compactionProgressInterval`` rows, and
    /// `(total, total)` once all are encoded, before the file is synced and renamed.
    ///
    /// `progress` runs on the calling thread, before this method returns. Core Data has no
    /// counterpart (it has no compaction); the shape follows its migration manager's
    /// `migrationProgress`, as counts rather than a fraction.
    ///
    /// ```swift
    /// try store.compact { written, total in print("\(written) of \(total)") }
    /// ```
    ///
    /// - Parameter progress: Told the rows written of the rows in the snapshot.
    /// - Throws: As ``compact()``.
    public func compact(progress: @escaping (_ written: Int, _ total: Int) -> Void) throws {
        try locked { try compactHoldingLock(progress: progress) }
    }

    /// How many rows a compaction with progress writes between two reports.
    public static let compactionProgressInterval = 65_536

    /// ``compact()`` for a caller that holds `lock`.
    ///
    /// - Parameters:
    ///   - keepingOldFileAs: A path to link the old file to just before the rename
    ///     (a migration keeps it as `FILE.pre-migration`); a file already there is replaced.
    ///   - progress: Told the rows written of the snapshot's rows, as in ``compact(progress:)``.
    func compactHoldingLock(
        keepingOldFileAs kept: String? = nil, progress: ((Int, Int) -> Void)? = nil
    ) throws {
        guard file != nil else { throw StoreFileErrors.closed(path) }
        if isReadOnly {
            throw StoreErrors.readOnly(url, "compact")
        }
        if isBroken { throw StoreFileErrors.unusable(path) }
        guard let writerLock else { return }
        try writerLock.serializingWrites {
            try compactSharing(keepingOldFileAs: kept, progress: progress)
        }
    }

    /// ``compactHoldingLock(keepingOldFileAs:progress:)`` once no other store of this process that shares the writer
    /// lock writes, and caught up with what they wrote.
    private func compactSharing(keepingOldFileAs kept: String?, progress: ((Int, Int) -> Void)?)
        throws
    {
        try catchUpWithSharers()
        guard let file else { throw StoreFileErrors.closed(path) }
        do { try checkWriterLock() } catch let e as ObjectGraphError {
            throw ObjectGraphError(.storeOperationFailed, e.message, file: path)
        }
        let header = snapshotHeader(from: file.header, compacted: options.clock())
        writer.reset()
        defer { writer.reset() }  // the snapshot's buffer is not kept
        // The snapshot goes to the temporary file in waves of rows, each encoded across cores
        // into the writer and written before the next (`writeSnapshotWaves`); the bytes are
        // those of the snapshot encoded whole.
        var written = 0
        var headerLength = 0
        var rowsEnd = 0
        var historyBytes: [Int] = []
        func flush(_ append: (UnsafeRawBufferPointer) throws -> Void) throws {
            try append(writer.bytes)
            written += writer.count
            // The wave's storage is kept for the next (a wave passes the default 1 MiB on
            // three cores or more); the `defer` above trims it at the end.
            writer.reset(keepingCapacity: .max)
        }
        var renamed = false
        do {
            try StoreFileReplacer(
                path: path, fileSystem: fileSystem, synchronous: options.synchronous
            )
            .replace(
                writing: { append in
                    header.write(to: writer)
                    headerLength = writer.count
                    try writeSnapshotWaves(table.allRows(), progress: progress) {
                        try flush(append)
                    }
                    rowsEnd = written + writer.count
                    // The history the store holds follows the snapshot, one line per
                    // transaction.
                    for transaction in historyLog?.transactions ?? [] {
                        let start = writer.count
                        HistoryLine.write(transaction, codec: codec, to: writer)
                        historyBytes.append(writer.count - start)
                    }
                    try flush(append)
                },
                beforeRename: {
                    guard let kept else { return }
                    if try fileSystem.status(atPath: kept) != nil { try fileSystem.remove(kept) }
                    try fileSystem.link(path, to: kept)
                    PausePoints.reach("migrate.kept")
                },
                renamed: { fd in
                    renamed = true
                    fileSystem.close(file.fd)
                    let identity = (try? fileSystem.status(fd)) ?? file.identity
                    self.file = OpenStoreFile(
                        fd: fd, identity: identity, length: written, header: header,
                        lineCount: 1 + header.rows + historyBytes.count,
                        lastTransaction: header.base, transactionLines: 0)
                    liveRowBytes = rowsEnd - headerLength
                    historyLog = historyLog?.remapped(to: model, bytes: historyBytes)
                    compactionRetryLength = 0
                    seenWrites = writerLock?.noteWrite() ?? seenWrites
                    recordEnd()
                })
        } catch let failure as SnapshotEncodingFailure {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "encoding the snapshot", failure.error)
        } catch {
            // A failed write is reported as a failed replacement.
            let what =
                renamed
                ? "syncing the directory after compaction (the compacted file is in place)"
                : "compacting (the file is unchanged)"
            throw StoreFileErrors.io(.storeOperationFailed, path, what, error)
        }
    }

    /// How many rows a wave of a compaction holds: one part of about ``LineSpill/partBytes``
    /// at the encoder's estimate (192 bytes a row) per core. Encoded whole, a compaction of
    /// 50,000 expenses held each core's part (a buffer reserved at 192 bytes a row, in the
    /// arena of the thread that encoded it) and the snapshot's buffer (7.5 MB, the store's
    /// writer) at once: W6 rose 3.7–3.8 MB over W5's peak, 0.2–0.3 MB in waves.
    static var compactionWaveRows: Int {
        ParallelChunks.chunkCount(for: Int.max) * compactionPartRows
    }

    /// The rows of one core's part of a wave.
    static let compactionPartRows = LineSpill.partBytes / 192

    /// Appends the snapshot lines of `rows` to the writer in waves of
    /// ``compactionWaveRows`` (each across cores, at most ``compactionPartRows`` rows a part),
    /// calling `flush` after each wave; a snapshot of fewer than `ParallelChunks.threshold`
    /// rows is one wave on the calling thread, as before. Waves end at every multiple of
    /// ``compactionProgressInterval``, where `progress` is told the rows written so far
    /// (`(0, total)` first).
    private func writeSnapshotWaves(
        _ rows: [StoreRow], progress: ((Int, Int) -> Void)?, flush: () throws -> Void
    ) throws {
        func encode(_ wave: ArraySlice<StoreRow>, parallelAbove minimum: Int) throws {
            do {
                try codec.writeSnapshotLines(wave, to: writer, parallelAbove: minimum)
            } catch {
                throw SnapshotEncodingFailure(error: error)
            }
        }
        progress?(0, rows.count)
        guard rows.count >= ParallelChunks.threshold else {
            try encode(rows[...], parallelAbove: ParallelChunks.threshold)
            try flush()
            if !rows.isEmpty { progress?(rows.count, rows.count) }
            return
        }
        let interval = Self.compactionProgressInterval
        var start = 0
        while start < rows.count {
            let nextReport = (start / interval + 1) * interval
            let end = min(rows.count, start + Self.compactionWaveRows, nextReport)
            try encode(rows[start..<end], parallelAbove: Self.compactionPartRows)
            try flush()
            start = end
            if end == nextReport || end == rows.count { progress?(end, rows.count) }
        }
    }
}

/// A row the snapshot could not encode, told apart from a failed write on its way out of the
/// replacement (which rethrows what its writer throws): it is reported as encoding the
/// snapshot, a write as a failed compaction.
private struct SnapshotEncodingFailure: Error {
    let error: any Error
}
