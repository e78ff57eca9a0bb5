import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Replays the lines of a store file into a row table, checking every rule of
/// <doc:StoreFileFormat#7-Reading-and-what-to-do-with-damage>: checksums, syntax, numbering, and
/// that each change applies.
struct LogReplay {
    /// What follows the last complete line.
    enum Tail: Equatable {
        /// Nothing: the file ends with a LF.
        case none
        /// An incomplete (torn) line: its would-be line number and its length in bytes.
        case torn(line: Int, bytes: Int)
    }

    let codec: RowCodec
    var table: RowTable
    /// Complete lines applied so far, the header included.
    var lineCount = 1
    /// Snapshot row lines still expected.
    var snapshotRowsLeft: Int
    /// The number of the last transaction applied (the header's `base` before any).
    var lastTransaction: Int64
    /// Transaction lines applied.
    var transactionLines = 0
    /// The file offset just past the last complete line applied.
    var length: Int
    /// Whether transactions record the before-images of the rows they touch (for pinned query
    /// generations).
    var keepsBeforeImages = false
    /// The first before-image of each row the applied transactions touched, when
    /// ``keepsBeforeImages``.
    var beforeImages: [ManagedObjectID: StoreRow?] = [:]
    /// When not `nil`, each transaction applied is appended, with the rows it changed as they
    /// were (for undo).
    var transactionLog: [StoreTransaction]?
    /// The persistent history read so far, when the header says the store tracks it.
    var history: HistoryLog?
    /// From how many bytes on lines are parsed across cores (``LineParser/parallelAbove``;
    /// tests lower it).
    var parallelAbove = LineParser.parallelBytes
    /// How many parts a large line's arrays are read in (``LineParser/rowParts``).
    var rowParts: Int?

    var path: String { codec.path }

    /// A replay that continues after the header line (which ends at `headerLength`).
    init(codec: RowCodec, header: StoreFileHeader, headerLength: Int) throws {
        self.codec = codec
        self.table = RowTable(model: codec.model, storeIdentifier: codec.storeIdentifier)
        self.snapshotRowsLeft = header.rows
        self.lastTransaction = header.base
        self.length = headerLength
        if let h = header.history {
            var log = HistoryLog(start: h.start)
            log.retained = h.retained
            log.last = header.base
            self.history = log
        }
        for (name, next) in header.keys {
            guard let entity = codec.model.entitiesByName[name], entity.superentity == nil else {
                throw StoreFileErrors.corrupt(
                    path, line: 1, "header keys name \(name), which is not a root entity")
            }
            table.reservePrimaryKeys(for: entity, upTo: next)
        }
    }

    /// Applies every complete line of `bytes`, which hold the file from offset ``length`` on.
    ///
    /// Lines are parsed first (across cores when there are many bytes), then applied in file
    /// order, so the first damaged line is the one reported.
    ///
    /// - Parameter prefetched: Rows of large lines read while the file was arriving, each
    ///   for the line starting at its file offset (``LineParser/prefetched``).
    /// - Throws: `.storeCorrupt` (259) naming the first damaged line; the replay then
    ///   holds every line before it.
    mutating func apply(
        _ bytes: UnsafeRawBufferPointer, prefetched: [PrefetchedRows<StoreRow>] = []
    ) throws -> Tail {
        guard let base = bytes.baseAddress else {
            return try tail(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        var lines: [Range<Int>] = []
        var offset = 0
        while offset < bytes.count, let lf = memchr(base + offset, 0x0A, bytes.count - offset) {
            let end = base.distance(to: UnsafeRawPointer(lf))
            lines.append(offset..<end)
            offset = end + 1
        }
        var parser = LineParser(
            codec: codec, firstNumber: lineCount + 1, snapshotRows: snapshotRowsLeft)
        parser.parallelAbove = parallelAbove
        parser.rowParts = rowParts
        parser.prefetched = prefetched
        parser.bytesOffset = length
        // Parts are kept only for a replay that moves the rows from them; one that keeps a
        // transaction log, history or before-images needs them as an array, which the parse
        // joins them into (on its worker threads, when it has several), as before.
        parser.keepsInsertedParts =
            transactionLog == nil && history == nil && !keepsBeforeImages
        var parsed = parser.parse(SharedBytes(bytes: bytes), lines)
        // Rows read ahead and not taken by the parse (a torn or damaged line) go now.
        for rows in prefetched { rows.rows.storage.free() }
        // Snapshot rows are inserted in bulk, a run of consecutive row lines at a time.
        var snapshotRun: [StoreRow] = []
        var runLengths: [Int] = []
        for k in 0..<min(lines.count, parsed.count) {
            let line = lines[k]
            // A transaction's inserted rows are taken out of its line, to be moved into the
            // table rather than copied.
            var (inserted, insertedParts) = parsed[k].takeInsertedRows()
            let parsedLine = parsed[k]
            if case .row(let row) = parsedLine {
                snapshotRun.append(row)
                runLengths.append(line.count + 1)
                continue
            }
            try insertSnapshotRun(&snapshotRun, lengths: &runLengths)
            let number = lineCount + 1
            switch parsedLine {
            case .damaged(let error): throw error
            case .row: break
            case .transaction(let record):
                try applyTransaction(
                    record, inserting: &inserted, parts: insertedParts, number: number,
                    bytes: line.count + 1)
                transactionLines += 1
            case .history(let record):
                try applyHistory(record, number: number, bytes: line.count + 1)
            case .retention(let retained):
                guard history != nil else {
                    throw StoreFileErrors.corrupt(
                        path, line: number, "a retention line in a store without history")
                }
                history?.deleteHistory(before: retained)
            }
            lineCount = number
            length += line.count + 1
        }
        try insertSnapshotRun(&snapshotRun, lengths: &runLengths)
        return try tail(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
    }

    /// Inserts the snapshot rows of consecutive lines (of the given lengths, LF included) and
    /// empties the run. A row already present is corruption of its line; the rows of the lines
    /// before it are kept.
    private mutating func insertSnapshotRun(_ run: inout [StoreRow], lengths: inout [Int]) throws {
        guard !run.isEmpty else { return }
        defer {
            run = []
            lengths = []
        }
        let clash = table.insertNew(moving: &run)
        let kept = clash ?? lengths.count
        if let clash { _ = table.insertNew(Array(run[..<clash])) }
        lineCount += kept
        snapshotRowsLeft -= kept
        length += lengths[..<kept].reduce(0, +)
        if let clash {
            throw StoreFileErrors.corrupt(
                path, line: lineCount + 1, "\(run[clash].objectID) appears twice in the snapshot")
        }
    }

    /// Records a retained history transaction: they follow the snapshot, ascending, before
    /// any transaction line, numbered up to the header's `base`.
    private mutating func applyHistory(
        _ record: StoreHistoryTransaction, number: Int, bytes: Int
    ) throws {
        guard var log = history else {
            throw StoreFileErrors.corrupt(
                path, line: number, "a history line in a store without history")
        }
        let previous = log.transactions.last?.number ?? max(log.start, log.retained - 1)
        guard transactionLines == 0, record.number > previous, record.number <= lastTransaction
        else {
            throw StoreFileErrors.corrupt(
                path, line: number,
                "history transaction \(record.number) is out of place (history lines follow "
                    + "the snapshot in ascending order, up to base \(lastTransaction))")
        }
        log.append(record, bytes: bytes)
        log.last = lastTransaction
        history = log
    }

    /// Applies transaction `line`, line `number` of the file (`bytes` long, LF included),
    /// whose inserted rows are `inserted` (taken out of the record by the caller: see
    /// ``ParsedLine/takeInsertedRows()``), or `parts` when they were read across cores. The
    /// rows are moved into the table unless the transaction log keeps them (`inserted` is then
    /// left empty); a history entry takes what it needs from them before. Rows in `parts` are
    /// moved straight from the parts into the table (``RowTable/insertNew(movingParts:)``);
    /// there are parts only in a replay with no transaction log, history or before-images.
    ///
    /// - Throws: `.storeCorrupt` (259) naming the line when a change does not apply.
    private mutating func applyTransaction(
        _ line: TransactionRecord, inserting inserted: inout [StoreRow],
        parts: [PartRows<StoreRow>], number: Int, bytes: Int
    ) throws {
        var record = line
        // Parts are kept only when nothing needs the rows as an array (`apply`).
        assert(parts.isEmpty || (transactionLog == nil && history == nil && !keepsBeforeImages))
        guard lastTransaction < .max, record.number == lastTransaction + 1 else {
            let expected =
                lastTransaction < .max
                ? "\(lastTransaction + 1)" : "none (the numbers are exhausted)"
            throw StoreFileErrors.corrupt(
                path, line: number,
                "transaction \(record.number) follows transaction "
                    + "\(lastTransaction); expected \(expected)")
        }
        func fail(_ what: String) -> ObjectGraphError {
            StoreFileErrors.corrupt(path, line: number, "transaction \(record.number) \(what)")
        }
        if let batch = record.batch {
            // A batch line (version 6) is the partial rows its evaluation gives on the rows
            // as they are now.
            record.updated = try batch.updates(of: table) { throw fail($0) }
        }
        if keepsBeforeImages { keepBeforeImages(of: record, inserting: inserted) }
        var replaced: [ManagedObjectID: StoreRow] = [:]
        if transactionLog != nil {
            for id in record.deleted + record.updated.map(\.objectID) {
                replaced[id] = table.row(for: id)
            }
        }
        // Each update, complete or partial, as the row it leaves (an object appears once in a
        // transaction, so the row it updates is the one before the transaction).
        var updated: [StoreRow] = []
        updated.reserveCapacity(record.updated.count)
        for update in record.updated {
            guard let old = table.row(for: update.objectID) else {
                throw fail("updates \(update.objectID), which does not exist")
            }
            guard update.version == old.version &+ 1 else {
                throw fail(
                    "updates \(update.objectID) to version \(update.version), but it is at version \(old.version)"
                )
            }
            updated.append(update.applied(to: old))
        }
        if history != nil {
            let changes = StoreChangeSet(
                inserted: inserted, updated: updated,
                deleted: record.deleted.map { ($0, 0) }, author: record.author,
                contextName: record.contextName, timestamp: record.timestamp)
            var entry = StoreHistoryTransaction(
                committing: changes, number: record.number, oldRow: { table.row(for: $0) })
            // A partial row's members are the update's changed properties.
            for (k, update) in record.updated.enumerated() {
                if case .partial(let partial) = update {
                    entry.changes[record.deleted.count + k].updatedProperties =
                        partial.propertyNames
                }
            }
            entry.bundleID = record.bundleID ?? ""
            entry.processID = record.processID ?? ""
            history?.append(entry, bytes: bytes)
        }
        for id in record.deleted {
            guard table.row(for: id) != nil else {
                throw fail("deletes \(id), which does not exist")
            }
            table.remove(id)
        }
        for row in updated { table.upsert(row) }
        // Moved when the rows are needed no more (the log's record keeps them).
        if !parts.isEmpty {
            if let clash = table.insertNew(movingParts: parts) {
                throw fail("inserts \(PartRows.element(clash, of: parts).objectID), which exists")
            }
        } else if let clash =
            transactionLog == nil
            ? table.insertNew(moving: &inserted) : table.insertNew(inserted)
        {
            throw fail("inserts \(inserted[clash].objectID), which exists")
        }
        for (name, next) in record.keys {
            guard let entity = codec.model.entitiesByName[name], entity.superentity == nil else {
                throw fail("records keys for \(name), which is not a root entity")
            }
            table.reservePrimaryKeys(for: entity, upTo: next)
        }
        lastTransaction = record.number
        transactionLog?.append(
            StoreTransaction(
                number: record.number, timestamp: record.timestamp, author: record.author,
                contextName: record.contextName, inserted: inserted,
                updated: updated, deleted: record.deleted, replaced: replaced))
    }

    /// Records the rows `record` is about to touch, as they are, unless recorded already.
    private mutating func keepBeforeImages(of record: TransactionRecord, inserting: [StoreRow]) {
        let touched =
            record.deleted + record.updated.map(\.objectID) + inserting.map(\.objectID)
        for id in touched where beforeImages.index(forKey: id) == nil {
            beforeImages[id] = .some(table.row(for: id))
        }
    }

    /// Classifies the bytes after the last LF.
    private func tail(_ rest: UnsafeRawBufferPointer) throws -> Tail {
        let number = lineCount + 1
        if snapshotRowsLeft > 0 {
            throw StoreFileErrors.corrupt(
                path, line: number,
                "the snapshot ends \(snapshotRowsLeft) rows early "
                    + "(a snapshot is written whole, so this is damage, not a torn write)")
        }
        guard !rest.isEmpty else { return .none }
        var content = rest.count
        while content > 0 && rest[content - 1] == 0 { content -= 1 }
        let stripped = UnsafeRawBufferPointer(rebasing: rest[..<content])
        if let key = stripped.firstRange(of: ",\"crc\":\"".utf8),
            key.lowerBound + LineFrame.suffixLength < content
        {
            let candidate = UnsafeRawBufferPointer(
                rebasing: stripped[..<(key.lowerBound + LineFrame.suffixLength)])
            if LineFrame.problem(candidate) == nil {
                throw StoreFileErrors.corrupt(
                    path, line: number,
                    "a complete line is followed by stray bytes "
                        + "instead of its newline")
            }
        }
        return .torn(line: number, bytes: rest.count)
    }
}
