import Foundation

// Writing a transaction line to the end of the file, and taking it back: the steps
// `JSONLinesStore+Committing.swift` composes (a single-store append spills its rows as it
// encodes them; a staged commit writes a line encoded whole).
extension JSONLinesStore {
    /// Runs `encode` (a single-store append's ``encodeLine``) with the line spilling to the
    /// end of the file as its rows are encoded (see ``LineSpill``): a large save's line is
    /// never whole in memory. When `encode` fails after bytes were written, the file is
    /// truncated back (or the store marked unusable when even that fails) and the error
    /// rethrown; a failed write is `.storeWriteFailed` (134030), as in ``writeEncodedLine()``.
    func spilling<T>(_ encode: () throws -> T) throws -> T {
        guard let file else { throw StoreFileErrors.closed(path) }
        let (fd, length, number) = (file.fd, file.length, file.lastTransaction &+ 1)
        let spill = LineSpill { [fileSystem, path] bytes, offset, firstRows in
            do {
                if firstRows {
                    try fileSystem.writeAll(
                        fd, bytes, at: length + offset, midway: "commit.midWrite")
                } else {
                    try fileSystem.writeAll(fd, bytes, at: length + offset)
                }
            } catch {
                throw StoreFileErrors.io(
                    .storeWriteFailed, path, "appending transaction \(number)", error)
            }
        }
        writer.spill = spill
        defer { writer.spill = nil }
        do {
            return try encode()
        } catch {
            if spill.touchedFile {
                rollBack(to: length, fd: fd)
                writer.reset()
            }
            throw error
        }
    }

    /// ``appendLine``'s second step: writes the line in `writer` (what it did not spill
    /// already, see ``spilling(_:)``) at the end of the file and syncs it (with
    /// ``SynchronousMode/full``); on failure truncates the file back and throws
    /// `.storeWriteFailed` (134030), or marks the store unusable when even that fails.
    func writeEncodedLine() throws {
        guard let file else { throw StoreFileErrors.closed(path) }
        var written = false
        do {
            let offset = writer.spilled
            if offset == 0 {
                try fileSystem.writeAll(
                    file.fd, writer.bytes, at: file.length, midway: "commit.midWrite")
            } else {
                try fileSystem.writeAll(file.fd, writer.bytes, at: file.length + offset)
            }
            written = true
            PausePoints.reach("commit.written")
            if options.synchronous == .full { try fileSystem.sync(file.fd) }
        } catch {
            rollBack(to: file.length, fd: file.fd)
            // A line written whole (its LF included) that could not be cut back is committed
            // for every reader; a part of one is a torn tail that no reader applies.
            failedLineStayed = written && isBroken
            writer.reset()
            throw StoreFileErrors.io(
                .storeWriteFailed, path, "appending transaction \(file.lastTransaction + 1)",
                error)
        }
    }

    /// Takes back a line ``writeEncodedLine()`` wrote but that was not applied (another
    /// store of the same save failed): truncates the file to where it ended. `false` when
    /// the truncation failed; the store then refuses saves (``StoreFileErrors/unusable(_:)``).
    func undoEncodedLine() -> Bool {
        defer { writer.reset() }
        guard let file else { return false }
        rollBack(to: file.length, fd: file.fd)
        return !isBroken
    }

    /// Undoes a failed append: truncates to `length`; if even that fails, refuses later saves.
    func rollBack(to length: Int, fd: Int32) {
        do {
            try fileSystem.truncate(fd, to: length)
            if options.synchronous != .off { try fileSystem.sync(fd) }
        } catch {
            isBroken = true
        }
    }
}
