import Foundation

/// The single-writer lock of a store file: `flock` on the sidecar `FILE.lock`, which holds
/// the writer's pid.
///
/// The lock is on a sidecar because compaction replaces the data file's inode. `flock`
/// belongs to an open file description, so the process takes it once: a second writer of the
/// same file in this process (found in the in-process registry by the lock file's device and
/// inode) shares the lock, as Core Data's coordinators share a process's SQLite writer. The
/// stores sharing it take turns through ``serializingWrites(_:)`` and count their writes in
/// ``writeCount``, so each knows when to catch up with the file before reading or writing.
final class WriterLock: @unchecked Sendable {
    // Sendable: `fd`, `key` and `path` are immutable; `isHeld`, `end` and `writtenLength` are
    // touched only while holding `writes` (or before the lock is shared); `holders` and the
    // registry are guarded by `registryLock`; `writeCounter` and `observers` by `counterLock`.
    private static let registryLock = NSLock()
    /// Serialises claims (see `claim`).
    private static let claimLock = NSLock()
    nonisolated(unsafe) private static var registry: [Key: WriterLock] = [:]
    /// The stores holding this lock (one, unless shared in this process).
    private var holders = 1
    /// Serialises the sharing stores' writes (commits, compactions, opening checks).
    private let writes = NSRecursiveLock()
    private let counterLock = NSLock()
    private var writeCounter = 0
    /// Called after each counted write (see ``observeWrites(_:)``).
    private var observers: [UUID: @Sendable () -> Void] = [:]

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
    /// A store of this process that holds the lock shares it (when `sharing`): the lock is
    /// returned with one more holder.
    ///
    /// - Parameter sharing: Whether to share a lock this process holds; `false` (a repair,
    ///   which replaces the file under any open store) treats it as held by another writer.
    /// - Throws: `.storeLocked` (134090) naming the holder's pid when it stays held;
    ///   `.storeOpenFailed` (134080) when the lock file cannot be opened or is not a regular file.
    static func acquire(
        for dataPath: String, fileSystem fs: any StoreFileSystem, timeout: TimeInterval,
        sharing: Bool = true
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
                switch try claim(key, fs: fs, fd: fd, path: path, sharing: sharing) {
                case .shared(let lock):
                    fs.close(fd)
                    guard lock.isIntact else {
                        lock.release()
                        throw StoreFileErrors.lockLost(dataPath, lockPath: path)
                    }
                    return lock
                case .new(let lock):
                    // Still holding `writes` (taken in `claim`): a store sharing the lock
                    // waits for the pid and end record.
                    defer { lock.writes.unlock() }
                    guard lock.isIntact else {
                        lock.release()  // the file was removed or replaced: lock the new one
                        continue
                    }
                    lock.writePID()
                    return lock
                case .busy:
                    inThisProcess = registered(key)
                }
            } catch let e as ObjectGraphError {
                throw e
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

    /// Releases this holder's share of the lock; the last one out empties the pid (keeping
    /// the end record), unlocks and closes. Each holder releases once.
    func release() {
        Self.registryLock.lock()
        holders -= 1
        let last = holders == 0
        if last { Self.registry[key] = nil }
        Self.registryLock.unlock()
        guard last else { return }
        serializingWrites {
            guard isHeld else { return }
            isHeld = false
            write(Self.contents(pid: nil, end: end))
            fileSystem.unlock(fd)
            fileSystem.close(fd)
        }
    }

    /// Whether one store alone holds the lock.
    var isSoleHolder: Bool {
        Self.registryLock.lock()
        defer { Self.registryLock.unlock() }
        return holders == 1
    }

    /// Runs `body` while no other store sharing the lock writes.
    func serializingWrites<T>(_ body: () throws -> T) rethrows -> T {
        writes.lock()
        defer { writes.unlock() }
        return try body()
    }

    /// How many writes (commits, compactions) the sharing stores have made; a store whose
    /// last look is older catches up with the file first.
    var writeCount: Int {
        counterLock.lock()
        defer { counterLock.unlock() }
        return writeCounter
    }

    /// Counts a write made by one of the sharing stores; returns the new count.
    func noteWrite() -> Int {
        counterLock.lock()
        writeCounter += 1
        let count = writeCounter
        let observers = Array(self.observers.values)
        counterLock.unlock()
        for observer in observers { observer() }
        return count
    }

    /// Calls `observer` after each write the sharing stores count, from the writing thread
    /// (so it must only hand the news on, e.g. enqueue a look at the file). Returns a token
    /// for ``stopObservingWrites(_:)``.
    func observeWrites(_ observer: @escaping @Sendable () -> Void) -> UUID {
        let token = UUID()
        counterLock.lock()
        observers[token] = observer
        counterLock.unlock()
        return token
    }

    /// Stops calling the observer of `token`.
    func stopObservingWrites(_ token: UUID) {
        counterLock.lock()
        observers[token] = nil
        counterLock.unlock()
    }

    /// What ``claim(_:fs:fd:path:)`` got.
    private enum Claim {
        /// The lock this process already held, with one more holder.
        case shared(WriterLock)
        /// A new lock on `fd`, registered, with its `writes` lock held by the caller.
        case new(WriterLock)
        /// Another process holds it.
        case busy
    }

    /// Shares this process's lock for `key` (if `sharing`), or takes it with `fd`; atomically, so that two
    /// stores of this process opening the file at once share one lock.
    private static func claim(
        _ key: Key, fs: any StoreFileSystem, fd: Int32, path: String, sharing: Bool
    ) throws -> Claim {
        // One claim at a time, so two stores of this process opening the file at once share
        // one lock. `registryLock` is not held across `tryLock` (a test file system's hook
        // may close a store meanwhile, which releases its lock).
        claimLock.lock()
        defer { claimLock.unlock() }
        if sharing, let lock = registered(key, addingHolder: true) { return .shared(lock) }
        // Held in this process and not to be shared: `flock` refuses this descriptor too.
        guard try fs.tryLock(fd) else { return .busy }
        registryLock.lock()
        defer { registryLock.unlock() }
        if registry[key] != nil {
            fs.unlock(fd)
            return .busy
        }
        let lock = WriterLock(fileSystem: fs, fd: fd, key: key, path: path)
        lock.writes.lock()
        registry[key] = lock
        return .new(lock)
    }

    /// The lock this process holds for `key`, if any (with one more holder if asked).
    private static func registered(_ key: Key, addingHolder: Bool) -> WriterLock? {
        registryLock.lock()
        defer { registryLock.unlock() }
        guard let lock = registry[key] else { return nil }
        if addingHolder { lock.holders += 1 }
        return lock
    }

    private static func registered(_ key: Key) -> Bool {
        registryLock.lock()
        defer { registryLock.unlock() }
        return registry[key] != nil
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
