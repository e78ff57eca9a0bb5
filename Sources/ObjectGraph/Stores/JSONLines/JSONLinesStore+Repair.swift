import Foundation

/// What ``JSONLinesStore/repair(at:options:)`` did.
public struct JSONLinesStoreRepair: Sendable, Equatable {
    /// The first damaged (or incomplete) line, or `nil` when nothing needed repair.
    public let firstDamagedLine: Int?
    /// Why that line was set aside.
    public let reason: String?
    /// Complete lines kept, the header included.
    public let keptLines: Int
    /// The repaired file's size in bytes.
    public let keptBytes: Int
    /// Bytes moved to ``sidecarURL``.
    public let movedBytes: Int
    /// Snapshot rows the header no longer announces (damage inside the snapshot).
    public let droppedSnapshotRows: Int
    /// Where the damaged part went (`FILE.corrupt-YYYYMMDDTHHMMSSZ`), or `nil`.
    public let sidecarURL: URL?

    /// Whether anything was moved aside.
    public var didRepair: Bool { sidecarURL != nil }
}

extension JSONLinesStore {
    /// Makes a damaged store file readable again without deleting anything: keeps every line
    /// before the first damaged one and moves the rest to `FILE.corrupt-<timestamp>`.
    ///
    /// Takes the writer lock (so no writer may be open). An incomplete last line is moved
    /// aside too. When the damage lies inside the snapshot, the header is rewritten to
    /// announce only the rows kept. The repaired file replaces the old one atomically; a
    /// healthy file is left untouched.
    ///
    /// ```swift
    /// let result = try JSONLinesStore.repair(at: url)
    /// if let sidecar = result.sidecarURL { print("moved \(result.movedBytes) bytes to \(sidecar.path)") }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The store file.
    ///   - options: `clock` names the sidecar (UTC), `lockTimeout` waits for a writer,
    ///     `synchronous` decides the syncs.
    /// - Throws: ``ObjectGraphError`` — `.storeLocked` (134090) when a writer holds the lock;
    ///   `.notAStoreFile` (134000) or `.storeCorrupt` (259) when even the header is
    ///   damaged (nothing can be kept); `.storeOperationFailed` (134070) when writing fails;
    ///   `.storeOpenFailed` (134080) when the file cannot be opened for writing (as a writer,
    ///   and so `compact()`, needs); `.readOnlyStore` (134030) when `options` ask for a
    ///   read-only store,
    ///   like ``compact()`` on one. The repaired file and the sidecar keep the file's
    ///   permission bits (and owner and group where this process may set them).
    public static func repair(at url: URL, options: StoreOptions = StoreOptions()) throws
        -> JSONLinesStoreRepair
    {
        try repair(at: url, options: options, fileSystem: PosixFileSystem())
    }

    static func repair(at url: URL, options: StoreOptions, fileSystem fs: any StoreFileSystem)
        throws
        -> JSONLinesStoreRepair
    {
        let path = url.path
        if options.isReadOnly {
            throw StoreErrors.readOnly(url, "repair")
        }
        guard let status = try fs.status(atPath: path) else { throw StoreFileErrors.missing(path) }
        let lock = try WriterLock.acquire(for: path, fileSystem: fs, timeout: options.lockTimeout)
        defer { lock.release() }
        // Opened for writing, as a writer (and so `compact`) opens it: a file this process may
        // not write is refused here, before anything is moved aside.
        let fd: Int32
        do {
            fd = try fs.open(path, .readWrite)
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
        let (original, replay, damage) = try bytes.withUnsafeBytes { raw in
            let header = try StoreFileLoader.readHeader(raw, path: path)
            let headerLength = raw.firstIndex(of: 0x0A)! + 1
            let codec = RowCodec(
                model: try header.model(path: path), storeIdentifier: header.storeIdentifier,
                path: path)
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
        let sidecar = try writeSidecar(
            bytes[cut...], for: path, access: status, options: options, fileSystem: fs)
        do {
            try StoreFileReplacer(path: path, fileSystem: fs, synchronous: options.synchronous)
                .replace(with: kept.bytes) { fd in fs.close(fd) }
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path,
                "replacing the file with its good part (the damaged "
                    + "part is saved in \(sidecar))", error)
        }
        return JSONLinesStoreRepair(
            firstDamagedLine: damage.line, reason: damage.reason, keptLines: replay.lineCount,
            keptBytes: kept.count, movedBytes: bytes.count - cut, droppedSnapshotRows: dropped,
            sidecarURL: URL(fileURLWithPath: sidecar))
    }

    /// Writes the set-aside bytes to the first free `FILE.corrupt-<UTC timestamp>[-n]`, with the
    /// store file's permission bits and owner, and syncs it.
    private static func writeSidecar(
        _ bytes: ArraySlice<UInt8>, for path: String, access: FileStatus, options: StoreOptions,
        fileSystem fs: any StoreFileSystem
    ) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = path + ".corrupt-" + formatter.string(from: options.clock())
        do {
            var candidate = base
            var n = 1
            while try fs.status(atPath: candidate) != nil {
                n += 1
                candidate = "\(base)-\(n)"
            }
            let fd = try fs.open(candidate, .readWriteTruncating)
            defer { fs.close(fd) }
            try fs.adoptAccess(fd, of: access)  // it holds the store's data: same access
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
