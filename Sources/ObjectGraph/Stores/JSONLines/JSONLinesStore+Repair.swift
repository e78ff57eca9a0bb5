import Foundation

extension JSONLinesStore {
    /// Makes a damaged store file readable again without deleting anything.
    ///
    /// A plain repair keeps every line before the first damaged one and moves the rest to
    /// `FILE.corrupt-<timestamp>`; an incomplete last line is moved aside too, and when the
    /// damage lies inside the snapshot the header is rewritten to announce only the rows kept.
    /// With `salvaging`, the intact lines after the damage are kept too: every intact line is
    /// replayed, each change that cannot apply (a row that never arrived) is skipped and
    /// listed in ``JSONLinesStoreRepair/skipped``, references to rows that are not there are
    /// cleared, and the file becomes a snapshot of what remains (a file `verify` finds
    /// healthy), the whole original being copied to `FILE.corrupt-<timestamp>`. A salvage
    /// also reads past a damaged header whose content is consistent (its model, hashes and
    /// columns agree). Either way the new file replaces the old one atomically, the lock
    /// file's end record follows, and a healthy file is left untouched.
    ///
    /// Takes the writer lock, so no writer may be open.
    ///
    /// ```swift
    /// let result = try JSONLinesStore.repair(at: url, salvaging: true)
    /// for note in result.skipped { print(note) }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The store file.
    ///   - options: `clock` names the sidecar (UTC) and dates a salvaged snapshot,
    ///     `lockTimeout` waits for a writer, `synchronous` decides the syncs.
    ///   - salvaging: Whether to keep the intact lines after the damage too. Default `false`.
    /// - Throws: ``ObjectGraphError`` — `.storeLocked` (134090) when a writer holds the lock;
    ///   `.notAStoreFile` (134000) or `.storeCorrupt` (259) when even the header is
    ///   damaged beyond use (nothing can be kept); `.storeOperationFailed` (134070) when writing
    ///   fails; `.storeOpenFailed` (134080) when the file cannot be opened for writing (as a
    ///   writer, and so `compact()`, needs); `.readOnlyStore` (134030) when `options` ask for a
    ///   read-only store, like ``compact()`` on one. The repaired file and the sidecar keep
    ///   the file's permission bits (and owner and group where this process may set them).
    /// - Complexity: O(file size).
    public static func repair(
        at url: URL, options: StoreOptions = StoreOptions(), salvaging: Bool = false
    ) throws -> JSONLinesStoreRepair {
        try repair(at: url, options: options, salvaging: salvaging, fileSystem: PosixFileSystem())
    }

    static func repair(
        at url: URL, options: StoreOptions, salvaging: Bool = false,
        fileSystem fs: any StoreFileSystem
    ) throws -> JSONLinesStoreRepair {
        let path = try StoreFileErrors.resolving(url, fileSystem: fs)
        if options.isReadOnly {
            throw StoreErrors.readOnly(url, "repair")
        }
        guard let status = try fs.status(atPath: path) else { throw StoreFileErrors.missing(path) }
        guard status.isRegularFile else { throw StoreFileErrors.notRegular(path, status.kind) }
        let lock = try WriterLock.acquire(
            for: path, fileSystem: fs, timeout: options.lockTimeout, sharing: false)
        defer { lock.release() }
        // Opened for writing, as a writer (and so `compact`) opens it: a file this process may
        // not write is refused here, before anything is moved aside.
        let fd: Int32
        do {
            fd = try fs.openRegularFile(path, .readWrite)
        } catch let e as ObjectGraphError {
            throw e
        } catch {
            throw StoreFileErrors.io(.storeOpenFailed, path, "opening the file", error)
        }
        let bytes: [UInt8]
        do {
            defer { fs.close(fd) }
            bytes = try fs.readToEnd(fd)
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "reading the file to repair", error)
        }
        let access = RepairAccess(
            path: path, status: status, lock: lock, options: options, fileSystem: fs)
        if salvaging, let salvaged = try salvage(bytes, access) { return salvaged }
        let (original, replay, damage) = try bytes.withUnsafeBytes { raw in
            let header = try StoreFileLoader.readHeader(raw, path: path)
            let headerLength = raw.firstIndex(of: 0x0A)! + 1
            let codec = RowCodec(
                model: try header.model(path: path), storeIdentifier: header.storeIdentifier,
                path: path, formatVersion: header.version)
            var replay = try LogReplay(codec: codec, header: header, headerLength: headerLength)
            var damage: (line: Int, reason: String)?
            do {
                if case .torn(let line, _) = try replay.apply(
                    UnsafeRawBufferPointer(rebasing: raw[headerLength...]))
                {
                    damage = (line, "the line is incomplete (an interrupted save)")
                }
            } catch let e as ObjectGraphError {
                damage = (e.line ?? replay.lineCount + 1, StoreFileErrors.reason(e))
            }
            return (header, replay, damage)
        }
        guard let damage else {
            return JSONLinesStoreRepair(
                firstDamagedLine: nil, reason: nil, keptLines: replay.lineCount,
                keptBytes: bytes.count, movedBytes: 0, droppedSnapshotRows: 0, sidecarURL: nil)
        }
        let cut = replay.length
        let dropped = replay.snapshotRowsLeft
        let kept = JSONByteWriter(capacity: cut + 4096)
        if dropped > 0 {
            var header = original
            header.rows -= dropped
            header.write(to: kept)
            let headerLength = bytes.firstIndex(of: 0x0A)! + 1
            bytes.withUnsafeBytes {
                kept.append(UnsafeRawBufferPointer(rebasing: $0[headerLength..<cut]))
            }
        } else {
            bytes.withUnsafeBytes { kept.append(UnsafeRawBufferPointer(rebasing: $0[..<cut])) }
        }
        let sidecar = try access.replace(
            with: kept,
            end: StoreEndRecord(
                store: original.storeIdentifier, transaction: replay.lastTransaction,
                length: kept.count), keeping: bytes[cut...], what: "its good part")
        return JSONLinesStoreRepair(
            firstDamagedLine: damage.line, reason: damage.reason, keptLines: replay.lineCount,
            keptBytes: kept.count, movedBytes: bytes.count - cut, droppedSnapshotRows: dropped,
            sidecarURL: URL(fileURLWithPath: sidecar))
    }
}

/// What a repair works with once it holds the lock: the file, its access, the options.
struct RepairAccess {
    let path: String
    /// The store file's status (its permission bits and owner are the sidecar's too).
    let status: FileStatus
    let lock: WriterLock
    let options: StoreOptions
    let fileSystem: any StoreFileSystem

    /// Saves `aside` in a sidecar, lowers the lock file's end record to `end`, and replaces
    /// the file with `kept`'s bytes; returns the sidecar's path.
    ///
    /// - Throws: `.storeOperationFailed` (134070) when the lock file was removed meanwhile (another
    ///   writer may be writing: nothing is replaced) or when writing fails.
    func replace(
        with kept: JSONByteWriter, end: StoreEndRecord, keeping aside: ArraySlice<UInt8>,
        what: String
    ) throws -> String {
        let sidecar = try writeSidecar(aside)
        PausePoints.reach("repair.sidecarWritten")
        guard lock.isIntact else {
            throw ObjectGraphError(
                .storeOperationFailed,
                "store \(path): the lock file \(lock.path) was removed while repairing, so "
                    + "another writer may be writing; the file is unchanged (the damaged part "
                    + "is also saved in \(sidecar))", file: path)
        }
        // The end record goes down first: a reader that reads it and then the old file sees
        // more transactions than recorded, never fewer.
        lock.record(end)
        do {
            try StoreFileReplacer(
                path: path, fileSystem: fileSystem, synchronous: options.synchronous
            ).replace(with: kept.bytes) { fd in fileSystem.close(fd) }
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path,
                "replacing the file with \(what) (the original part is saved in \(sidecar))",
                error)
        }
        return sidecar
    }

    /// Writes the set-aside bytes to the first free `FILE.corrupt-<UTC timestamp>[-n]`, with the
    /// store file's permission bits and owner, and syncs it.
    private func writeSidecar(_ bytes: ArraySlice<UInt8>) throws -> String {
        let fs = fileSystem
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = path + ".corrupt-" + formatter.string(from: options.clock())
        do {
            // Created with O_EXCL: an existing file of that name is never overwritten.
            var candidate = base
            var n = 1
            var opened: Int32?
            while opened == nil {
                do {
                    opened = try fs.open(candidate, .readWriteCreatingNew)
                } catch let e as FileSystemError where e.code == EEXIST {
                    n += 1
                    candidate = "\(base)-\(n)"
                }
            }
            let fd = opened!
            defer { fs.close(fd) }
            try fs.adoptAccess(fd, of: status)  // it holds the store's data: same access
            try bytes.withUnsafeBytes { try fs.writeAll(fd, $0, at: 0) }
            if options.synchronous != .off {
                try fs.sync(fd)
                try fs.syncDirectory(of: candidate)
            }
            return candidate
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "saving the damaged part beside the file", error)
        }
    }
}
