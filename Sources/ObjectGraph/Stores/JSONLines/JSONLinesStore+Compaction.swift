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

    /// ``compact()`` for a caller that holds `lock`.
    ///
    /// - Parameter keepingOldFileAs: A path to link the old file to just before the rename
    ///   (a migration keeps it as `FILE.pre-migration`); a file already there is replaced.
    func compactHoldingLock(keepingOldFileAs kept: String? = nil) throws {
        guard file != nil else { throw StoreFileErrors.closed(path) }
        if isReadOnly {
            throw StoreErrors.readOnly(url, "compact")
        }
        if isBroken { throw StoreFileErrors.unusable(path) }
        guard let writerLock else { return }
        try writerLock.serializingWrites { try compactSharing(keepingOldFileAs: kept) }
    }

    /// ``compactHoldingLock()`` once no other store of this process that shares the writer
    /// lock writes, and caught up with what they wrote.
    private func compactSharing(keepingOldFileAs kept: String?) throws {
        try catchUpWithSharers()
        guard let file else { throw StoreFileErrors.closed(path) }
        do { try checkWriterLock() } catch let e as ObjectGraphError {
            throw ObjectGraphError(.storeOperationFailed, e.message, file: path)
        }
        let header = snapshotHeader(from: file.header, compacted: options.clock())
        writer.reset()
        defer { writer.reset() }  // the snapshot's buffer is not kept
        header.write(to: writer)
        let headerLength = writer.count
        do {
            try codec.writeSnapshotLines(model.entities.flatMap { table.rows(of: $0) }, to: writer)
        } catch {
            throw StoreFileErrors.io(.storeOperationFailed, path, "encoding the snapshot", error)
        }
        let rowsEnd = writer.count
        // The history the store holds follows the snapshot, one line per transaction.
        var historyBytes: [Int] = []
        for transaction in historyLog?.transactions ?? [] {
            let start = writer.count
            HistoryLine.write(transaction, codec: codec, to: writer)
            historyBytes.append(writer.count - start)
        }
        var renamed = false
        do {
            try StoreFileReplacer(
                path: path, fileSystem: fileSystem, synchronous: options.synchronous
            )
            .replace(
                with: writer.bytes,
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
                        fd: fd, identity: identity, length: writer.count, header: header,
                        lineCount: 1 + header.rows + historyBytes.count,
                        lastTransaction: header.base, transactionLines: 0)
                    liveRowBytes = rowsEnd - headerLength
                    historyLog = historyLog?.remapped(to: model, bytes: historyBytes)
                    compactionRetryLength = 0
                    seenWrites = writerLock?.noteWrite() ?? seenWrites
                    recordEnd()
                })
        } catch {
            let what =
                renamed
                ? "syncing the directory after compaction (the compacted file is in place)"
                : "compacting (the file is unchanged)"
            throw StoreFileErrors.io(.storeOperationFailed, path, what, error)
        }
    }
}
