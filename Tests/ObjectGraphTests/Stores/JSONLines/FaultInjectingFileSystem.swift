import Foundation

@testable import ObjectGraph

/// The real file system with faults injected through the seam (sessions run as root, so
/// permissions cannot make I/O fail).
final class FaultInjectingFileSystem: StoreFileSystem, @unchecked Sendable {
    // Sendable: `faults` is guarded by `lock`; the wrapped file system is a stateless struct.
    enum Kind: Equatable { case open, write, sync, truncate, rename, link, syncDirectory }
    enum Fault {
        case fail(Int32)
        case partialThenFail(Int, Int32)
    }

    private let base = PosixFileSystem()
    private let lock = NSLock()
    private var faults: [(Kind, Fault)] = []
    /// Whether the stores on this file system act as another process's: they do not share
    /// this process's writer locks, and write another pid.
    private let actsAsAnotherProcess: Bool

    /// The real file system; as another process's when `actingAsAnotherProcess`.
    init(actingAsAnotherProcess: Bool = false) {
        self.actsAsAnotherProcess = actingAsAnotherProcess
    }

    private var beforeWrite: (@Sendable () -> Void)?

    /// Runs `action` once, just before the next write (another party looking at the file
    /// at that moment).
    func beforeNextWrite(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        beforeWrite = action
        lock.unlock()
    }

    /// Makes the next operation of `kind` fail (once).
    func failNext(_ kind: Kind, _ fault: Fault) {
        lock.lock()
        faults.append((kind, fault))
        lock.unlock()
    }

    private func take(_ kind: Kind) -> Fault? {
        lock.lock()
        defer { lock.unlock() }
        guard let i = faults.firstIndex(where: { $0.0 == kind }) else { return nil }
        return faults.remove(at: i).1
    }

    private func check(_ kind: Kind, _ what: String) throws {
        switch take(kind) {
        case .fail(let code)?, .partialThenFail(_, let code)?:
            throw FileSystemError(operation: what, path: "(injected)", code: code)
        case nil: return
        }
    }

    /// Opens through the real file system; an injected `.open` fault fails the next open of
    /// an existing file for writing (`.readWrite`), as a file this process may not write
    /// would for a user other than root; reading it still works.
    func open(_ path: String, _ mode: FileOpenMode) throws -> Int32 {
        if mode == .readWrite { try check(.open, "open") }
        let fd = try base.open(path, mode)
        lock.lock()
        openCount += 1
        lock.unlock()
        return fd
    }
    func adoptAccess(_ fd: Int32, of status: FileStatus) throws {
        try base.adoptAccess(fd, of: status)
    }
    func close(_ fd: Int32) {
        base.close(fd)
        lock.lock()
        openCount -= 1
        lock.unlock()
    }
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int
    {
        lock.lock()
        let failing = readFault.map { offset + buffer.count > $0.offset } ?? false
        let code = readFault?.code ?? 0
        lock.unlock()
        if failing { throw FileSystemError(operation: "read", path: "(injected)", code: code) }
        let n = try base.read(fd, into: buffer, at: offset)
        lock.lock()
        bytes += n
        lock.unlock()
        return n
    }
    private var writes = 0
    private var bytes = 0
    /// From which offset on reads fail, and with which errno.
    private var readFault: (offset: Int, code: Int32)?
    private var openCount = 0

    /// Makes every read that would reach past `offset` fail with `code`.
    func failReads(reachingPast offset: Int, _ code: Int32) {
        lock.lock()
        readFault = (offset, code)
        lock.unlock()
    }

    /// How many files opened through this file system are still open.
    var filesOpen: Int {
        lock.lock()
        defer { lock.unlock() }
        return openCount
    }

    /// How many bytes reads returned so far.
    var bytesRead: Int {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }

    /// How many writes were asked for so far.
    var writeCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return writes
    }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int {
        lock.lock()
        writes += 1
        let action = beforeWrite
        beforeWrite = nil
        lock.unlock()
        action?()
        switch take(.write) {
        case .fail(let code)?:
            throw FileSystemError(operation: "write", path: "(injected)", code: code)
        case .partialThenFail(let k, let code)?:
            _ = try base.write(
                fd, UnsafeRawBufferPointer(rebasing: bytes[..<min(k, bytes.count)]), at: offset)
            failNext(.write, .fail(code))  // the next attempt, for the rest, fails
            return min(k, bytes.count)
        case nil: return try base.write(fd, bytes, at: offset)
        }
    }
    func sync(_ fd: Int32) throws {
        try check(.sync, "fsync")
        try base.sync(fd)
    }
    func truncate(_ fd: Int32, to length: Int) throws {
        try check(.truncate, "ftruncate")
        try base.truncate(fd, to: length)
    }
    func status(_ fd: Int32) throws -> FileStatus { try base.status(fd) }
    func status(atPath path: String) throws -> FileStatus? { try base.status(atPath: path) }
    func rename(_ from: String, to: String) throws {
        try check(.rename, "rename")
        try base.rename(from, to: to)
    }
    func link(_ existing: String, to new: String) throws {
        try check(.link, "link")
        try base.link(existing, to: new)
    }
    func resolvingSymbolicLinks(_ path: String) throws -> String {
        try base.resolvingSymbolicLinks(path)
    }
    func remove(_ path: String) throws { try base.remove(path) }
    func syncDirectory(of path: String) throws {
        try check(.syncDirectory, "fsync directory")
        try base.syncDirectory(of: path)
    }
    func tryLock(_ fd: Int32) throws -> Bool { try base.tryLock(fd) }
    func unlock(_ fd: Int32) { base.unlock(fd) }
    func isLocked(atPath path: String) -> Bool? { base.isLocked(atPath: path) }
    func replaceContents(_ fd: Int32, with bytes: [UInt8], previousLength: Int?) throws {
        try base.replaceContents(fd, with: bytes, previousLength: previousLength)
    }
    var processID: Int32 { actsAsAnotherProcess ? base.processID + 1 : base.processID }
    var namespace: Int { actsAsAnotherProcess ? 1 : base.namespace }
}
