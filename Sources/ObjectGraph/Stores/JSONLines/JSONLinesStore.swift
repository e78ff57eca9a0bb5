import Foundation

/// A store kept in one append-only JSON-lines file: crash-safe, compacting, one writer at a
/// time, readable by people and by `jq`.
///
/// Its rows live in memory (a ``RowTable``, the engine ``InMemoryStore`` uses too), rebuilt
/// from the file when it opens and kept in step with it: each save appends one checksummed
/// line and, with the default ``SynchronousMode/full``, syncs it before ``commit(_:)`` returns.
/// Compaction rewrites the file as a snapshot of the live rows (atomically: temporary file,
/// sync, rename, directory sync). The file embeds the model, so `objectgraph dump FILE`
/// needs no application code. <doc:StoreFileFormat> describes the format.
///
/// ```swift
/// let store = try JSONLinesStore(model: model, url: URL(fileURLWithPath: "expenses.jsonl"))
/// try store.commit(StoreChangeSet(inserted: rows, timestamp: Date()))
/// store.close()
/// ```
///
/// One process writes a file at a time: a writer holds an advisory lock on `FILE.lock`
/// (which holds its pid, and where the file ended at its last save) until ``close()``;
/// another process's writer fails at once with code 134090 unless
/// ``StoreOptions/lockTimeout`` lets it wait. Writers of the same file in this process (two
/// coordinators, as a `shared` stack and a second one) share the lock, as Core Data's
/// coordinators share a SQLite file: they take turns to write, and each catches up with the
/// others' saves and compactions before its next fetch or save. The lock file is never removed, and a writer
/// whose lock file was removed under it stops writing. A read-only store
/// (``StoreOptions/isReadOnly``) takes no lock and follows the writer: before each fetch it
/// applies what was appended and reloads after a compaction.
///
/// Thread-safe: every operation takes the store's lock.
///
/// - Note: Plays the part of Core Data's SQLite store (`NSSQLiteStoreType`).
public final class JSONLinesStore: PersistentStore, StagedCommitting, @unchecked Sendable {
    // Sendable: all mutable state (`table`, `file`, `notices`, `reporting`, `watcher`, …) is
    // read and written only while holding `lock`.
    /// The store type name, `"JSONLines"`.
    public static let storeType = "JSONLines"

    /// The store's UUID string, from the file's header.
    public let identifier: String
    /// The store file's URL.
    public let url: URL?
    /// The model the store was opened with.
    public let model: ManagedObjectModel
    /// Whether the store is a reader that refuses commits.
    public let isReadOnly: Bool
    /// The model configuration the store holds (``StoreOptions/configurationName``), or
    /// ``PersistentStoreCoordinator/defaultConfigurationName``.
    public var configurationName: String {
        options.configurationName ?? PersistentStoreCoordinator.defaultConfigurationName
    }
    /// Whether opening the store created its file (it did not exist, and this writer made it
    /// while holding the lock). See ``closeRemovingCreatedFile()``.
    public let didCreateFile: Bool

    let options: StoreOptions
    let fileSystem: any StoreFileSystem
    let path: String
    /// Reads lines of the file's format version (a reload may change it); writes the current.
    var codec: RowCodec
    let lock = NSLock()
    var table: RowTable
    /// The generations contexts are pinned to, and the table's change counter.
    var generations = RowTableGenerations()
    /// The open data file; `nil` once closed.
    var file: OpenStoreFile?
    var writerLock: WriterLock?
    /// The writer lock's ``WriterLock/writeCount`` when this store last matched the file.
    var seenWrites = 0
    var notices: [String] = []
    /// What opening noticed about the file (torn line, missing lines, leftover), by line.
    var openingWarnings: [StoreFileWarning] = []
    /// Set when a failed write could not be undone: the file's end is unknown.
    var isBroken = false
    /// Whether the last failed write left its whole line in the file (written, then its sync
    /// failed, then it could not be cut back): the line's save is kept.
    var failedLineStayed = false
    /// Set while (and if) a reader's table is not in step with the file.
    var needsReload = false
    /// How far past its applied lines a reader looked for a line's end without finding one:
    /// the applied length it looked from and the end of what it scanned (see
    /// `tailHoldsLineEnd`). `nil` when it has not, or found one.
    var scannedTail: (from: Int, to: Int)?
    /// Set while a reader reads a file of an earlier model version, migrated in memory: it
    /// reloads (and migrates again) whenever the file changes.
    var readsMigratedRows = false
    /// What a fresh snapshot's row lines would take, once measured.
    var liveRowBytes: Int?
    /// Whether a batch update that a batch line can record is written as one (version 6);
    /// tests turn it off to check the partial rows every other batch update is written as.
    package var writesBatchLines = true
    /// Counters as recorded in the file (header, lines, inserted keys).
    var recordedCounters: [String: Int64]
    /// Automatic compaction waits until the file passes this length (after a failed attempt).
    var compactionRetryLength = 0
    /// Where writes are reported, once a coordinator asked (see ``startReportingWrites(to:)``).
    var reporting: WriteReporting?
    /// Watches the file for other writers' changes while writes are reported.
    var watcher: StoreFileWatcher?
    /// The watcher's registration with the writer lock, to hear of sharers' writes.
    var writeObservation: UUID?
    /// The store's persistent history, when the file tracks it (<doc:StoreFileFormat#32-History>).
    var historyLog: HistoryLog?
    let writer = JSONByteWriter(capacity: 1 << 16)
    /// Scratch space for measuring rows' encoded sizes.
    let measurer = JSONByteWriter(capacity: 4096)

    /// Opens (or, unless read-only, creates) the store file at `url`.
    ///
    /// What is not a regular file (a FIFO, a device, a directory) is refused before anything
    /// is locked or read; a symbolic link is followed to its file. A writer takes the file's
    /// lock, and only then decides: it creates the file when it is missing (by linking a
    /// complete header into place, never over an existing file, not even an empty one; see
    /// ``didCreateFile``), removes a leftover `FILE.tmp`, replays the log, truncates a torn
    /// last line, and rewrites a file of an older format version as a snapshot of the current
    /// one. A reader needs the file to exist and changes nothing. What either noticed (a torn
    /// line, transactions missing at the end, a leftover, an upgrade) is in
    /// ``recoveryNotices``.
    ///
    /// ```swift
    /// var options = StoreOptions()
    /// options.isReadOnly = true   // a reader beside the application's writer
    /// let reader = try JSONLinesStore(model: model, url: url, options: options)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model of the rows; it must be the one the file was written with.
    ///   - url: A file URL.
    ///   - options: Read-only mode, synchronous mode, compaction, lock timeout, clock and the
    ///     identifier of a new store.
    /// - Throws: ``ObjectGraphError`` — `.storeLocked` (134090) when another writer holds
    ///   the lock; `.incompatibleModel` (134100) when the model differs;
    ///   `.storeCorrupt` (259) naming the damaged line; `.notAStoreFile` (134000)
    ///   for a file of another format or of a version this library does not read (a newer
    ///   one); `.storeOpenFailed` (134080) when the file cannot be read or created, or is not a
    ///   regular file.
    public convenience init(
        model: ManagedObjectModel, url: URL, options: StoreOptions = StoreOptions()
    ) throws {
        try self.init(model: model, url: url, options: options, fileSystem: PosixFileSystem())
    }

    /// Opens the store through a file-system seam (tests inject failures and crashes here).
    init(
        model: ManagedObjectModel, url: URL, options: StoreOptions,
        fileSystem fs: any StoreFileSystem
    ) throws {
        let path = try StoreFileErrors.resolving(url, fileSystem: fs)
        var options = options
        var opened = try StoreFileOpener(path: path, model: model, options: options, fileSystem: fs)
            .open()
        var forcedReadOnly = false
        if opened.loaded.header.history != nil, !options.tracksHistory, !options.isReadOnly {
            // Core Data forces a store that has recorded history, opened without
            // NSPersistentHistoryTrackingKey, read-only (../shared/reference/coredata-semantics.md (j)).
            fs.close(opened.file.fd)
            opened.lock?.release()
            options.isReadOnly = true
            opened = try StoreFileOpener(path: path, model: model, options: options, fileSystem: fs)
                .open()
            forcedReadOnly = true
        }
        self.identifier = opened.loaded.header.storeIdentifier
        self.url = url
        self.model = model
        self.isReadOnly = options.isReadOnly
        self.didCreateFile = opened.created
        self.options = options
        self.fileSystem = fs
        self.path = path
        self.codec = opened.loaded.replay.codec
        self.table = opened.loaded.replay.table
        self.file = opened.file
        self.writerLock = opened.lock
        self.seenWrites = opened.seenWrites
        self.notices = opened.notices
        self.openingWarnings = opened.warnings
        self.recordedCounters = opened.loaded.replay.table.primaryKeyCounters
        self.historyLog = opened.loaded.replay.history
        if forcedReadOnly {
            notices.append(
                "store \(path): opened without NSPersistentHistoryTrackingKey, but the file "
                    + "records persistent history: opened read-only, as Core Data does")
        }
        // With no live rows the snapshot's row lines take nothing: no need to measure later.
        self.liveRowBytes = opened.loaded.replay.table.totalRowCount == 0 ? 0 : nil
        let version = opened.loaded.header.version
        if !opened.loaded.schemaDifferences.isEmpty {
            // The store's copy of the rows is then the only one: migration maps it in place.
            opened.loaded.replay.table = RowTable(model: model, storeIdentifier: identifier)
            do {
                try migrateAtOpen(from: opened.loaded.model)
            } catch {
                close()
                throw error
            }
        } else if !isReadOnly, options.tracksHistory, historyLog == nil {
            // Tracking turned on for a file that had none: history starts now; the file
            // becomes a snapshot whose header records where.
            historyLog = HistoryLog(start: opened.file.lastTransaction)
            do {
                try locked { try compactHoldingLock() }
            } catch {
                close()
                throw error
            }
            codec.formatVersion = StoreFileVersion.current
            notices.append(
                "store \(path): persistent history tracking turned on; history starts after "
                    + "transaction \(opened.file.lastTransaction)")
        } else if !isReadOnly, version < StoreFileVersion.current {
            // A writer writes the current version only: the file becomes a snapshot of it
            // first (atomically; a failure leaves it as it was and fails the open).
            do {
                try locked { try compactHoldingLock() }
            } catch {
                close()
                throw error
            }
            codec.formatVersion = StoreFileVersion.current
            notices.append(
                "store \(path): upgraded from format version \(version) to "
                    + "\(StoreFileVersion.current) (rewritten as a snapshot of its rows)")
        }
    }

    deinit { close() }

    /// `"JSONLines"`.
    public var type: String { Self.storeType }

    /// What opening the store noticed or repaired, and automatic compactions that failed; one
    /// message each, naming the file and line: a torn last line (dropped by a writer; reported
    /// by a reader only while no writer holds the file, since it is otherwise a save in
    /// progress), transactions missing at the end (the file ends before the end recorded in
    /// `FILE.lock`), a leftover `FILE.tmp`, an upgrade of the format version.
    public var recoveryNotices: [String] { locked { notices } }
    /// `true`: an update given as a patch is written as a partial row of the slots it
    /// changes (or complete, when it changes half of them or more) and changes the row's
    /// slots in place.
    public var acceptsRowPatches: Bool { true }

    /// Closes the file and releases the writer lock; later operations throw `.storeOperationFailed`
    /// (134070). With ``SynchronousMode/normal`` the file is synced first. Stops reporting writes
    /// (the file watch ends and its inotify descriptor is closed). Idempotent.
    public func close() {
        stopReportingWrites()
        try? locked { try closeHoldingLock() }
    }

    /// Closes the store as the coordinator removes it.
    ///
    /// - Throws: `.storeOperationFailed` (134070) when the final sync (``SynchronousMode/normal``)
    ///   failed; the file is closed and the lock released all the same.
    public func willRemove(from coordinator: PersistentStoreCoordinator?) throws {
        stopReportingWrites()
        try locked { try closeHoldingLock() }
    }

    /// ``close()`` for a caller that holds `lock`: syncs (``SynchronousMode/normal``), closes
    /// the file and releases the writer lock, then throws a failed sync.
    private func closeHoldingLock() throws {
        guard let file else { return }
        var syncError: (any Error)?
        if !isReadOnly && options.synchronous == .normal {
            do { try fileSystem.sync(file.fd) } catch { syncError = error }
        }
        fileSystem.close(file.fd)
        self.file = nil
        writerLock?.release()
        writerLock = nil
        if let syncError {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "syncing before closing", syncError)
        }
    }

    /// Closes the store and, when opening it created the file and nothing was ever saved to
    /// it, removes that file first: the undo of a command that failed after creating its
    /// store.
    ///
    /// The file is removed only while this store still holds the writer lock (so no other
    /// writer can have opened it), only when it holds nothing but its header, and only when
    /// its path still names the file this store created (same device and inode). The lock
    /// file `FILE.lock` is never removed: another process may be waiting on it. Otherwise
    /// this is ``close()``.
    ///
    /// ```swift
    /// let store = try JSONLinesStore(model: model, url: url)
    /// do { try store.commit(changes) } catch { store.closeRemovingCreatedFile(); throw error }
    /// ```
    ///
    /// - Returns: Whether the file was removed.
    @discardableResult
    public func closeRemovingCreatedFile() -> Bool {
        stopReportingWrites()
        return locked {
            defer { try? closeHoldingLock() }
            guard didCreateFile, !isReadOnly, let file, let writerLock, writerLock.isSoleHolder
            else { return false }
            PausePoints.reach("store.discard")
            guard writerLock.isIntact, file.lastTransaction == 0, file.lineCount == 1,
                let current = try? fileSystem.status(atPath: path),
                current.device == file.identity.device, current.inode == file.identity.inode,
                current.size == file.length
            else { return false }
            do {
                try fileSystem.remove(path)
                if options.synchronous != .off { try fileSystem.syncDirectory(of: path) }
            } catch {
                return false
            }
            return true
        }
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// The open data file and where its committed content ends.
struct OpenStoreFile {
    var fd: Int32
    /// Device and inode of the file `fd` refers to.
    var identity: FileStatus
    /// The offset just past the last complete line.
    var length: Int
    var header: StoreFileHeader
    /// Complete lines, the header included.
    var lineCount: Int
    var lastTransaction: Int64
    /// Transaction lines (after the snapshot).
    var transactionLines: Int
    /// A reader's copy of the last bytes before `length` (the last complete line's checksum
    /// and end), to tell when the file was cut back and written again to the same or a
    /// greater length (a save another store of the same save failed, §7.1); empty for a
    /// writer, which does not follow.
    var endMark: [UInt8] = []

    /// How many bytes ``endMark`` keeps: a line's checksum digits, `"}` and its LF.
    static let endMarkLength = 11

    /// The ``endMark`` of a file whose bytes from offset `base` are `bytes`, for the
    /// complete lines ending at `length`; empty when `bytes` does not reach back far enough.
    static func endMark(of bytes: [UInt8], from base: Int = 0, length: Int) -> [UInt8] {
        let end = length - base
        let start = end - endMarkLength
        guard start >= 0, end <= bytes.count else { return [] }
        return Array(bytes[start..<end])
    }
}
