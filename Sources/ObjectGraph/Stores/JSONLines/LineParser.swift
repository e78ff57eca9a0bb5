import Foundation

/// A store line parsed on its own, before it is applied to the rows.
enum ParsedLine: Sendable {
    /// A snapshot row.
    case row(StoreRow)
    /// A transaction.
    case transaction(TransactionRecord)
    /// A retained history transaction (after a compaction).
    case history(StoreHistoryTransaction)
    /// A retention point: history before this transaction number is deleted.
    case retention(Int64)
    /// A damaged line: its error names the file and line.
    case damaged(ObjectGraphError)

    /// The rows a transaction line inserts, taken out of the line (which keeps its other
    /// members and no inserted rows); none for another line.
    ///
    /// The array returned is held only by the caller, so the rows can be moved out of it
    /// (``RowTable/insertNew(moving:)``): a transaction bound from the line, or the line
    /// itself, would otherwise share it.
    ///
    /// - Returns: The rows in one array, or (a line read with
    ///   ``LineParser/keepsInsertedParts``, its `ins` array across cores) in the parts read.
    mutating func takeInsertedRows() -> (rows: [StoreRow], parts: [PartRows<StoreRow>]) {
        guard case .transaction(var record) = self else { return ([], []) }
        // The line lets go of its copy first: `record`'s is then the only one.
        self = .retention(0)
        var rows: [StoreRow] = []
        swap(&rows, &record.inserted)
        var parts: [PartRows<StoreRow>] = []
        swap(&parts, &record.insertedParts)
        self = .transaction(record)
        return (rows, parts)
    }
}

/// Parses complete lines (checksum, syntax, values) independently of one another, across
/// cores when there are many bytes. Applying them, in order, is ``LogReplay``'s job.
struct LineParser: Sendable {
    let codec: RowCodec
    /// The line number of the first line given.
    let firstNumber: Int
    /// How many of the first lines are snapshot rows.
    let snapshotRows: Int
    /// From how many bytes on lines are parsed across cores.
    var parallelAbove = LineParser.parallelBytes
    /// How many parts a large transaction line's arrays are split into when read across cores,
    /// or `nil` for `ParallelChunks.balancedPartCount()` (tests ask for counts that do not
    /// depend on the machine's cores).
    var rowParts: Int?
    /// Rows of large transaction lines read while the file was still arriving
    /// (``PrefetchedRows``), each for the line starting at its ``PrefetchedRows/lineStart``
    /// (a file offset: ``bytesOffset`` plus the line's offset in the bytes given).
    var prefetched: [PrefetchedRows<StoreRow>] = []
    /// The file offset of the bytes given to ``parse(_:_:)`` (to find ``prefetched`` rows).
    var bytesOffset = 0
    /// Whether a transaction's inserted rows read across cores are left in the parts read
    /// (``TransactionRecord/insertedParts``), for a replay that moves them from there.
    var keepsInsertedParts = false

    /// Below this many bytes, lines are parsed on the calling thread.
    static let parallelBytes = 1 << 20

    /// Parses `lines` (ranges of `bytes`, without their LFs), stopping after the first damaged one.
    func parse(_ bytes: SharedBytes, _ lines: [Range<Int>]) -> [ParsedLine] {
        let total = lines.last.map { $0.upperBound - (lines.first?.lowerBound ?? 0) } ?? 0
        let chunks =
            total >= parallelAbove && lines.count > 1
            ? min(lines.count, ParallelChunks.balancedPartCount()) : 1
        guard chunks > 1 else { return parse(bytes, lines, 0..<lines.count) }
        // Split at line boundaries into chunks of about equal size in bytes, several a core
        // (`ParallelChunks.balancedPartCount()`): the cores take them as they come free.
        var bounds = [0]
        var next = 1
        for (i, line) in lines.enumerated() where next < chunks {
            if line.upperBound - lines[0].lowerBound >= total * next / chunks {
                bounds.append(i + 1)
                next += 1
            }
        }
        bounds.append(lines.count)
        let chunkBounds = bounds
        let parts = ParallelChunks.map(chunkBounds.count - 1) { k in
            parse(bytes, lines, chunkBounds[k]..<chunkBounds[k + 1])
        }
        var result: [ParsedLine] = []
        result.reserveCapacity(lines.count)
        for part in parts {
            result += part
            if case .damaged = part.last { break }
        }
        return result
    }

    private func parse(_ bytes: SharedBytes, _ lines: [Range<Int>], _ indices: Range<Int>)
        -> [ParsedLine]
    {
        var result: [ParsedLine] = []
        result.reserveCapacity(indices.count)
        for i in indices {
            let parsed = parseLine(
                UnsafeRawBufferPointer(rebasing: bytes.bytes[lines[i]]), index: i,
                start: lines[i].lowerBound)
            result.append(parsed)
            if case .damaged = parsed { break }
        }
        return result
    }

    /// Whether `line` is a history line (`{"h":` or `{"retain":`), which is never read across
    /// cores or read ahead: only transaction lines are.
    static func isHistoryLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.starts(with: "{\"h\":".utf8) || line.starts(with: "{\"retain\":".utf8)
    }

    /// Parses `line`, the `index`th given, which starts at offset `start` of the bytes given.
    private func parseLine(_ line: UnsafeRawBufferPointer, index: Int, start: Int) -> ParsedLine {
        let number = firstNumber + index
        let path = codec.path
        if index >= snapshotRows, line.count >= parallelAbove, !Self.isHistoryLine(line) {
            return parseLargeTransaction(
                line, number: number,
                prefetched: prefetched.first { $0.lineStart == bytesOffset + start })
        }
        if let problem = LineFrame.problem(line) {
            return .damaged(StoreFileErrors.corrupt(path, line: number, problem))
        }
        do {
            if index < snapshotRows {
                return .row(try snapshotRow(line, number: number, left: snapshotRows - index))
            }
            if line.starts(with: "{\"h\":".utf8) {
                return .history(try HistoryLine.read(line, codec: codec))
            }
            if line.starts(with: "{\"retain\":".utf8) {
                return .retention(try HistoryLine.readRetention(line))
            }
            return .transaction(
                try TransactionLine.read(line, codec: codec, keepingParts: keepsInsertedParts))
        } catch {
            return damage(error, number: number)
        }
    }

    /// Parses a transaction line of ``parallelAbove`` bytes or more, whose checksum the workers
    /// that read its rows compute (`LineChecksum`): one fork–join for both instead of one
    /// for the checksum and one for the rows. The framing is checked first and the checksum
    /// compared before the parse's rows or error are used, so the line gives what
    /// `LineFrame.problem(_:)` then `TransactionLine.read(_:codec:checksum:)` give: a damaged
    /// line its framing or checksum problem, a sound one its record or its first error.
    /// Rows `prefetched` while the file was arriving are handed to the read of the line's
    /// `ins` array, which uses them only where they are its own (`RowCodec.readAcrossCores`).
    private func parseLargeTransaction(
        _ line: UnsafeRawBufferPointer, number: Int, prefetched: PrefetchedRows<StoreRow>?
    ) -> ParsedLine {
        var recorded: UInt32 = 0
        if let problem = LineFrame.framingProblem(line, recorded: &recorded) {
            return .damaged(StoreFileErrors.corrupt(codec.path, line: number, problem))
        }
        let checksum = LineChecksum(
            body: UnsafeRawBufferPointer(rebasing: line[..<(line.count - LineFrame.suffixLength)]),
            rowsParallelAbove: parallelAbove, rowParts: rowParts, prefetched: prefetched)
        let parsed: ParsedLine
        do {
            parsed = .transaction(
                try TransactionLine.read(
                    line, codec: codec, checksum: checksum, keepingParts: keepsInsertedParts))
        } catch {
            parsed = damage(error, number: number)
        }
        if let problem = LineFrame.mismatch(recorded: recorded, computed: checksum.value()) {
            return .damaged(StoreFileErrors.corrupt(codec.path, line: number, problem))
        }
        return parsed
    }

    /// What line `number` is (a damaged line) when parsing it threw `error`.
    private func damage(_ error: any Error, number: Int) -> ParsedLine {
        switch error {
        case let e as JSONScanError:
            .damaged(
                StoreFileErrors.corrupt(codec.path, line: number, e.message, column: e.offset + 1))
        case let e as ObjectGraphError: .damaged(e)
        default: .damaged(StoreFileErrors.corrupt(codec.path, line: number, "\(error)"))
        }
    }

    private func snapshotRow(_ line: UnsafeRawBufferPointer, number: Int, left: Int) throws
        -> StoreRow
    {
        guard line.starts(with: "{\"row\":".utf8) else {
            throw StoreFileErrors.corrupt(
                codec.path, line: number,
                "expected a snapshot row line ({\"row\":…}); the "
                    + "header announces \(left) more")
        }
        var s = JSONScanner(line)
        var row: StoreRow?
        try s.forEachMember { key, s in
            switch key {
            case "row": row = try codec.read(&s)
            case "crc": _ = try s.readString()
            default: throw s.error("unknown snapshot row member \"\(key)\"")
            }
        }
        guard let row, s.isAtEnd else { throw s.error("a snapshot row line holds one \"row\"") }
        return row
    }
}
