import Foundation

@testable import ObjectGraph

/// An in-memory file system that models what survives a crash: each file's data as the
/// process sees it and as last synced, and the directory as the process sees it and as last
/// synced. Faults are injected per operation: fail with an errno, crash before the operation,
/// or write only part of a buffer and then crash or fail.
///
/// After a crash every call throws ``SimulatedCrash``; ``afterCrash(_:)`` gives the
/// file system a new process would see: everything (a killed process) or only what was synced
/// (a power cut).
final class SimulatedFileSystem: StoreFileSystem, @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    /// One mutating operation, as the fault injector sees it.
    enum Operation: Equatable, CustomStringConvertible {
        case open(String)
        case write(String, bytes: Int)
        case sync(String)
        case truncate(String, to: Int)
        case rename(String, String)
        case link(String, String)
        case remove(String)
        case syncDirectory

        var description: String {
            switch self {
            case .open(let p): "open \(p.split(separator: "/").last ?? "")"
            case .write(let p, let n): "write \(n) bytes to \(p.split(separator: "/").last ?? "")"
            case .sync(let p): "fsync \(p.split(separator: "/").last ?? "")"
            case .truncate(let p, let n): "truncate \(p.split(separator: "/").last ?? "") to \(n)"
            case .rename(let a, let b):
                "rename \(a.split(separator: "/").last ?? "") → \(b.split(separator: "/").last ?? "")"
            case .link(let a, let b):
                "link \(a.split(separator: "/").last ?? "") → \(b.split(separator: "/").last ?? "")"
            case .remove(let p): "remove \(p.split(separator: "/").last ?? "")"
            case .syncDirectory: "fsync directory"
            }
        }
    }

    /// What to do instead of an operation.
    enum Fault {
        case fail(Int32)
        case crash
        case partialThenCrash(Int)
        case partialThenFail(Int, Int32)
    }

    struct SimulatedCrash: Error, CustomStringConvertible {
        var description: String { "simulated crash" }
    }

    final class Inode {
        let number: UInt64
        var data: [UInt8]
        var synced: [UInt8]
        var lockHolder: Int32?

        init(number: UInt64, data: [UInt8] = [], synced: [UInt8] = []) {
            self.number = number
            self.data = data
            self.synced = synced
        }
    }

    private let lock = NSLock()
    private var entries: [String: Inode]
    private var syncedEntries: [String: Inode]
    private var descriptors: [Int32: (inode: Inode, path: String)] = [:]
    private var nextDescriptor: Int32 = 3
    private var nextInode: UInt64
    private var crashed = false
    private var operationCount = 0
    /// Decides the fate of each mutating operation (by its 0-based index since the last reset).
    var injector: ((Operation, Int) -> Fault?)?
    /// Called (outside the file system's lock) after each refused lock attempt.
    var lockAttemptHook: (@Sendable () -> Void)?
    /// Called (outside the file system's lock) before each `link`: another process's move.
    var beforeLink: ((SimulatedFileSystem) -> Void)?
    /// Every mutating operation performed or attempted, in order.
    private(set) var operations: [Operation] = []
    let processID: Int32
    let namespace: Int
    private static let namespaces = NamespaceCounter()

    init(processID: Int32 = 4242) {
        self.entries = [:]
        self.syncedEntries = [:]
        self.nextInode = 100
        self.processID = processID
        self.namespace = Self.namespaces.next()
    }

    private init(entries: [String: Inode], nextInode: UInt64, processID: Int32) {
        self.entries = entries
        self.syncedEntries = entries
        self.nextInode = nextInode
        self.processID = processID
        self.namespace = Self.namespaces.next()
    }

    /// Starts counting operations from 0 and forgets the log; sets the injector.
    func inject(_ injector: ((Operation, Int) -> Fault?)?) {
        locked {
            operationCount = 0
            operations = []
            self.injector = injector
        }
    }

    /// How a crash ends the process.
    enum CrashKind: CaseIterable, CustomStringConvertible {
        /// The process is killed: the operating system keeps everything written.
        case kill
        /// The power is cut: only synced data and directory entries synced survive.
        case powerCut
        /// The power is cut after the file system journaled every directory change (rename,
        /// create) but before unsynced data reached the disk: the case that turns a rename
        /// done before its file's sync into an empty file.
        case powerCutAfterMetadata

        var description: String {
            switch self {
            case .kill: "kill"
            case .powerCut: "power cut"
            case .powerCutAfterMetadata: "power cut after metadata"
            }
        }
    }

    /// The file system a restarted process sees after `kind` of crash. Locks and descriptors
    /// are gone.
    func afterCrash(_ kind: CrashKind) -> SimulatedFileSystem {
        locked {
            var copied: [ObjectIdentifier: Inode] = [:]
            let source = kind == .powerCut ? syncedEntries : entries
            var result: [String: Inode] = [:]
            for (path, inode) in source {
                let data = kind == .kill ? inode.data : inode.synced
                let copy =
                    copied[ObjectIdentifier(inode)]
                    ?? Inode(number: inode.number, data: data, synced: data)
                copied[ObjectIdentifier(inode)] = copy
                result[path] = copy
            }
            return SimulatedFileSystem(
                entries: result, nextInode: nextInode, processID: processID + 1)
        }
    }

    /// An independent copy of the current state, as a fresh process sees it.
    func copy() -> SimulatedFileSystem { afterCrash(.kill) }

    /// The bytes a process would read at `path` now.
    func contents(_ path: String) -> [UInt8]? { locked { entries[path]?.data } }

    /// Replaces the bytes at `path` (synced), creating the file if needed.
    func setContents(_ path: String, _ bytes: [UInt8]) {
        locked {
            let inode = entries[path] ?? newInode()
            inode.data = bytes
            inode.synced = bytes
            entries[path] = inode
            syncedEntries[path] = inode
        }
    }

    /// The paths that exist now.
    var paths: [String] { locked { entries.keys.sorted() } }

    // MARK: StoreFileSystem

    func open(_ path: String, _ mode: FileOpenMode) throws -> Int32 {
        try locked {
            let mutating =
                mode == .readWriteCreating || mode == .readWriteTruncating
                || mode == .readWriteCreatingNew
            if mutating { try check(.open(path)) } else if crashed { throw SimulatedCrash() }
            if mode == .readWriteCreatingNew, entries[path] != nil {
                throw FileSystemError(operation: "open", path: path, code: EEXIST)
            }
            var inode = entries[path]
            if inode == nil {
                guard mutating else {
                    throw FileSystemError(operation: "open", path: path, code: ENOENT)
                }
                inode = newInode()
                entries[path] = inode
            }
            if mode == .readWriteTruncating { inode!.data = [] }
            let fd = nextDescriptor
            nextDescriptor += 1
            descriptors[fd] = (inode!, path)
            return fd
        }
    }

    func close(_ fd: Int32) {
        locked {
            if let d = descriptors.removeValue(forKey: fd), d.inode.lockHolder == fd {
                d.inode.lockHolder = nil
            }
        }
    }

    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int
    {
        try locked {
            if crashed { throw SimulatedCrash() }
            let data = try descriptor(fd).inode.data
            guard offset < data.count else { return 0 }
            let n = min(buffer.count, data.count - offset)
            data.withUnsafeBytes {
                buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n)
            }
            return n
        }
    }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int {
        try locked {
            let d = try descriptor(fd)
            var count = bytes.count
            var after: (any Error)?
            switch nextFault(.write(d.path, bytes: bytes.count)) {
            case nil: break
            case .fail(let code):
                throw FileSystemError(operation: "write", path: d.path, code: code)
            case .crash:
                crashed = true
                throw SimulatedCrash()
            case .partialThenCrash(let k):
                count = min(k, count)
                crashed = true
                after = SimulatedCrash()
            case .partialThenFail(let k, let code):
                count = min(k, count)
                after = FileSystemError(operation: "write", path: d.path, code: code)
            }
            if d.inode.data.count < offset {
                d.inode.data += [UInt8](repeating: 0, count: offset - d.inode.data.count)
            }
            let end = offset + count
            if d.inode.data.count < end {
                d.inode.data += [UInt8](repeating: 0, count: end - d.inode.data.count)
            }
            d.inode.data.replaceSubrange(
                offset..<end, with: UnsafeRawBufferPointer(rebasing: bytes[..<count]))
            if let after { throw after }
            return count
        }
    }

    func sync(_ fd: Int32) throws {
        try locked {
            let d = try descriptor(fd)
            try check(.sync(d.path))
            d.inode.synced = d.inode.data
        }
    }

    func truncate(_ fd: Int32, to length: Int) throws {
        try locked {
            let d = try descriptor(fd)
            try check(.truncate(d.path, to: length))
            if d.inode.data.count > length {
                d.inode.data.removeSubrange(length...)
            } else {
                d.inode.data += [UInt8](repeating: 0, count: length - d.inode.data.count)
            }
        }
    }

    func status(_ fd: Int32) throws -> FileStatus {
        try locked {
            if crashed { throw SimulatedCrash() }
            let inode = try descriptor(fd).inode
            return FileStatus(device: 1, inode: inode.number, size: inode.data.count)
        }
    }

    func status(atPath path: String) throws -> FileStatus? {
        try locked {
            if crashed { throw SimulatedCrash() }
            return entries[path].map {
                FileStatus(device: 1, inode: $0.number, size: $0.data.count)
            }
        }
    }

    /// Simulated files have no permissions or owners: nothing to adopt.
    func adoptAccess(_ fd: Int32, of status: FileStatus) throws {
        try locked {
            if crashed { throw SimulatedCrash() }
            _ = try descriptor(fd)
        }
    }

    func rename(_ from: String, to: String) throws {
        try locked {
            try check(.rename(from, to))
            guard let inode = entries.removeValue(forKey: from) else {
                throw FileSystemError(operation: "rename", path: from, code: ENOENT)
            }
            entries[to] = inode
        }
    }

    func link(_ existing: String, to new: String) throws {
        locked { beforeLink }?(self)
        try locked {
            try check(.link(existing, new))
            guard let inode = entries[existing] else {
                throw FileSystemError(operation: "link", path: existing, code: ENOENT)
            }
            guard entries[new] == nil else {
                throw FileSystemError(operation: "link", path: new, code: EEXIST)
            }
            entries[new] = inode
        }
    }

    /// Simulated file systems have no symbolic links.
    func resolvingSymbolicLinks(_ path: String) throws -> String { path }

    func remove(_ path: String) throws {
        try locked {
            guard entries[path] != nil else {
                if crashed { throw SimulatedCrash() }
                return
            }
            try check(.remove(path))
            entries[path] = nil
        }
    }

    func syncDirectory(of path: String) throws {
        try locked {
            try check(.syncDirectory)
            syncedEntries = entries
        }
    }

    func tryLock(_ fd: Int32) throws -> Bool {
        let taken = try locked {
            if crashed { throw SimulatedCrash() }
            let inode = try descriptor(fd).inode
            if let holder = inode.lockHolder, holder != fd { return false }
            inode.lockHolder = fd
            return true
        }
        if !taken { locked { lockAttemptHook }?() }
        return taken
    }

    func isLocked(atPath path: String) -> Bool? {
        locked { entries[path]?.lockHolder != nil }
    }

    func replaceContents(_ fd: Int32, with bytes: [UInt8], previousLength: Int?) throws {
        try locked {
            if crashed { throw SimulatedCrash() }
            try descriptor(fd).inode.data = bytes
        }
    }

    func unlock(_ fd: Int32) {
        locked { if let d = descriptors[fd], d.inode.lockHolder == fd { d.inode.lockHolder = nil } }
    }

    // MARK: Internals

    private func descriptor(_ fd: Int32) throws -> (inode: Inode, path: String) {
        guard let d = descriptors[fd] else {
            throw FileSystemError(operation: "use", path: "fd \(fd)", code: EBADF)
        }
        return d
    }

    private func newInode() -> Inode {
        nextInode += 1
        return Inode(number: nextInode)
    }

    private func nextFault(_ operation: Operation) -> Fault? {
        operations.append(operation)
        defer { operationCount += 1 }
        if crashed { return .crash }
        return injector?(operation, operationCount)
    }

    private func check(_ operation: Operation) throws {
        switch nextFault(operation) {
        case nil: return
        case .fail(let code): throw FileSystemError(operation: "\(operation)", path: "", code: code)
        case .crash, .partialThenCrash:
            crashed = true
            throw SimulatedCrash()
        case .partialThenFail(_, let code):
            throw FileSystemError(operation: "\(operation)", path: "", code: code)
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// Hands out distinct namespaces to simulated file systems.
final class NamespaceCounter: @unchecked Sendable {
    // Sendable: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
