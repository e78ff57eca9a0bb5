import Foundation

/// Reading a large array of rows or updates across cores: split at row boundaries, each part read
/// by whichever core is free, the parts joined by moving their rows.
extension RowCodec {
    /// Reads a JSON array of rows at the scanner's position. A large array is split at row
    /// boundaries and read across cores.
    ///
    /// - Parameter checksum: A large line's checksum for the split read to compute
    ///   (``readAcrossCores(_:parts:checksum:_:)``); its threshold replaces `minimum`.
    /// - Throws: ``JSONScanError`` for the first problem, as a sequential read reports it.
    func readRows(
        _ s: inout JSONScanner, parallelAbove minimum: Int = LineParser.parallelBytes,
        checksum: LineChecksum? = nil
    ) throws -> [StoreRow] {
        if s.end - s.position >= checksum?.rowsParallelAbove ?? minimum,
            let rows = readAcrossCores(&s, checksum: checksum, { codec, s in try codec.read(&s) })
        {
            return rows
        }
        var rows: [StoreRow] = []
        try s.forEachElement { s in rows.append(try read(&s)) }
        return rows
    }

    private enum Segment<Element: Sendable>: Sendable {
        /// Rows read up to the next worker's start (which this proves is a row boundary).
        case reachedNext([Element])
        /// Rows read up to the array's `]`; the offset just after it.
        case endedArray([Element], Int)
        /// Anything else: the caller reads the array again on one thread.
        case unusable

        /// The number of rows read.
        var count: Int {
            switch self {
            case .reachedNext(let rows), .endedArray(let rows, _): rows.count
            case .unusable: 0
            }
        }

        /// The rows read, taken out of the segment (which keeps its kind and end): the array
        /// returned is then held only by the caller, whose appends move its rows rather than
        /// copy them.
        mutating func takeRows() -> [Element] {
            var rows: [Element] = []
            if case .reachedNext(var part) = self {
                // The segment lets go of its copy first: `part`'s is then the only one.
                self = .unusable
                swap(&rows, &part)
                self = .reachedNext([])
            } else if case .endedArray(var part, let end) = self {
                self = .unusable
                swap(&rows, &part)
                self = .endedArray([], end)
            }
            return rows
        }
    }

    /// What one worker of `readAcrossCores` gives back: its segment of the array, and the
    /// checksum of its share of a line's body when the read computes one (`LineChecksum`).
    private struct Part<Element: Sendable>: Sendable {
        /// The rows the worker read, or why they cannot be used.
        var segment: Segment<Element>
        /// The checksum of the worker's share of the body and the share's length.
        let checksum: (crc: UInt32, length: Int)?
    }

    /// Splits the array at `],["` sequences near equal offsets and reads the parts concurrently.
    /// A sequence inside a string is not a boundary; that is detected (the previous part does
    /// not end there) and the whole read falls back to one thread. Returns `nil` to fall back.
    ///
    /// - Parameter parts: How many parts to split the array into (by default
    ///   ``ParallelChunks/balancedPartCount()``: several a core, which the cores take as they
    ///   come free, so that a thread that starts late reads fewer; tests ask for other counts).
    /// - Parameter checksum: A large line's checksum not yet computed: the first read that
    ///   splits its array claims it and has each part compute a share (recorded whether or not
    ///   the read then falls back).
    func readAcrossCores<Element: Sendable>(
        _ s: inout JSONScanner, parts: Int = ParallelChunks.balancedPartCount(),
        checksum: LineChecksum? = nil,
        _ readOne: @Sendable (RowCodec, inout JSONScanner) throws -> Element
    ) -> [Element]? {
        guard s.peek() == 0x5B else { return nil }
        let open = s.position
        let bytes = SharedBytes(bytes: s.bytes(in: 0..<s.end))
        guard parts > 1 else { return nil }
        var starts = [open + 1]
        var commas: [Int] = []
        let span = s.end - open
        for k in 1..<parts {
            var i = max(open + span * k / parts, (commas.last ?? open) + 2)
            // `],["`: the end of a row, a comma, the start of the next row's entity name.
            while i + 3 < s.end,
                !(bytes.bytes[i] == 0x5D && bytes.bytes[i + 1] == 0x2C && bytes.bytes[i + 2] == 0x5B
                    && bytes.bytes[i + 3] == 0x22)
            {
                i += 1
            }
            guard i + 3 < s.end else { break }
            commas.append(i + 1)
            starts.append(i + 2)
        }
        guard starts.count > 1 else { return nil }
        let boundaries = (starts: starts, commas: commas)
        let count = starts.count
        // A large line's checksum, when this read claims it: each part checks an equal share
        // of the line's body before it reads its rows (one fork–join for both).
        let body = checksum?.claim()
        let codecs = ThreadCodecs(self)
        var results = ParallelChunks.map(count) { k -> Part<Element> in
            var crc: (crc: UInt32, length: Int)?
            if let body {
                let range = ParallelChunks.range(k, of: count, count: body.bytes.count)
                crc = (
                    CRC32C.checksum(UnsafeRawBufferPointer(rebasing: body.bytes[range])),
                    range.count
                )
            }
            func read() -> Segment<Element> {
                var scanner = JSONScanner(bytes.bytes)
                scanner.position = boundaries.starts[k]
                let stop = k < boundaries.commas.count ? boundaries.commas[k] : nil
                let codec = codecs.take()
                defer { codecs.give(codec) }
                var rows: [Element] = []
                do {
                    while true {
                        rows.append(try readOne(codec, &scanner))
                        scanner.skipSpace()
                        if let stop, scanner.position >= stop {
                            return scanner.position == stop ? .reachedNext(rows) : .unusable
                        }
                        if scanner.consume(0x2C) { continue }
                        if scanner.consume(0x5D) { return .endedArray(rows, scanner.position) }
                        return .unusable
                    }
                } catch {
                    return .unusable
                }
            }
            return Part(segment: read(), checksum: crc)
        }
        if body != nil { checksum?.record(results.map { $0.checksum! }) }
        // The parts up to the one that ends the array, or nil when one is unusable first.
        guard
            let last = results.firstIndex(where: {
                if case .reachedNext = $0.segment { return false } else { return true }
            }), case .endedArray(_, let end) = results[last].segment
        else { return nil }
        let total = results[...last].reduce(0) { $0 + $1.segment.count }
        // The first part becomes the result; the others' rows are moved onto its end (appending
        // an array copies its elements: a retain of each row's references, and a release of
        // each when the part goes, on the one thread that joins).
        var rows = results[0].segment.takeRows()
        rows.reserveCapacity(total)
        for k in 1..<(last + 1) {
            var part = results[k].segment.takeRows()
            rows.appendMoving(from: &part)
        }
        s.position = end
        return rows
    }
}

/// The codecs the workers of one split read use, each by one thread at a time: a part takes one
/// (a new `RowCodec.forOneThread()` copy when none is free) and gives it back when read, so that
/// a read in many parts copies the codec's tables once a thread (≈ 16,000 instructions a copy)
/// rather than once a part.
private final class ThreadCodecs: @unchecked Sendable {
    // Sendable: `free` is read and written only while holding `lock`; a codec taken is used
    // only by the thread that took it until it gives it back.
    private let lock = NSLock()
    private let source: RowCodec
    private var free: [RowCodec] = []

    /// No codec yet: each is copied from `source` when a part finds none free.
    init(_ source: RowCodec) { self.source = source }

    /// A codec no other thread is using.
    func take() -> RowCodec {
        lock.lock()
        let codec = free.popLast()
        lock.unlock()
        return codec ?? source.forOneThread()
    }

    /// Gives back a codec taken with ``take()``, for the next part.
    func give(_ codec: RowCodec) {
        lock.lock()
        free.append(codec)
        lock.unlock()
    }
}
