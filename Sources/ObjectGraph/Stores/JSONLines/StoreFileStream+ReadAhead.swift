import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The calling thread's side of a ``StoreFileStream``: looks at the bytes arrived so far and
/// reads ahead the `ins` rows of a large transaction line that is still arriving
/// (``PrefetchedRows``), in parts across cores, a round whenever enough new bytes are in.
///
/// It reads only bytes already published by the reader; it reports nothing and throws
/// nothing: whatever it cannot read (a header it cannot read, a line of another kind, a part
/// that does not end where the next begins) is left to the load, which reads it as before.
struct ReadAhead {
    /// The file's path (for the codec).
    let path: String
    /// The application's model: rows are read ahead only when the header embeds exactly it.
    let model: ManagedObjectModel?
    /// From how many arrived bytes on a line is read ahead.
    let largeLine: Int
    /// How many bytes of a line not read ahead yet are awaited before the next round.
    let round: Int
    /// At most how many bytes a round reads.
    let roundLimit: Int
    /// How many rows have been read ahead so far.
    private(set) var rowCount = 0

    /// The codecs of the parts, once the header is read.
    private var codecs: ThreadCodecs?
    /// How many lines after the header are snapshot rows (the header's `rows`).
    private var snapshotRows = 0
    /// Whether nothing more is read ahead (the header could not be read).
    private var stopped = false
    /// The current line's first byte (a file offset), once the header is read.
    private var lineStart: Int?
    /// How many lines after the header came before the current one.
    private var lineIndex = 0
    /// Where the search for the current line's LF goes on.
    private var searched = 0
    /// The current line's rows read ahead so far.
    private var current: PrefetchedRows<StoreRow>?
    /// Whether the current line is read ahead no further.
    private var currentOver = false
    /// How many of the current line's bytes had arrived at its last round.
    private var lookedAt = 0
    /// The rows read ahead of the lines before the current one.
    private var done: [PrefetchedRows<StoreRow>] = []

    /// Nothing read ahead yet.
    init(path: String, model: ManagedObjectModel?, largeLine: Int, round: Int, roundLimit: Int) {
        self.path = path
        self.model = model
        self.largeLine = largeLine
        self.round = round
        self.roundLimit = roundLimit
    }

    /// Looks at `bytes`, the file's first bytes (all that have arrived), and reads ahead a
    /// round if there is one to read; returns whether another round is ready in these bytes.
    mutating func advance(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !stopped, let base = bytes.baseAddress else { return false }
        /// The offset of the first LF from `searched` on, or `nil`.
        func newline() -> Int? {
            guard searched < bytes.count,
                let lf = memchr(base + searched, 0x0A, bytes.count - searched)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(lf))
        }
        if lineStart == nil {
            guard let lf = newline() else {
                searched = bytes.count
                return false
            }
            let line = UnsafeRawBufferPointer(rebasing: bytes[...lf])
            // Only when the load reads with the caller's model itself (the header embeds
            // exactly it): rows read ahead then hold that model's entities, as the load's do.
            guard let header = try? StoreFileLoader.readHeader(line, path: path), let model,
                header.isWritten(with: model)
            else {
                stopped = true
                return false
            }
            codecs = ThreadCodecs(
                RowCodec(
                    model: model, storeIdentifier: header.storeIdentifier, path: path,
                    formatVersion: header.version))
            snapshotRows = header.rows
            lineStart = lf + 1
            searched = lf + 1
        }
        while let start = lineStart {
            if let lf = newline() {
                finishLine()
                lineStart = lf + 1
                searched = lf + 1
                lineIndex += 1
                continue
            }
            searched = bytes.count
            return readAhead(UnsafeRawBufferPointer(rebasing: bytes[start...]), start: start)
        }
        return false
    }

    /// The rows read ahead, line by line; the read ahead is over.
    mutating func finished() -> [PrefetchedRows<StoreRow>] {
        finishLine()
        stopped = true
        return done
    }

    /// Keeps the current line's rows, if any, and moves on.
    private mutating func finishLine() {
        if let current, current.rows.storage.count > 0 { done.append(current) }
        current = nil
        currentOver = false
        lookedAt = 0
    }

    /// A round on `line`, the arrived bytes of a line (no LF yet) starting at file offset
    /// `start`: reads the rows from where the last round stopped to the last `],["` arrived
    /// (at most ``roundLimit`` bytes on); returns whether another round is ready.
    private mutating func readAhead(_ line: UnsafeRawBufferPointer, start: Int) -> Bool {
        guard let codecs, lineIndex >= snapshotRows, !currentOver, line.count >= largeLine
        else { return false }
        if current == nil {
            guard line.count - lookedAt >= round else { return false }
            lookedAt = line.count
            // History lines are not read across cores by the load (`LineParser.parseLine`).
            if LineParser.isHistoryLine(line) {
                currentOver = true
                return false
            }
            switch Self.firstInsertedRow(line) {
            case .notYet: return false
            case .never:
                currentOver = true
                return false
            case .at(let first):
                current = PrefetchedRows(
                    codec: codecs.identity, lineStart: start, first: first,
                    checksum: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[..<first])))
            }
        }
        guard let current, line.count - current.resume >= round else { return false }
        // The last `],["` within the round: the rows before its comma are read this round.
        let limit = min(line.count, current.resume + roundLimit)
        var last = limit - 4
        while last >= current.resume && !RowCodec.isRowBoundary(line, at: last) { last -= 1 }
        guard last >= current.resume else {
            // A row longer than a round is left to the load.
            if limit < line.count { currentOver = true }
            return false
        }
        let (starts, commas) = Self.parts(of: line, from: current.resume, toComma: last + 1)
        let shared = SharedBytes(bytes: line)
        let results = ParallelChunks.map(starts.count) { k in
            let codec = codecs.take()
            defer { codecs.give(codec) }
            let range = starts[k]..<(commas[k] + 1)
            return (
                segment: RowCodec.readPart(
                    shared.bytes, from: starts[k], stop: commas[k], codec: codec,
                    { codec, s in try codec.read(&s) }),
                crc: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: shared.bytes[range])),
                length: range.count
            )
        }
        for result in results {
            guard case .reachedNext(let part) = result.segment else {
                currentOver = true
                return false
            }
            rowCount += part.storage.count
            current.rows.storage.append(movingAllOf: &part.storage)
            current.checksum = CRC32C.combine(
                current.checksum, result.crc, lengthOfB: result.length)
            current.resume += result.length
        }
        return line.count - current.resume >= round
    }

    /// Splits the rows from `from` to the comma at `comma` into parts, one a core (fewer when
    /// short), at `],["` sequences: each part's first row and the comma after its last.
    private static func parts(
        of line: UnsafeRawBufferPointer, from: Int, toComma comma: Int
    ) -> (starts: [Int], commas: [Int]) {
        let span = comma - from
        let count = max(1, min(ParallelChunks.chunkCount(for: Int.max), span / (1 << 16)))
        var starts = [from]
        var commas: [Int] = []
        for k in 1..<count {
            var i = max(from + span * k / count, (commas.last ?? from) + 1)
            while i + 3 < comma, !RowCodec.isRowBoundary(line, at: i) { i += 1 }
            guard i + 3 < comma else { break }
            commas.append(i + 1)
            starts.append(i + 2)
        }
        commas.append(comma)
        return (starts, commas)
    }

    /// Where a transaction line's `ins` array starts.
    private enum FirstRow {
        /// Its first row is at this offset (just after the `[`).
        case at(Int)
        /// The bytes arrived do not tell yet.
        case notYet
        /// The line has no `ins` array before its other changes: nothing is read ahead.
        case never
    }

    /// Where the first row of the `ins` array of `line` (a transaction line's first bytes) is:
    /// its members before `ins` are skipped as JSON values.
    private static func firstInsertedRow(_ line: UnsafeRawBufferPointer) -> FirstRow {
        var s = JSONScanner(line)
        do {
            try s.expect(0x7B)
            while true {
                let key = try s.readString()
                try s.expect(0x3A)
                if key == "ins" { return s.peek() == 0x5B ? .at(s.position + 1) : .never }
                if key == "upd" || key == "del" || key == "batch" { return .never }
                try s.skipValue()
                guard s.consume(0x2C) else { return s.isAtEnd ? .notYet : .never }
            }
        } catch {
            return .notYet
        }
    }
}
