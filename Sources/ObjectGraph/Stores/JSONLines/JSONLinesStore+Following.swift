import Foundation

extension JSONLinesStore {
    /// Brings a reader up to date with the file (<doc:StoreFileFormat#71-Following-a-writer>):
    /// applies lines appended since its last look, reloads after a compaction or repair
    /// replaced the file, and leaves an incomplete last line for later. A writer catches up
    /// only with the writes of the other stores of this process that share its lock (see
    /// ``catchUpWithSharers()``). The caller holds `lock`.
    ///
    /// - Throws: `.storeOperationFailed` (134070) when closed or unreadable; `.storeCorrupt`
    ///   (259) when a new line is damaged.
    func refreshIfNeeded() throws {
        guard file != nil else { throw StoreFileErrors.closed(path) }
        defer { reportWrites() }
        if isReadOnly { return try follow() }
        guard let writerLock, writerLock.writeCount != seenWrites else { return }
        try writerLock.serializingWrites { try catchUpWithSharers() }
    }

    /// Applies what the other stores of this process sharing the writer lock wrote since this
    /// one last looked (appended lines, or a compacted file). The caller holds `lock` and is
    /// inside the writer lock's ``WriterLock/serializingWrites(_:)``.
    func catchUpWithSharers() throws {
        guard let writerLock else { return }
        let count = writerLock.writeCount
        guard count != seenWrites else { return }
        try follow()
        seenWrites = count
    }

    /// Applies appended lines, or reloads a replaced file. The caller holds `lock`.
    private func follow() throws {
        guard var file else { throw StoreFileErrors.closed(path) }
        let current: FileStatus?
        do {
            current = try fileSystem.status(atPath: path)
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "checking the file for changes", error)
        }
        guard let current else {
            throw StoreFileErrors.failed(.storeOperationFailed, path, "no longer exists")
        }
        let sameFile =
            current.device == file.identity.device && current.inode == file.identity.inode
        if sameFile && !needsReload && !(readsMigratedRows && current.size != file.length) {
            // A writer that cut its last line back (its write or sync failed, or another
            // store of the same save failed) may have written another in its place since:
            // the bytes this reader applied last must still be there.
            if isReadOnly, current.size >= file.length, try !endMarkIsIntact(file) {
                // The line cut back took its transaction number with it, and the line in its
                // place has that number again: it is reported as a new write.
                if let reported = reporting?.reported {
                    reporting?.reported = min(reported, file.lastTransaction - 1)
                }
                return try reload()
            }
            if current.size == file.length { return }
            if current.size > file.length {
                guard try tailHoldsLineEnd(file, size: current.size) else { return }
                try applyAppendedLines(&file)
                self.file = file
                return
            }
        }
        try reload()
    }

    /// Whether the file still ends its last applied line with the bytes this reader applied
    /// (``OpenStoreFile/endMark``); `true` when it has no mark.
    private func endMarkIsIntact(_ file: OpenStoreFile) throws -> Bool {
        guard !file.endMark.isEmpty else { return true }
        var found = [UInt8](repeating: 0, count: file.endMark.count)
        let read: Int
        do {
            read = try found.withUnsafeMutableBytes { buffer in
                try fileSystem.read(file.fd, into: buffer, at: file.length - buffer.count)
            }
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "checking the file for changes", error)
        }
        return read == found.count && found == file.endMark
    }

    /// Whether the bytes past the applied lines (up to `size`) hold a line's end, so that
    /// reading them applies something.
    ///
    /// A writer that writes a large line as it encodes it (`LineSpill`) grows the file part
    /// by part before the line's LF, and a reader that looks meanwhile finds no complete
    /// line: reading the whole tail each time it looked read a 15 MB line's bytes over and
    /// over (once per look). So the reader first checks the last byte (an LF: the usual case,
    /// a writer done), and otherwise scans for an LF only the bytes it has not scanned since
    /// it last applied a line (``scannedTail``). A tail shorter than what it scanned (a line
    /// cut back) is scanned again from the applied end; a line cut back and rewritten longer
    /// than the scan between two looks is found when the next line's end arrives.
    private func tailHoldsLineEnd(_ file: OpenStoreFile, size: Int) throws -> Bool {
        var from = file.length
        if let scanned = scannedTail, scanned.from == file.length, scanned.to <= size {
            from = scanned.to
        }
        var chunk = [UInt8](repeating: 0, count: min(65_536, max(1, size - from)))
        do {
            let last = try chunk.withUnsafeMutableBytes {
                try fileSystem.read(
                    file.fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<1]), at: size - 1)
            }
            if last == 1 && chunk[0] == 0x0A {
                scannedTail = nil
                return true
            }
            while from < size {
                let n = try chunk.withUnsafeMutableBytes { buffer in
                    try fileSystem.read(
                        file.fd,
                        into: UnsafeMutableRawBufferPointer(
                            rebasing: buffer[..<min(buffer.count, size - from)]), at: from)
                }
                if n == 0 { break }
                if chunk[..<n].contains(0x0A) {
                    scannedTail = nil
                    return true
                }
                from += n
            }
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "checking the file for changes", error)
        }
        scannedTail = (file.length, from)
        return false
    }

    private func applyAppendedLines(_ file: inout OpenStoreFile) throws {
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readToEnd(file.fd, from: file.length)
        } catch {
            throw StoreFileErrors.io(.storeOperationFailed, path, "reading appended lines", error)
        }
        // Move the table out so replay mutates it in place; a failure forces a full reload.
        var replay = LogReplay(continuing: table, codec: codec, file: file)
        replay.keepsBeforeImages = generations.isPinned
        replay.history = historyLog
        table = RowTable(model: model, storeIdentifier: identifier)
        needsReload = true
        do {
            _ = try bytes.withUnsafeBytes { try replay.apply($0) }
        } catch {
            // The lines applied stay applied (and recorded) until the reload replaces them.
            table = replay.table
            generations.didChange(before: replay.beforeImages)
            throw error
        }
        table = replay.table
        generations.didChange(before: replay.beforeImages)
        historyLog = replay.history
        needsReload = false
        if isReadOnly, replay.length > file.length {
            file.endMark = OpenStoreFile.endMark(
                of: bytes, from: file.length, length: replay.length)
        }
        file.length = replay.length
        file.lineCount = replay.lineCount
        file.lastTransaction = replay.lastTransaction
        file.transactionLines = replay.transactionLines
        liveRowBytes = nil
    }

    private func reload() throws {
        scannedTail = nil
        let loaded: LoadedStoreFile
        let fd: Int32
        let identity: FileStatus
        do {
            fd = try fileSystem.open(path, isReadOnly ? .readOnly : .readWrite)
        } catch {
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "reopening the replaced file", error)
        }
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readToEnd(fd)
            identity = try fileSystem.status(fd)
            loaded = try StoreFileLoader.load(bytes, path: path, model: model)
        } catch let e as ObjectGraphError {
            fileSystem.close(fd)
            throw e
        } catch {
            fileSystem.close(fd)
            throw StoreFileErrors.io(
                .storeOperationFailed, path, "reading the replaced file", error)
        }
        guard loaded.header.storeIdentifier == identifier else {
            fileSystem.close(fd)
            throw StoreFileErrors.failed(
                .storeOperationFailed, path,
                "was replaced by another store (\(loaded.header.storeIdentifier), not \(identifier))"
            )
        }
        var rows = loaded.replay.table
        if !loaded.schemaDifferences.isEmpty {
            do {
                rows = try MigrationPlan.plan(
                    from: loaded.model, to: model, options: options, path: path
                ).run(rows)
            } catch {
                fileSystem.close(fd)
                throw MigrationErrors.located(error, path: path)
            }
        }
        if let old = file { fileSystem.close(old.fd) }
        let previous = table
        generations.didChange(before: previous.beforeImages(becoming: rows))
        table = rows
        historyLog = loaded.replay.history.map {
            loaded.schemaDifferences.isEmpty ? $0 : $0.remapped(to: model)
        }
        readsMigratedRows = !loaded.schemaDifferences.isEmpty
        codec = loaded.replay.codec
        needsReload = false
        liveRowBytes = nil
        file = OpenStoreFile(
            fd: fd, identity: identity, length: loaded.replay.length, header: loaded.header,
            lineCount: loaded.replay.lineCount, lastTransaction: loaded.replay.lastTransaction,
            transactionLines: loaded.replay.transactionLines,
            endMark: isReadOnly
                ? OpenStoreFile.endMark(of: bytes, length: loaded.replay.length) : [])
    }
}

extension LogReplay {
    /// A replay that continues where an open file's last complete line ends.
    init(continuing table: RowTable, codec: RowCodec, file: OpenStoreFile) {
        self.codec = codec
        self.table = table
        self.lineCount = file.lineCount
        self.snapshotRowsLeft = 0
        self.lastTransaction = file.lastTransaction
        self.transactionLines = file.transactionLines
        self.length = file.length
    }
}
