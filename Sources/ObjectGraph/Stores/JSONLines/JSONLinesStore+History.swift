import Foundation

extension JSONLinesStore {
    /// Whether the file records persistent history (<doc:StoreFileFormat#32-History>): it was
    /// created or opened by a writer with ``StoreOptions/tracksHistory``.
    public var tracksHistory: Bool { locked { historyLog != nil } }

    /// See ``PersistentStore/currentHistoryTransactionNumber()``.
    public func currentHistoryTransactionNumber() throws -> Int64 {
        try locked {
            try refreshIfNeeded()
            guard historyLog != nil, let file else { throw HistoryErrors.notTracked(self) }
            return file.lastTransaction
        }
    }

    /// See ``PersistentStore/history(after:)``. A reader first applies what the writer
    /// appended.
    public func history(after number: Int64?) throws -> [StoreHistoryTransaction] {
        try locked {
            try refreshIfNeeded()
            guard let historyLog else { throw HistoryErrors.notTracked(self) }
            return Array(try historyLog.transactions(after: number, store: identifier, path: path))
        }
    }

    /// Deletes the history before transaction `number` by appending a retention line
    /// (`{"retain":N}`) and syncing it: the transactions before it are gone for every reader
    /// at once, and the next compaction drops their lines (<doc:StoreFileFormat#32-History>).
    ///
    /// - Throws: ``ObjectGraphError/Reason/historyNotTracked`` (134091);
    ///   `.readOnlyStore` (134030) for a reader; `.storeWriteFailed` (134030) when the write or
    ///   sync fails (the file is truncated back and history unchanged).
    public func deleteHistory(before number: Int64) throws -> Int {
        try locked {
            guard file != nil else { throw StoreFileErrors.closed(path) }
            guard historyLog != nil else { throw HistoryErrors.notTracked(self) }
            if isReadOnly { throw StoreErrors.readOnly(url, "delete history") }
            if isBroken { throw StoreFileErrors.unusable(path) }
            guard let writerLock else { return 0 }
            return try writerLock.serializingWrites { try deleteHistorySharing(before: number) }
        }
    }

    private func deleteHistorySharing(before number: Int64) throws -> Int {
        try catchUpWithSharers()
        guard var file, var log = historyLog else { throw StoreFileErrors.closed(path) }
        try checkWriterLock()
        let deleted = log.deleteHistory(before: number)
        guard log.retained != historyLog?.retained else { return 0 }
        writer.reset()
        defer { writer.reset() }
        HistoryLine.writeRetention(log.retained, to: writer)
        do {
            try fileSystem.writeAll(
                file.fd, writer.bytes, at: file.length, midway: "retain.midWrite")
            if options.synchronous == .full { try fileSystem.sync(file.fd) }
        } catch {
            rollBack(to: file.length, fd: file.fd)
            throw StoreFileErrors.io(
                .storeWriteFailed, path, "appending the history retention line", error)
        }
        file.length += writer.count
        file.lineCount += 1
        self.file = file
        historyLog = log
        seenWrites = writerLock?.noteWrite() ?? seenWrites
        recordEnd()
        compactAutomaticallyIfNeeded(liveAtLeast: 0)
        return deleted
    }
}
