import Foundation

/// The single-writer lock of a store file: `flock` on the sidecar `FILE.lock`, which holds
/// the writer's pid.
///
/// The lock is on a sidecar because compaction replaces the data file's inode. `flock`
/// belongs to an open file description, so two opens in one process already exclude each
/// other; the in-process registry (by the lock file's device and inode) turns that case
/// into a clearer message.
final class WriterLock: @unchecked Sendable {
    // Sendable: `fd` and `key` are immutable; `isHeld` is only touched by the owning store
    // under its lock; the registry is guarded by `registryLock`.
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
    private var isHeld = true

    private init(fileSystem: any StoreFileSystem, fd: Int32, key: Key) {
        self.fileSystem = fileSystem
        self.fd = fd
        self.key = key
    }

    /// Takes the lock for the store at `dataPath`, waiting up to `timeout` seconds.
    ///
    /// - Throws: `.storeLocked` (134090) naming the holder's pid when it stays held;
    ///   `.storeOpenFailed` (134080) when the lock file cannot be opened.
    static func acquire(
        for dataPath: String, fileSystem fs: any StoreFileSystem, timeout: TimeInterval
    ) throws
        -> WriterLock
    {
        let path = dataPath + ".lock"
        let fd: Int32
        let identity: FileStatus
        do {
            fd = try fs.open(path, .readWriteCreating)
            identity = try fs.status(fd)
        } catch {
            throw StoreFileErrors.io(
                .storeOpenFailed, dataPath, "opening the lock file \(path)", error)
        }
        let key = Key(namespace: fs.namespace, device: identity.device, inode: identity.inode)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while true {
            var inThisProcess = false
            do {
                if try claim(key, fs: fs, fd: fd) {
                    let lock = WriterLock(fileSystem: fs, fd: fd, key: key)
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
            usleep(10_000)
        }
    }

    /// Releases the lock (idempotent): empties the pid, unlocks, closes.
    func release() {
        guard isHeld else { return }
        isHeld = false
        try? fileSystem.truncate(fd, to: 0)
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

    private func writePID() {
        let text = Array("\(fileSystem.processID)\n".utf8)
        try? fileSystem.truncate(fd, to: 0)
        _ = try? text.withUnsafeBytes { try fileSystem.writeAll(fd, $0, at: 0) }
    }

    private static func readPID(fs: any StoreFileSystem, fd: Int32) -> String? {
        guard let bytes = try? fs.readToEnd(fd),
            case let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines),
            !text.isEmpty, text.allSatisfy(\.isNumber)
        else { return nil }
        return text
    }
}
