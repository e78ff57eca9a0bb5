import Foundation

/// The single-writer lock of a store file: `flock` on the sidecar `FILE.lock`, which holds
/// the writer's pid.
///
/// The lock is on a sidecar because compaction replaces the data file's inode. `flock`
/// belongs to an open file description, so two opens in one process already exclude each
/// other; the in-process registry (by the lock file's device and inode) turns that case
/// into a clearer message.
final class WriterLock: @unchecked Sendable {
    // Sendable: `fd` and `key` are immutable; `isHeld` and `end` are only touched by the owning
    // store under its lock; the registry is guarded by `registryLock`.
    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: Set<Key> = []

    /// A lock file's identity: file system, device and inode.
    private struct Key: Hashable {
        let namespace: Int
        let device: UInt64
        let inode: UInt64
    }

    private let fileSystem: any StoreFileSystem
    private let fd: Int32
    private let key: Key
    /// The lock file's path.
    let path: String
    private var isHeld = true
    /// Where the data file ended when its writer last recorded it (kept in the lock file).
    private(set) var end: StoreEndRecord?
    /// The lock file's length as this lock last wrote it (`nil` before the first write).
    private var writtenLength: Int?

    private init(fileSystem: any StoreFileSystem, fd: Int32, key: Key, path: String) {
        self.fileSystem = fileSystem
        self.fd = fd
        self.key = key
        self.path = path
    }

    /// Takes the lock for the store at `dataPath`, waiting up to `timeout` seconds.
    ///
    /// Once `flock` succeeds, the lock file's path must still name the locked file: a lock
    /// file removed or replaced in the meantime locks nothing, so the attempt starts over
    /// with the file now at the path.
    ///
    /// - Throws: `.storeLocked` (134090) naming the holder's pid when it stays held;
    ///   `.storeOpenFailed` (134080) when the lock file cannot be opened or is not a regular file.
    static func acquire(
        for dataPath: String, fileSystem fs: any StoreFileSystem, timeout: TimeInterval
    ) throws
        -> WriterLock
    {
        let path = dataPath + ".lock"
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while true {
            let fd: Int32
            let identity: FileStatus
            do {
                fd = try fs.open(path, .readWriteCreating)
                do {
                    identity = try fs.status(fd)
                } catch {
                    fs.close(fd)
                    throw error
                }
            } catch {
                throw StoreFileErrors.io(
                    .storeOpenFailed, dataPath, "opening the lock file \(path)", error)
            }
            guard identity.isRegularFile else {
                fs.close(fd)
                throw StoreFileErrors.notRegular(dataPath, identity.kind, lockFile: path)
            }
            let key = Key(namespace: fs.namespace, device: identity.device, inode: identity.inode)
            var inThisProcess = false
            do {
                if try claim(key, fs: fs, fd: fd) {
                    let lock = WriterLock(fileSystem: fs, fd: fd, key: key, path: path)
                    guard lock.isIntact else {
                        lock.release()  // the file was removed or replaced: lock the new one
                        continue
                    }
                    lock.writePID()
                    return lock
                }
                inThisProcess = registered(key)
            } catch {
                fs.close(fd)
                throw StoreFileErrors.io(.storeOpenFailed, dataPath, "locking \(path)", error)
            }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                let pid = inThisProcess ? nil : readPID(fs: fs, fd: fd)
                fs.close(fd)
                throw StoreFileErrors.locked(
                    dataPath, pid: pid, inThisProcess: inThisProcess, waited: timeout)
            }
            fs.close(fd)
            PausePoints.reach("lock.busy")
            usleep(10_000)
        }
    }

    /// Whether the lock file's path still names the file this lock holds. When it does not
    /// (someone removed `FILE.lock`), another writer may lock the new file, so this one must
    /// stop writing.
    var isIntact: Bool {
        guard let current = try? fileSystem.status(atPath: path) else { return false }
        return current.device == key.device && current.inode == key.inode
    }

    /// Releases the lock (idempotent): empties the pid (keeping the end record), unlocks,
    /// closes.
    func release() {
        guard isHeld else { return }
        isHeld = false
        write(Self.contents(pid: nil, end: end))
        fileSystem.unlock(fd)
        fileSystem.close(fd)
        Self.registryLock.lock()
        Self.registry.remove(key)
        Self.registryLock.unlock()
    }

    deinit { release() }

    private static func claim(_ key: Key, fs: any StoreFileSystem, fd: Int32) throws -> Bool {
        guard try fs.tryLock(fd) else { return false }
        registryLock.lock()
        let inserted = registry.insert(key).inserted
        registryLock.unlock()
        if !inserted { fs.unlock(fd) }
        return inserted
    }

    private static func registered(_ key: Key) -> Bool {
        registryLock.lock()
        defer { registryLock.unlock() }
        return registry.contains(key)
    }

    /// Writes this process's pid, keeping the end record the file holds.
    private func writePID() {
        let previous = try? fileSystem.readToEnd(fd)
        end = previous.flatMap(Self.record(in:))
        writtenLength = previous?.count
        write(Self.contents(pid: fileSystem.processID, end: end))
    }

    /// Replaces the lock file's content (best effort: a lock file that cannot be written
    /// loses readers the pid and the end record, nothing else).
    private func write(_ bytes: [UInt8]) {
        try? fileSystem.replaceContents(fd, with: bytes, previousLength: writtenLength)
        writtenLength = bytes.count
    }

    /// Records where the data file now ends (after a commit, a compaction, a repair).
    /// Best effort: a record that fails to be written only loses a later reader the check.
    func record(_ end: StoreEndRecord) {
        guard isHeld, end != self.end else { return }
        self.end = end
        write(Self.contents(pid: fileSystem.processID, end: end))
    }

    /// The lock file's text: the pid line (empty when no writer holds it), then the record.
    private static func contents(pid: Int32?, end: StoreEndRecord?) -> [UInt8] {
        let pidLine = pid.map { "\($0)\n" } ?? (end == nil ? "" : "\n")
        return Array((pidLine + (end.map { $0.line + "\n" } ?? "")).utf8)
    }

    private static func readPID(fs: any StoreFileSystem, fd: Int32) -> String? {
        guard let bytes = try? fs.readToEnd(fd),
            let first = String(decoding: bytes, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false
            ).first,
            !first.isEmpty, first.allSatisfy(\.isNumber)
        else { return nil }
        return String(first)
    }

    /// The end record in a lock file's bytes, if any.
    static func record(in bytes: [UInt8]) -> StoreEndRecord? {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").lazy
            .compactMap { StoreEndRecord(line: String($0)) }.first
    }

    /// The end record in the lock file of the store at `dataPath`, read without locking.
    static func record(forStore dataPath: String, fileSystem fs: any StoreFileSystem)
        -> StoreEndRecord?
    {
        guard let status = try? fs.status(atPath: dataPath + ".lock"), status.isRegularFile,
            status.size < 4096, let fd = try? fs.open(dataPath + ".lock", .readOnly)
        else { return nil }
        defer { fs.close(fd) }
        return (try? fs.readToEnd(fd)).flatMap(record(in:))
    }
}
