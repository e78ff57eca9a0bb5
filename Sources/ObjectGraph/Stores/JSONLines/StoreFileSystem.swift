import Foundation

/// A file's identity and length, as `stat` reports them.
struct FileStatus: Hashable, Sendable {
    /// What kind of file a path names.
    enum Kind: String, Sendable {
        case regular = "a regular file"
        case directory = "a directory"
        case fifo = "a FIFO (named pipe)"
        case characterDevice = "a character device"
        case blockDevice = "a block device"
        case socket = "a socket"
        case symbolicLink = "a symbolic link"
        case other = "not a regular file"
    }

    var device: UInt64
    var inode: UInt64
    var size: Int
    /// What kind of file it is.
    var kind = Kind.regular
    /// Whether it is a regular file (not a directory, device, FIFO, …).
    var isRegularFile: Bool { kind == .regular }
    /// The permission bits (`st_mode & 0o7777`): what a file replacing this one gets.
    var permissions: UInt32 = 0o644
    /// The owning user id, or `nil` when unknown (simulated file systems).
    var user: UInt32? = nil
    /// The owning group id, or `nil` when unknown.
    var group: UInt32? = nil
}

/// A failed file operation: which, on what, and the `errno`.
struct FileSystemError: Error, CustomStringConvertible, Sendable {
    let operation: String
    let path: String
    let code: Int32

    var description: String {
        "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// How to open a file.
enum FileOpenMode: Sendable {
    /// Read only; the file must exist.
    case readOnly
    /// Read and write; the file must exist.
    case readWrite
    /// Read and write; created empty when missing.
    case readWriteCreating
    /// Read and write; created, or emptied when it exists.
    case readWriteTruncating
    /// Read and write; created, failing with `EEXIST` when the path exists (`O_EXCL`).
    case readWriteCreatingNew
}

/// Every file operation of the file store: the seam through which tests inject failures and
/// simulate crashes (a write cut short, a crash before or after a sync or a rename, a power
/// cut that drops what was never synced).
///
/// File descriptors are plain integers; offsets and lengths are in bytes. Every method may
/// throw ``FileSystemError``.
protocol StoreFileSystem: Sendable {
    /// Opens `path`; returns a descriptor.
    func open(_ path: String, _ mode: FileOpenMode) throws -> Int32
    /// Closes a descriptor (never fails visibly).
    func close(_ fd: Int32)
    /// Reads up to `buffer.count` bytes at `offset`; returns how many (0 at the end).
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int
    /// Writes `bytes` at `offset` in one call; returns how many were written (maybe fewer).
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int
    /// Gives an open file the permission bits and, where this process may, the owner and
    /// group of `status` (a replacement keeps the original's access). A refused change of
    /// owner (`EPERM`) is not an error.
    func adoptAccess(_ fd: Int32, of status: FileStatus) throws
    /// Flushes the file's data and size to the disk (`fsync`).
    func sync(_ fd: Int32) throws
    /// Sets the file's length.
    func truncate(_ fd: Int32, to length: Int) throws
    /// The open file's identity and length.
    func status(_ fd: Int32) throws -> FileStatus
    /// The identity and length of the file at `path`, or `nil` when there is none.
    func status(atPath path: String) throws -> FileStatus?
    /// Renames `from` to `to` atomically, replacing `to`.
    func rename(_ from: String, to: String) throws
    /// Gives the file at `existing` a second name, `new`; fails with `EEXIST` when `new`
    /// exists (`link(2)`: unlike a rename, it never replaces a file).
    func link(_ existing: String, to new: String) throws
    /// `path` itself, or, when it is a symbolic link, the path of the file it leads to
    /// (every link resolved); a dangling link fails with `ENOENT`.
    func resolvingSymbolicLinks(_ path: String) throws -> String
    /// Removes `path`; a missing file is not an error.
    func remove(_ path: String) throws
    /// Flushes the directory holding `path` (so a create or rename survives a power cut).
    func syncDirectory(of path: String) throws
    /// Tries to take an exclusive advisory lock (`flock(LOCK_EX | LOCK_NB)`); `false` when
    /// another open file description holds it. Once taken, ``isLocked(atPath:)`` sees it from
    /// any process.
    func tryLock(_ fd: Int32) throws -> Bool
    /// Releases the lock taken by ``tryLock(_:)``.
    func unlock(_ fd: Int32)
    /// Whether a writer holds the lock of ``tryLock(_:)`` on the file at `path`, asked without
    /// taking or disturbing it; `false` when there is no such file, `nil` when this platform
    /// cannot tell.
    func isLocked(atPath path: String) -> Bool?
    /// Writes `bytes` as the whole content of the open file (a small file such as the lock
    /// file): written at offset 0, then cut to their length unless the file is known to be no
    /// longer (`previousLength`, what this process last wrote there).
    func replaceContents(_ fd: Int32, with bytes: [UInt8], previousLength: Int?) throws
    /// This process's id, written into lock files.
    var processID: Int32 { get }
    /// Distinguishes file systems whose inode numbers may collide (simulated ones); the real
    /// one is 0.
    var namespace: Int { get }
}

extension StoreFileSystem {
    /// Opens the store file at `path` after checking that it is one: a missing file fails with
    /// `.storeOpenFailed` (134080) saying so, and what is not a regular file (a FIFO, a device, a
    /// directory) is refused before it is opened or read. The kind is checked again on the
    /// open descriptor, so a file swapped in between is refused too.
    func openRegularFile(_ path: String, _ mode: FileOpenMode) throws -> Int32 {
        let status: FileStatus?
        do { status = try self.status(atPath: path) } catch {
            throw StoreFileErrors.io(
                .storeOpenFailed, path, "reading the status of the file", error)
        }
        guard let status else { throw StoreFileErrors.missing(path) }
        guard status.isRegularFile else { throw StoreFileErrors.notRegular(path, status.kind) }
        let fd = try open(path, mode)
        let opened: FileStatus
        do { opened = try self.status(fd) } catch {
            close(fd)
            throw error
        }
        guard opened.isRegularFile else {
            close(fd)
            throw StoreFileErrors.notRegular(path, opened.kind)
        }
        return fd
    }

    /// Reads from `offset` to the end of the file.
    func readToEnd(_ fd: Int32, from offset: Int = 0) throws -> [UInt8] {
        let expected = max(0, try status(fd).size - offset)
        // Not for an empty file: `Array(unsafeUninitializedCapacity: 0)` stores its count into
        // the one shared empty-array object, a write other threads' empty arrays share (which
        // ThreadSanitizer reports as a race).
        var bytes: [UInt8] = []
        if expected > 0 {
            bytes = try readExactly(fd, expected, at: offset)
        }
        // The file may have grown since `status`: read on to its end.
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try chunk.withUnsafeMutableBytes {
                try read(fd, into: $0, at: offset + bytes.count)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        return bytes
    }

    /// ``writeAll(_:_:at:)``, in two halves with the pause point `step` between them when
    /// pause points are armed (``PausePoints``): a test can stop or kill the process in the
    /// middle of a long write.
    func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, midway step: String)
        throws
    {
        guard PausePoints.isArmed, bytes.count > 1 else {
            return try writeAll(fd, bytes, at: offset)
        }
        let half = bytes.count / 2
        try writeAll(fd, UnsafeRawBufferPointer(rebasing: bytes[..<half]), at: offset)
        PausePoints.reach(step)
        try writeAll(fd, UnsafeRawBufferPointer(rebasing: bytes[half...]), at: offset + half)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file), read straight into a
    /// new array.
    private func readExactly(_ fd: Int32, _ count: Int, at offset: Int) throws -> [UInt8] {
        var failure: (any Error)?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                do {
                    let rest = UnsafeMutableBufferPointer(rebasing: buffer[initialized...])
                    let n = try read(
                        fd, into: UnsafeMutableRawBufferPointer(rest), at: offset + initialized)
                    if n == 0 { break }
                    initialized += n
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes all of `bytes` at `offset`, continuing after short writes.
    func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = try write(
                fd, UnsafeRawBufferPointer(rebasing: bytes[done...]), at: offset + done)
            guard n > 0 else {
                throw FileSystemError(operation: "write", path: "fd \(fd)", code: ENOSPC)
            }
            done += n
        }
    }
}
