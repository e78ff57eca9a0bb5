import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system, through POSIX calls (`open`, `pread`, `pwrite`, `fsync`, `flock`, …).
struct PosixFileSystem: StoreFileSystem {
    func open(_ path: String, _ mode: FileOpenMode) throws -> Int32 {
        let flags: Int32 =
            switch mode {
            case .readOnly: O_RDONLY
            case .readWrite: O_RDWR
            case .readWriteCreating: O_RDWR | O_CREAT
            case .readWriteTruncating: O_RDWR | O_CREAT | O_TRUNC
            case .readWriteCreatingNew: O_RDWR | O_CREAT | O_EXCL
            }
        // O_NONBLOCK: opening a FIFO must not wait for a writer (the caller checks the kind of
        // file it got); it changes nothing for regular files.
        let fd = try retrying("open", path) {
            Glibc.open(path, flags | O_CLOEXEC | O_NONBLOCK, 0o644)
        }
        return fd
    }

    func close(_ fd: Int32) { _ = Glibc.close(fd) }

    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int
    {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        return try retrying("read", "fd \(fd)") { pread(fd, base, buffer.count, off_t(offset)) }
    }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return try retrying("write", "fd \(fd)") { pwrite(fd, base, bytes.count, off_t(offset)) }
    }

    func sync(_ fd: Int32) throws {
        _ = try retrying("fsync", "fd \(fd)") { fsync(fd) }
    }

    func truncate(_ fd: Int32, to length: Int) throws {
        _ = try retrying("ftruncate", "fd \(fd)") { ftruncate(fd, off_t(length)) }
    }

    func status(_ fd: Int32) throws -> FileStatus {
        var s = stat()
        _ = try retrying("fstat", "fd \(fd)") { fstat(fd, &s) }
        return Self.fileStatus(s)
    }

    func status(atPath path: String) throws -> FileStatus? {
        var s = stat()
        guard stat(path, &s) == 0 else {
            if errno == ENOENT { return nil }
            throw FileSystemError(operation: "stat", path: path, code: errno)
        }
        return Self.fileStatus(s)
    }

    private static func fileStatus(_ s: stat) -> FileStatus {
        let kind: FileStatus.Kind =
            switch s.st_mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .directory
            case S_IFIFO: .fifo
            case S_IFCHR: .characterDevice
            case S_IFBLK: .blockDevice
            case S_IFSOCK: .socket
            case S_IFLNK: .symbolicLink
            default: .other
            }
        return FileStatus(
            device: UInt64(s.st_dev), inode: UInt64(s.st_ino), size: Int(s.st_size), kind: kind,
            permissions: UInt32(s.st_mode) & 0o7777, user: UInt32(s.st_uid), group: UInt32(s.st_gid)
        )
    }

    func adoptAccess(_ fd: Int32, of status: FileStatus) throws {
        // Owner first: changing it may clear set-id bits, which the mode then restores.
        if let user = status.user, let group = status.group, fchown(fd, user, group) != 0,
            errno != EPERM
        {
            throw FileSystemError(operation: "fchown", path: "fd \(fd)", code: errno)
        }
        _ = try retrying("fchmod", "fd \(fd)") { fchmod(fd, mode_t(status.permissions)) }
    }

    func rename(_ from: String, to: String) throws {
        _ = try retrying("rename", "\(from) → \(to)") { Glibc.rename(from, to) }
    }

    func link(_ existing: String, to new: String) throws {
        _ = try retrying("link", "\(existing) → \(new)") { Glibc.link(existing, new) }
    }

    func resolvingSymbolicLinks(_ path: String) throws -> String {
        var s = stat()
        guard lstat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw FileSystemError(operation: "realpath", path: path, code: errno)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileSystemError(operation: "unlink", path: path, code: errno)
        }
    }

    func syncDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let dir = directory.isEmpty ? "." : directory
        let fd = try retrying("open", dir) { Glibc.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { _ = Glibc.close(fd) }
        _ = try retrying("fsync", dir) { fsync(fd) }
    }

    func tryLock(_ fd: Int32) throws -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw FileSystemError(operation: "flock", path: "fd \(fd)", code: errno)
        }
        #if os(Linux)
            // Only a sign for readers: a failure here loses them the sign, nothing else.
            var region = Self.wholeFile(F_WRLCK)
            _ = fcntl(fd, Self.setOpenFileLock, &region)
        #endif
        return true
    }

    func unlock(_ fd: Int32) {
        #if os(Linux)
            var region = Self.wholeFile(F_UNLCK)
            _ = fcntl(fd, Self.setOpenFileLock, &region)
        #endif
        _ = flock(fd, LOCK_UN)
    }

    // Besides the `flock` (which writers of every version take), a writer holds an open file
    // description lock (Linux's F_OFD_SETLK) on the whole lock file: readers can ask for that
    // one (F_OFD_GETLK) without taking anything, which `flock` does not allow.
    #if os(Linux)
        /// `F_OFD_GETLK` and `F_OFD_SETLK` (Linux ≥ 3.15), which Glibc's module does not export.
        private static let getOpenFileLock: Int32 = 36
        private static let setOpenFileLock: Int32 = 37

        private static func wholeFile(_ type: Int32) -> Glibc.flock {
            var region = Glibc.flock()
            region.l_type = Int16(type)
            region.l_whence = Int16(SEEK_SET)
            return region
        }
    #endif

    func isLocked(atPath path: String) -> Bool? {
        #if os(Linux)
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return errno == ENOENT ? false : nil }
            defer { _ = Glibc.close(fd) }
            var region = Self.wholeFile(F_RDLCK)
            guard fcntl(fd, Self.getOpenFileLock, &region) == 0 else { return nil }
            return region.l_type != Int16(F_UNLCK)
        #else
            return nil
        #endif
    }

    func replaceContents(_ fd: Int32, with bytes: [UInt8], previousLength: Int?) throws {
        try bytes.withUnsafeBytes { try writeAll(fd, $0, at: 0) }
        if (previousLength ?? Int.max) > bytes.count { try truncate(fd, to: bytes.count) }
    }

    var processID: Int32 { getpid() }

    var namespace: Int { 0 }

    /// Runs a call until it does not fail with `EINTR`; throws on any other failure.
    private func retrying<T: BinaryInteger>(_ operation: String, _ path: String, _ call: () -> T)
        throws -> T
    {
        while true {
            let result = call()
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw FileSystemError(operation: operation, path: path, code: errno)
        }
    }
}
