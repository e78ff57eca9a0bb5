import Foundation

/// Opens a store file for a writer or a reader (<doc:StoreFileFormat#6-Writing> and
/// <doc:StoreFileFormat#7-Reading-and-what-to-do-with-damage>): the kind of file, lock,
/// leftover cleanup, creation, replay, torn-tail truncation.
struct StoreFileOpener {
    struct Opened {
        var loaded: LoadedStoreFile
        var file: OpenStoreFile
        var lock: WriterLock?
        /// The lock's write count when the file was read.
        var seenWrites: Int
        var notices: [String]
        /// What the notices about the file (not about the open) say, by line.
        var warnings: [StoreFileWarning]
        /// Whether opening created the file.
        var created: Bool
    }

    let path: String
    let model: ManagedObjectModel?
    let options: StoreOptions
    let fileSystem: any StoreFileSystem

    func open() throws -> Opened {
        let fs = fileSystem
        PausePoints.reach("store.opening")
        // What is not a regular file is refused before anything is locked, created or read.
        let before = try io(.storeOpenFailed, "reading the status of the file") {
            try fs.status(atPath: path)
        }
        if let before, !before.isRegularFile {
            throw StoreFileErrors.notRegular(path, before.kind)
        }
        if options.isReadOnly, before == nil { throw StoreFileErrors.missing(path) }
        let lock =
            options.isReadOnly
            ? nil
            : try WriterLock.acquire(for: path, fileSystem: fs, timeout: options.lockTimeout)
        // Stores of this process sharing the lock do not write while this one looks.
        guard let lock else { return try open(locked: nil) }
        return try lock.serializingWrites { try open(locked: lock) }
    }

    private func open(locked lock: WriterLock?) throws -> Opened {
        let fs = fileSystem
        var fd: Int32?
        do {
            var created = false
            var surroundings: StoreFileSurroundings
            var notices: [String] = []
            if let lock {
                // Decided only now, with the lock held.
                let temporary = try io(.storeOpenFailed, "reading the status of \(path).tmp") {
                    try fs.status(atPath: path + ".tmp")
                }
                if let temporary {
                    try io(.storeOpenFailed, "removing the leftover \(path).tmp") {
                        try fs.remove(path + ".tmp")
                    }
                    notices.append(
                        "store \(path): removed \(path).tmp (\(temporary.size) bytes), left over "
                            + "from an interrupted compaction or repair")
                }
                surroundings = StoreFileSurroundings(writerPresent: false, record: lock.end)
                let status = try io(.storeOpenFailed, "reading the status of the file") {
                    try fs.status(atPath: path)
                }
                if let status, !status.isRegularFile {
                    throw StoreFileErrors.notRegular(path, status.kind)
                }
                if status == nil {
                    guard let model else { throw StoreFileErrors.missing(path) }
                    created = try create(model: model)
                }
            } else {
                surroundings = StoreFileSurroundings.look(at: path, fileSystem: fs)
            }
            let opened = try io(.storeOpenFailed, "opening the file") {
                try fs.open(path, options.isReadOnly ? .readOnly : .readWrite)
            }
            fd = opened
            let identity = try io(.storeOpenFailed, "reading the status of the file") {
                try fs.status(opened)
            }
            guard identity.isRegularFile else {
                throw StoreFileErrors.notRegular(path, identity.kind)
            }
            // Read in chunks while the rows of a large line are read ahead as they arrive.
            let read = try io(.storeOpenFailed, "reading the file") {
                try StoreFileStream(fileSystem: fs, path: path, model: model).read(opened)
            }
            let bytes = read.bytes
            let loaded = try StoreFileLoader.load(
                bytes, path: path, model: model, prefetched: read.prefetched)
            var tail = loaded.tail
            if lock != nil, case .torn(let line, let count) = loaded.tail {
                try io(.storeOpenFailed, "truncating the torn last line") {
                    try fs.truncate(opened, to: loaded.replay.length)
                    if options.synchronous != .off { try fs.sync(opened) }
                }
                notices.append(
                    "store \(path): dropped the torn last line \(line) (\(count) bytes of an "
                        + "interrupted save that never completed)")
                tail = .none
            }
            let warnings = surroundings.warnings(
                header: loaded.header, replay: loaded.replay, tail: tail, path: path
            ) { lock?.end ?? WriterLock.record(forStore: path, fileSystem: fs) }
            notices += warnings.map { warning in
                "store \(path): " + (warning.line.map { "line \($0): " } ?? "") + warning.message
            }
            var file = OpenStoreFile(
                fd: opened, identity: identity, length: loaded.replay.length,
                header: loaded.header, lineCount: loaded.replay.lineCount,
                lastTransaction: loaded.replay.lastTransaction,
                transactionLines: loaded.replay.transactionLines)
            if lock == nil { file.endMark = OpenStoreFile.endMark(of: bytes, length: file.length) }
            // A writer accepts the file as it finds it: its end is the one to check from now.
            lock?.record(
                StoreEndRecord(
                    store: loaded.header.storeIdentifier, transaction: file.lastTransaction,
                    length: file.length))
            if lock != nil { PausePoints.reach("store.opened") }
            return Opened(
                loaded: loaded, file: file, lock: lock, seenWrites: lock?.writeCount ?? 0,
                notices: notices, warnings: warnings, created: created)
        } catch {
            if let fd { fs.close(fd) }
            lock?.release()
            throw error
        }
    }

    /// Creates the file holding only the header, atomically and without ever replacing a
    /// file: the header goes to `FILE.tmp`, is synced, and is linked to `FILE` (`link(2)`
    /// fails when the name exists, where a rename would replace it); then `FILE.tmp` goes.
    /// On a file system without hard links the temporary file is renamed instead, which the
    /// writer lock held here makes safe from every writer that honours it.
    ///
    /// - Returns: `false` when a file appeared at the path meanwhile (a process that ignores
    ///   the lock): it is opened as it is, never overwritten.
    private func create(model: ManagedObjectModel) throws -> Bool {
        let fs = fileSystem
        var header = StoreFileHeader(
            model: model, storeIdentifier: options.storeIdentifier ?? UUID().uuidString,
            created: options.clock())
        if options.tracksHistory { header.history = HeaderHistory(start: 0, retained: 0) }
        let w = JSONByteWriter()
        header.write(to: w)
        let temporary = path + ".tmp"
        return try io(.storeOpenFailed, "creating the file") {
            let fd = try fs.open(temporary, .readWriteTruncating)
            defer { fs.close(fd) }
            var created = true
            do {
                try fs.writeAll(fd, w.bytes, at: 0, midway: "create.midWrite")
                if options.synchronous != .off { try fs.sync(fd) }
                PausePoints.reach("create.written")
                do {
                    try fs.link(temporary, to: path)
                    try fs.remove(temporary)
                } catch let e as FileSystemError where e.code == EEXIST {
                    created = false
                    try fs.remove(temporary)
                } catch let e as FileSystemError where Self.hasNoHardLinks(e.code) {
                    try fs.rename(temporary, to: path)
                }
            } catch {
                try? fs.remove(temporary)
                throw error
            }
            if options.synchronous != .off { try fs.syncDirectory(of: path) }
            return created
        }
    }

    /// Whether `link(2)` failed because the file system has no hard links.
    private static func hasNoHardLinks(_ code: Int32) -> Bool {
        code == EPERM || code == EOPNOTSUPP || code == ENOSYS
    }

    private func io<T>(_ reason: ObjectGraphError.Reason, _ what: String, _ body: () throws -> T)
        throws
        -> T
    {
        do {
            return try body()
        } catch let e as ObjectGraphError {
            throw e
        } catch {
            throw StoreFileErrors.io(reason, path, what, error)
        }
    }
}

/// Replaces a file atomically: write `FILE.tmp`, sync it, rename it over `FILE`, sync the
/// directory (no syncs with ``SynchronousMode/off``). A crash leaves the old file or the new
/// one, complete; a failure before the rename removes the temporary file. The new file keeps
/// the old one's permission bits, and its owner and group where this process may set them.
struct StoreFileReplacer {
    let path: String
    let fileSystem: any StoreFileSystem
    let synchronous: SynchronousMode

    /// Replaces the file with `bytes`. `renamed` receives the new file's descriptor right
    /// after the rename (it now owns it), before the directory sync, which may still throw.
    ///
    /// `beforeRename` runs after the temporary file is synced, just before the rename; what it
    /// throws abandons the replacement (the temporary file is removed).
    func replace(
        with bytes: UnsafeRawBufferPointer, beforeRename: () throws -> Void = {},
        renamed: (Int32) -> Void
    ) throws {
        try replace(
            writing: { append in try append(bytes) }, beforeRename: beforeRename, renamed: renamed)
    }

    /// Replaces the file with the bytes `write` hands to its `append`, piece after piece, in
    /// order: a caller encoding a large file (a compaction) writes each part as it is done
    /// and reuses its buffer, instead of holding the whole file. The pause point
    /// `replace.midWrite` falls in the middle of the first piece.
    ///
    /// What `write` throws abandons the replacement as a failed write does (the temporary file
    /// is removed, the file is unchanged).
    func replace(
        writing write: (_ append: (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
        beforeRename: () throws -> Void = {}, renamed: (Int32) -> Void
    ) throws {
        let fs = fileSystem
        let temporary = path + ".tmp"
        let original = try fs.status(atPath: path)
        let fd = try fs.open(temporary, .readWriteTruncating)
        do {
            if let original { try fs.adoptAccess(fd, of: original) }
            var written = 0
            try write { bytes in
                if written == 0 {
                    try fs.writeAll(fd, bytes, at: 0, midway: "replace.midWrite")
                } else {
                    try fs.writeAll(fd, bytes, at: written)
                }
                written += bytes.count
            }
            if synchronous != .off { try fs.sync(fd) }
            PausePoints.reach("replace.synced")
            try beforeRename()
            try fs.rename(temporary, to: path)
        } catch {
            fs.close(fd)
            try? fs.remove(temporary)
            throw error
        }
        renamed(fd)
        PausePoints.reach("replace.renamed")
        if synchronous != .off { try fs.syncDirectory(of: path) }
    }
}
