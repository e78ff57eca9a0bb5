import Foundation

/// Opens a store file for a writer or a reader (<doc:StoreFileFormat#6-Writing> and
/// <doc:StoreFileFormat#7-Reading-and-what-to-do-with-damage>): lock, leftover
/// cleanup, creation, replay, torn-tail truncation.
struct StoreFileOpener {
    struct Opened {
        var loaded: LoadedStoreFile
        var file: OpenStoreFile
        var lock: WriterLock?
        var notices: [String]
    }

    let path: String
    let model: ManagedObjectModel?
    let options: StoreOptions
    let fileSystem: any StoreFileSystem

    func open() throws -> Opened {
        let fs = fileSystem
        let lock =
            options.isReadOnly
            ? nil
            : try WriterLock.acquire(for: path, fileSystem: fs, timeout: options.lockTimeout)
        var fd: Int32?
        do {
            let status = try io(.storeOpenFailed, "reading the status of the file") {
                try fs.status(atPath: path)
            }
            if let status, !status.isRegularFile {
                throw StoreFileErrors.failed(.storeOpenFailed, path, "is not a regular file")
            }
            if !options.isReadOnly {
                try io(.storeOpenFailed, "removing the leftover \(path).tmp") {
                    try fs.remove(path + ".tmp")
                }
                if status == nil {
                    guard let model else { throw StoreFileErrors.missing(path) }
                    try create(model: model)
                }
            } else if status == nil {
                throw StoreFileErrors.missing(path)
            }
            let opened = try io(.storeOpenFailed, "opening the file") {
                try fs.open(path, options.isReadOnly ? .readOnly : .readWrite)
            }
            fd = opened
            let bytes = try io(.storeOpenFailed, "reading the file") { try fs.readToEnd(opened) }
            let identity = try io(.storeOpenFailed, "reading the status of the file") {
                try fs.status(opened)
            }
            let loaded = try StoreFileLoader.load(bytes, path: path, model: model)
            var notices: [String] = []
            if case .torn(let line, let count) = loaded.tail {
                if options.isReadOnly {
                    notices.append(
                        "store \(path): line \(line) is incomplete (\(count) bytes); "
                            + "treated as not yet written")
                } else {
                    try io(.storeOpenFailed, "truncating the torn last line") {
                        try fs.truncate(opened, to: loaded.replay.length)
                        if options.synchronous != .off { try fs.sync(opened) }
                    }
                    notices.append(
                        "store \(path): dropped the torn last line \(line) (\(count) bytes of an "
                            + "interrupted save that never completed)")
                }
            }
            let file = OpenStoreFile(
                fd: opened, identity: identity, length: loaded.replay.length,
                header: loaded.header, lineCount: loaded.replay.lineCount,
                lastTransaction: loaded.replay.lastTransaction,
                transactionLines: loaded.replay.transactionLines)
            return Opened(loaded: loaded, file: file, lock: lock, notices: notices)
        } catch {
            if let fd { fs.close(fd) }
            lock?.release()
            throw error
        }
    }

    /// Writes a new file holding only the header: temporary file, sync, rename, directory sync.
    private func create(model: ManagedObjectModel) throws {
        let header = StoreFileHeader(
            model: model, storeIdentifier: options.storeIdentifier ?? UUID().uuidString,
            created: options.clock())
        let w = JSONByteWriter()
        header.write(to: w)
        try io(.storeOpenFailed, "creating the file") {
            try StoreFileReplacer(
                path: path, fileSystem: fileSystem, synchronous: options.synchronous
            )
            .replace(with: w.bytes) { fd in fileSystem.close(fd) }
        }
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
    func replace(with bytes: UnsafeRawBufferPointer, renamed: (Int32) -> Void) throws {
        let fs = fileSystem
        let temporary = path + ".tmp"
        let original = try fs.status(atPath: path)
        let fd = try fs.open(temporary, .readWriteTruncating)
        do {
            if let original { try fs.adoptAccess(fd, of: original) }
            try fs.writeAll(fd, bytes, at: 0)
            if synchronous != .off { try fs.sync(fd) }
            try fs.rename(temporary, to: path)
        } catch {
            fs.close(fd)
            try? fs.remove(temporary)
            throw error
        }
        renamed(fd)
        if synchronous != .off { try fs.syncDirectory(of: path) }
    }
}
