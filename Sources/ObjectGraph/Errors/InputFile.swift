import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files a person names — a bank's CSV export, a fixture, a model, a receipt — read whole, or
/// refused with the reason in words ("is a directory", "does not exist"), never Foundation's
/// "NSCocoaErrorDomain error 256" or a FIFO's "You don't have permission".
package enum InputFile {
    /// Why a file cannot be read: a phrase that follows its path (`bank.csv: is a directory`).
    package struct Failure: Error, CustomStringConvertible, LocalizedError {
        /// The reason, e.g. `"is a FIFO (named pipe), not a regular file"`.
        package let reason: String
        package var description: String { reason }
        package var errorDescription: String? { reason }
    }

    /// The bytes of the regular file at `url`.
    ///
    /// A directory, FIFO, socket or device is refused before anything is read (a FIFO would
    /// block, a device like `/dev/zero` never ends).
    ///
    /// - Throws: ``Failure`` naming the cause.
    package static func contents(of url: URL) throws -> Data {
        let fd = try open(url.path, flags: O_RDONLY | O_NONBLOCK)
        defer { _ = close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw Failure(reason: "is a directory") }
        if let kind = kind(status.st_mode) { throw Failure(reason: "\(kind), not a regular file") }
        return try readAll(fd, limit: Int.max, path: url.path)
    }

    /// Copies what `source` holds — a regular file, or a device or pipe read to its end
    /// (`/dev/stdin`) — into a new regular file `destination` with permission bits `mode`,
    /// refusing more than `limit` bytes. On a throw, `destination` does not exist.
    ///
    /// Opening never blocks: a FIFO that no program writes to is refused at once (it used to
    /// block forever, holding the ledger's writer lock), while a pipe whose writer is there
    /// is read to its end.
    ///
    /// - Throws: ``Failure`` naming the cause (a directory, too large, a FIFO with nothing
    ///   written to it, a failed write).
    package static func copy(_ source: URL, to destination: URL, mode: UInt32, limit: Int) throws {
        let input = try open(source.path, flags: O_RDONLY | O_NONBLOCK)
        defer { _ = close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw failure(errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw Failure(reason: "is a directory") }
        let isPipe = status.st_mode & S_IFMT == S_IFIFO
        let bytes = try readAll(input, limit: limit, path: source.path, waitingForWriter: isPipe)
        if isPipe, bytes.isEmpty {
            throw Failure(
                reason: "is a FIFO (named pipe) with nothing written to it (no program was writing)"
            )
        }
        let output = Glibc.open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw Failure(reason: "cannot create \(destination.path): \(describe(errno))")
        }
        var written = 0
        var problem: Int32 = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = write(output, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    problem = errno
                    return
                }
                written += n
            }
        }
        if problem == 0, fchmod(output, mode_t(mode & 0o7777)) != 0 { problem = errno }
        if problem == 0, fsync(output) != 0 { problem = errno }
        _ = close(output)
        if problem != 0 {
            _ = unlink(destination.path)
            throw Failure(reason: "cannot write \(destination.path): \(describe(problem))")
        }
    }

    /// The permission bits of the file at `path`, or `nil` when it cannot be examined.
    package static func permissions(atPath path: String) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o7777
    }

    private static func open(_ path: String, flags: Int32) throws -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC)
            if fd >= 0 { return fd }
            if errno != EINTR { throw failure(errno) }
        }
    }

    /// Everything `fd` holds, in blocking reads; or, for a pipe opened non-blocking
    /// (`waitingForWriter`), in reads that wait for data only while a writer is there (a pipe
    /// with no writer reads as ended).
    private static func readAll(
        _ fd: Int32, limit: Int, path: String, waitingForWriter: Bool = false
    ) throws -> Data {
        let flags = fcntl(fd, F_GETFL)
        if !waitingForWriter, flags >= 0, flags & O_NONBLOCK != 0 {
            _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if waitingForWriter, errno == EAGAIN || errno == EWOULDBLOCK {
                    // A writer is there and has not written yet: wait for data or its end.
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw failure(errno)
            }
            if n == 0 { return data }
            guard data.count + n <= limit else {
                throw Failure(reason: "is larger than \(limit) bytes")
            }
            data.append(contentsOf: chunk[..<n])
        }
    }

    /// What a non-regular file is, or `nil` for a regular file.
    private static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a directory"
        case S_IFIFO: "is a FIFO (named pipe)"
        case S_IFSOCK: "is a socket"
        case S_IFCHR: "is a character device"
        case S_IFBLK: "is a block device"
        default: "is not a regular file"
        }
    }

    private static func failure(_ code: Int32) -> Failure { Failure(reason: describe(code)) }

    /// `errno` in words: "does not exist", "permission denied", else the system's text.
    private static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "does not exist"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "is a directory"
        case ENOTDIR: "has a part that is not a directory"
        case ELOOP: "has too many symbolic links"
        case ENAMETOOLONG: "is too long a name"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
