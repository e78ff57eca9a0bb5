import Foundation

/// Writes a whole store file from a table of rows, or removes one, under the file's writer
/// lock: what the coordinator's store file operations (replace, migrate, destroy) do to a
/// file store.
///
/// Writing follows compaction's discipline (<doc:StoreFileFormat>): the complete snapshot
/// (header, then one line per row) goes to `FILE.tmp`, is synced and renamed over `FILE`, and
/// the directory is synced; a crash leaves the old file (or none) or the new one, complete.
/// The lock is taken first, never shared with a store of this process, and held throughout,
/// so no writer of the file is open meanwhile (one, in this process or another, is refused
/// with 134090, as a repair is), and `FILE.lock` is never removed.
struct StoreFileWriter {
    let path: String
    let options: StoreOptions
    let fileSystem: any StoreFileSystem

    init(url: URL, options: StoreOptions, fileSystem: any StoreFileSystem = PosixFileSystem())
        throws
    {
        self.fileSystem = fileSystem
        self.options = options
        self.path = try StoreFileErrors.resolving(url, fileSystem: fileSystem)
    }

    /// Writes `table` as the store file, replacing the file there only when `replacing`.
    ///
    /// - Parameter source: The rows, the last transaction number (transactions in the new file
    ///   keep counting from it) and the metadata, kept as the source had them.
    /// - Throws: `.storeLocked` (134090) when a writer holds the file; `.storeOpenFailed` (134080)
    ///   when the path is not a regular file, or a file exists there and `replacing` is false;
    ///   `.storeOperationFailed` (134070) when writing fails (the old file, if any, is untouched).
    func write(_ source: StoreCopySource, replacing: Bool) throws {
        let table = source.table
        let lastTransaction = source.lastTransaction
        let fs = fileSystem
        // Checked before the lock too, so a refused destination gets no new `FILE.lock`; and
        // again under it, where the answer holds.
        try refuseExisting(unlessReplacing: replacing)
        // Not shared: a store of this process writing the file counts as another writer, as
        // for a repair (the file is replaced under it).
        let lock = try WriterLock.acquire(
            for: path, fileSystem: fs, timeout: options.lockTimeout, sharing: false)
        defer { lock.release() }
        try refuseExisting(unlessReplacing: replacing)
        let model = table.model
        let now = options.clock()
        var header = StoreFileHeader(
            model: model, storeIdentifier: table.storeIdentifier, created: now)
        let counters = table.primaryKeyCounters
        header.base = lastTransaction
        header.rows = table.totalRowCount
        header.keys = header.keys.map { ($0.0, counters[$0.0] ?? $0.1) }
        header.compacted = now
        header.metadata = source.metadata
        let writer = JSONByteWriter(capacity: 1 << 16)
        header.write(to: writer)
        try io("encoding the rows") {
            try RowCodec(model: model, storeIdentifier: table.storeIdentifier, path: path)
                .writeSnapshotLines(table.allRows(), to: writer)
        }
        try io("writing the file") {
            try StoreFileReplacer(path: path, fileSystem: fs, synchronous: options.synchronous)
                .replace(with: writer.bytes) { fs.close($0) }
        }
        lock.record(
            StoreEndRecord(
                store: table.storeIdentifier, transaction: lastTransaction, length: writer.count))
    }

    /// The status of the file at the path (`nil` when none); throws when the path is not a
    /// regular file, or a file exists there and `replacing` is false (both 134080). Changes
    /// nothing.
    @discardableResult
    private func refuseExisting(unlessReplacing replacing: Bool) throws -> FileStatus? {
        let existing = try io("reading the status of the file") {
            try fileSystem.status(atPath: path)
        }
        if let existing, !existing.isRegularFile {
            throw StoreFileErrors.notRegular(path, existing.kind)
        }
        if existing != nil && !replacing {
            throw ObjectGraphError(
                .storeOpenFailed,
                "store \(path) already exists; nothing was written (replace it with "
                    + "replacePersistentStore, or destroy it first)", file: path)
        }
        return existing
    }

    /// Removes the store file (and a leftover `FILE.tmp`); `FILE.lock` stays. A missing file
    /// is not an error.
    ///
    /// - Throws: `.storeLocked` (134090) when a writer holds the file; `.storeOpenFailed` (134080)
    ///   when the path is not a regular file; `.storeOperationFailed` (134070) when removing fails.
    func destroy() throws {
        let fs = fileSystem
        // Checked before the lock too, so a refused path gets no new `FILE.lock`; and a path
        // with nothing to remove is left as it is, without one.
        let before = try refuseExisting(unlessReplacing: true)
        let leftover = try io("reading the status of \(path).tmp") {
            try fs.status(atPath: path + ".tmp")
        }
        if before == nil && leftover == nil { return }
        // Not shared: a store of this process writing the file counts as another writer, as
        // for a repair (the file is replaced under it).
        let lock = try WriterLock.acquire(
            for: path, fileSystem: fs, timeout: options.lockTimeout, sharing: false)
        defer { lock.release() }
        let existing = try refuseExisting(unlessReplacing: true)
        try io("removing the file") {
            try fs.remove(path + ".tmp")
            guard existing != nil else { return }
            try fs.remove(path)
            if options.synchronous != .off { try fs.syncDirectory(of: path) }
        }
    }

    private func io<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as ObjectGraphError {
            throw e
        } catch {
            throw StoreFileErrors.io(.storeOperationFailed, path, what, error)
        }
    }
}

extension JSONLinesStore {
    /// Every row (after applying what a writer appended) and the last transaction number.
    func snapshotForCopy() throws -> StoreCopySource {
        try locked {
            try refreshIfNeeded()
            guard let file else { throw StoreFileErrors.closed(path) }
            return StoreCopySource(
                table: table, lastTransaction: file.lastTransaction,
                metadata: file.header.metadata)
        }
    }
}

/// What a whole-file operation copies from a store: its rows, its last transaction number
/// and its metadata (the header's compact JSON object; `{}` for a RAM store).
struct StoreCopySource {
    var table: RowTable
    var lastTransaction: Int64 = 0
    var metadata: [UInt8] = Array("{}".utf8)
}
