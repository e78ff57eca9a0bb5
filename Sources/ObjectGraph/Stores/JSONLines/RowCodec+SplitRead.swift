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
        let read = try readRowsInParts(&s, parallelAbove: minimum, checksum: checksum)
        return read.parts.isEmpty ? read.rows : PartRows.join(read.parts)
    }

    /// ``readRows(_:parallelAbove:checksum:)`` that leaves the rows of a split read in the
    /// parts the workers read them into (in order; `rows` is then empty), for a caller that
    /// moves them from there (``RowTable/insertNew(movingParts:)``) rather than have them
    /// joined into one array first; the rows of a read on one thread are in `rows`.
    func readRowsInParts(
        _ s: inout JSONScanner, parallelAbove minimum: Int = LineParser.parallelBytes,
        checksum: LineChecksum? = nil
    ) throws -> (rows: [StoreRow], parts: [PartRows<StoreRow>]) {
        if s.end - s.position >= checksum?.rowsParallelAbove ?? minimum,
            let parts = readInParts(
                &s, parts: checksum?.rowParts ?? ParallelChunks.balancedPartCount(),
                checksum: checksum, prefetched: checksum?.prefetched,
                { codec, s in try codec.read(&s) })
        {
            // The parts are kept until the rows are moved out (for a log replay, until the
            // line is applied): each holds no room beyond its rows, as the joined array did.
            for part in parts { part.storage.shrinkToFit() }
            return ([], parts)
        }
        var rows: [StoreRow] = []
        try s.forEachElement { s in rows.append(try read(&s)) }
        return (rows, [])
    }

    /// How one part of a split read ended (``readPart(_:from:stop:codec:_:)``).
    enum Segment<Element: Sendable>: Sendable {
        /// Rows read up to the next worker's start (which this proves is a row boundary).
        case reachedNext(PartRows<Element>)
        /// Rows read up to the array's `]`; the offset just after it.
        case endedArray(PartRows<Element>, Int)
        /// Anything else: the caller reads the array again on one thread.
        case unusable

        /// The rows read, or `nil` when unusable.
        var rows: PartRows<Element>? {
            switch self {
            case .reachedNext(let rows), .endedArray(let rows, _): rows
            case .unusable: nil
            }
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
    /// - Parameter prefetched: The array's first rows, read while the file was still arriving
    ///   (``PrefetchedRows``): used when they start at this array's first row, in which case
    ///   only the rest is split and read (and only the rest's checksum computed). Whether the
    ///   read uses them or not, it gives what it gives without them.
    func readAcrossCores<Element: Sendable>(
        _ s: inout JSONScanner, parts: Int = ParallelChunks.balancedPartCount(),
        checksum: LineChecksum? = nil, prefetched: PrefetchedRows<Element>? = nil,
        _ readOne: @Sendable (RowCodec, inout JSONScanner) throws -> Element
    ) -> [Element]? {
        readInParts(&s, parts: parts, checksum: checksum, prefetched: prefetched, readOne)
            .map(PartRows.join)
    }

    /// ``readAcrossCores(_:parts:checksum:prefetched:_:)`` without the join: the rows in the
    /// parts read (the prefetched rows, when used, first), each part's in order, none empty.
    func readInParts<Element: Sendable>(
        _ s: inout JSONScanner, parts: Int, checksum: LineChecksum?,
        prefetched: PrefetchedRows<Element>?,
        _ readOne: @Sendable (RowCodec, inout JSONScanner) throws -> Element
    ) -> [PartRows<Element>]? {
        guard s.peek() == 0x5B else { return nil }
        let open = s.position
        let bytes = SharedBytes(bytes: s.bytes(in: 0..<s.end))
        // Prefetched rows are this array's when they start at its first row; the rest is
        // then split from the comma before the first row not prefetched, as from an opening.
        // They are used only when read by a codec like this one (the same model instance, so
        // the same entities, the same store identifier and format version); rows considered
        // and not used are released at once rather than held through the load.
        var prefix: PrefetchedRows<Element>?
        if let prefetched, prefetched.first == open + 1 {
            if prefetched.codec == identity && prefetched.resume < s.end {
                prefix = prefetched
            } else {
                prefetched.rows.storage.free()
            }
        }
        defer { prefix?.rows.storage.free() }
        // One part is enough when rows were read ahead: it reads the rest after them.
        guard parts > 1 || (prefix != nil && parts >= 1) else { return nil }
        let origin = prefix.map { $0.resume - 1 } ?? open
        var starts = [origin + 1]
        var commas: [Int] = []
        let span = s.end - origin
        for k in 1..<parts {
            var i = max(origin + span * k / parts, (commas.last ?? origin) + 2)
            while i + 3 < s.end, !Self.isRowBoundary(bytes.bytes, at: i) { i += 1 }
            guard i + 3 < s.end else { break }
            commas.append(i + 1)
            starts.append(i + 2)
        }
        guard starts.count > 1 || prefix != nil else { return nil }
        let boundaries = (starts: starts, commas: commas)
        let count = starts.count
        // A large line's checksum, when this read claims it: each part checks an equal share
        // of the line's body (after the prefetched rows' bytes, whose checksum the prefetch
        // computed) before it reads its rows (one fork–join for both).
        let body = checksum?.claim(after: prefix.map { ($0.checksum, $0.resume) })
        let codecs = ThreadCodecs(self)
        let results = ParallelChunks.map(count) { k -> Part<Element> in
            var crc: (crc: UInt32, length: Int)?
            if let body {
                let range = ParallelChunks.range(k, of: count, count: body.bytes.count)
                crc = (
                    CRC32C.checksum(UnsafeRawBufferPointer(rebasing: body.bytes[range])),
                    range.count
                )
            }
            let codec = codecs.take()
            defer { codecs.give(codec) }
            let stop = k < boundaries.commas.count ? boundaries.commas[k] : nil
            return Part(
                segment: Self.readPart(
                    bytes.bytes, from: boundaries.starts[k], stop: stop, codec: codec, readOne),
                checksum: crc)
        }
        if body != nil { checksum?.record(results.map { $0.checksum! }) }
        // The parts up to the one that ends the array, or nil when one is unusable first.
        guard
            let last = results.firstIndex(where: {
                if case .reachedNext = $0.segment { return false } else { return true }
            }), case .endedArray(_, let end) = results[last].segment
        else { return nil }
        var read = results[...last].compactMap(\.segment.rows)
        if let prefix {
            // The prefetched rows' storage handed to a part of the result's own (the
            // prefetch, which its owner frees, then holds none).
            let first = PartRows<Element>()
            first.storage = prefix.rows.storage
            prefix.rows.storage = RowStorage()
            read.insert(first, at: 0)
        }
        s.position = end
        return read
    }
}

extension PartRows {
    /// The element at `index` of `parts` taken as one run (a walk over the parts; the parts
    /// are left as they are).
    static func element(_ index: Int, of parts: [PartRows<Element>]) -> Element {
        var i = index
        for part in parts {
            let elements = part.storage.elements
            if i < elements.count { return elements[i] }
            i -= elements.count
        }
        preconditionFailure("element \(index) of parts holding fewer")
    }

    /// The rows of `parts`, in order, moved into one array in bulk (one `memcpy` a part): no
    /// copy, no retain, no release of a row. The parts are left empty.
    static func join(_ parts: [PartRows<Element>]) -> [Element] {
        let total = parts.reduce(0) { $0 + $1.storage.count }
        return [Element](unsafeUninitializedCapacity: total) { buffer, initialized in
            for part in parts {
                guard let base = buffer.baseAddress else { break }
                initialized += part.storage.moveAll(to: base + initialized)
            }
        }
    }
}

extension RowCodec {
    /// What makes rows read by one codec those another would read: the same model instance
    /// (rows hold its entities), store identifier (their IDs) and format version.
    struct Identity: Equatable, Sendable {
        /// The model instance's identity.
        let model: ObjectIdentifier
        /// The store identifier in the rows' IDs.
        let storeIdentifier: String
        /// The file format version read.
        let formatVersion: Int
    }

    /// This codec's identity.
    var identity: Identity {
        Identity(
            model: ObjectIdentifier(model), storeIdentifier: storeIdentifier,
            formatVersion: formatVersion)
    }

    /// Whether `bytes[i...]` starts with `],["`: the end of a row, a comma, and the start of the
    /// next row's entity name, where a split read may cut an array of rows (a sequence inside a
    /// string is not a boundary; the parts' reads find that out). `i + 3` must be in `bytes`.
    @inline(__always)
    static func isRowBoundary(_ bytes: UnsafeRawBufferPointer, at i: Int) -> Bool {
        bytes[i] == 0x5D && bytes[i + 1] == 0x2C && bytes[i + 2] == 0x5B && bytes[i + 3] == 0x22
    }

    /// Reads the rows of one part of a split array, from the row at `start` (in `bytes`, a
    /// line) to the comma at `stop` (which it proves is a row boundary by ending there), or to
    /// the array's `]` when `stop` is `nil`, with `codec` (used by this thread only).
    static func readPart<Element: Sendable>(
        _ bytes: UnsafeRawBufferPointer, from start: Int, stop: Int?, codec: RowCodec,
        _ readOne: (RowCodec, inout JSONScanner) throws -> Element
    ) -> Segment<Element> {
        var scanner = JSONScanner(bytes)
        scanner.position = start
        // Filled through a local value (no exclusivity check an append), handed to `part`
        // (which frees what the join does not move out) on the way out.
        let part = PartRows<Element>()
        var rows = RowStorage<Element>()
        defer { part.storage = rows }
        do {
            while true {
                rows.append(try readOne(codec, &scanner))
                scanner.skipSpace()
                if let stop, scanner.position >= stop {
                    return scanner.position == stop ? .reachedNext(part) : .unusable
                }
                if scanner.consume(0x2C) { continue }
                if scanner.consume(0x5D) { return .endedArray(part, scanner.position) }
                return .unusable
            }
        } catch {
            return .unusable
        }
    }
}

/// The codecs the workers of one split read use, each by one thread at a time: a part takes one
/// (a new `RowCodec.forOneThread()` copy when none is free) and gives it back when read, so that
/// a read in many parts copies the codec's tables once a thread (≈ 16,000 instructions a copy)
/// rather than once a part.
final class ThreadCodecs: @unchecked Sendable {
    // Sendable: `free` is read and written only while holding `lock`; a codec taken is used
    // only by the thread that took it until it gives it back.
    /// Guards `free`.
    private let lock = NSLock()
    /// The codec copied (`RowCodec.forOneThread()`) when a part finds none free.
    private let source: RowCodec
    /// The codecs given back and not taken again: each used by no thread now.
    private var free: [RowCodec] = []

    /// No codec yet: each is copied from `source` when a part finds none free.
    init(_ source: RowCodec) { self.source = source }

    /// The identity of the codecs handed out (``RowCodec/identity``).
    var identity: RowCodec.Identity { source.identity }

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

/// The rows one worker of a split read reads, kept in storage of their own until the join moves
/// them all out in one go (``RowStorage/moveAll(to:)``); whatever is still held when the part
/// goes (a part whose read is not used) is released then.
final class PartRows<Element>: @unchecked Sendable {
    // Sendable: filled by one worker, then read and emptied by the caller only after
    // `ParallelChunks.map` returns (or, prefetched, after the read ahead hands it over).
    /// The rows.
    var storage = RowStorage<Element>()

    deinit { storage.free() }
}

/// A growable run of elements in memory the holder manages: appended to, then moved out in
/// bulk, which an `Array` cannot give up without releasing each element.
///
/// The holder calls ``free()`` once (`PartRows` does, when it goes).
///
/// Aliasing: this is a copyable struct that owns a pointer, so a copy shares the storage.
/// Exactly one owner frees it: a worker fills a local value and hands it to its `PartRows`
/// (`part.storage = rows`), after which the local copy is not used again; only
/// `PartRows.storage` is moved out of (``moveAll(to:)``, or element by element through
/// ``elements`` followed by ``forgetMovedElements()``) and freed, and a holder that hands its
/// storage to another `PartRows` resets its own (`storage = RowStorage()`) at once. Never
/// append to, move out of or free two copies.
///
/// The memory is `malloc`'s (shrunk with `realloc`, freed with `free`).
struct RowStorage<Element> {
    /// The first element's address; `nil` until the first append, and after ``free()``.
    private var base: UnsafeMutablePointer<Element>?
    /// How many elements are held.
    private(set) var count = 0
    /// How many elements `base` has room for (0 while it is `nil`).
    private var capacity = 0

    /// Appends `element`, doubling the storage (a bitwise move of the elements) when full.
    mutating func append(_ element: consuming Element) {
        if count == capacity { grow(to: count + 1) }
        (base! + count).initialize(to: element)
        count += 1
    }

    /// Moves every element of `other` to the end of this storage (a bitwise move), leaving
    /// `other` empty.
    mutating func append(movingAllOf other: inout RowStorage<Element>) {
        guard other.count > 0 else { return }
        if count + other.count > capacity { grow(to: count + other.count) }
        count += other.moveAll(to: base! + count)
    }

    /// Makes room for at least `minimum` elements, at least doubling the storage: a new block,
    /// the elements moved into it, the old one freed (`realloc` here cost the W2 open's
    /// split read ≈ 0.18 M instructions more at N = 20,000).
    private mutating func grow(to minimum: Int) {
        let larger = max(64, capacity * 2, minimum)
        let block = allocate(larger)
        if let base {
            block.moveInitialize(from: base, count: count)
            Foundation.free(base)
        }
        base = block
        capacity = larger
    }

    /// A block of `malloc`'s for `capacity` elements, bound to `Element`.
    private func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        precondition(MemoryLayout<Element>.alignment <= 16, "malloc's alignment")
        guard let block = malloc(capacity * MemoryLayout<Element>.stride) else {
            fatalError("out of memory for \(capacity) elements")
        }
        return block.bindMemory(to: Element.self, capacity: capacity)
    }

    /// Gives back the room beyond the elements held (in place: `realloc` shrinks a block
    /// without moving it), so that storage kept after it is filled holds no more than an
    /// array of exactly its elements would.
    mutating func shrinkToFit() {
        guard base != nil, count < capacity else { return }
        if count == 0 {
            free()
        } else {
            resize(to: count)
        }
    }

    /// Sets the room to `capacity` elements (at least ``count``) with `realloc`, which moves
    /// the elements' bytes if it moves the block (a shrink does not): a valid move for the
    /// rows and updates held here, as for any type whose values `moveInitialize` moves by
    /// copying bytes (every type with no weak reference).
    private mutating func resize(to capacity: Int) {
        let stride = MemoryLayout<Element>.stride
        guard let block = realloc(UnsafeMutableRawPointer(base), capacity * stride) else {
            fatalError("out of memory for \(capacity) elements")
        }
        base = block.bindMemory(to: Element.self, capacity: capacity)
        self.capacity = capacity
    }

    /// Moves every element to `destination` (uninitialised memory for ``count`` elements),
    /// leaving none held; returns how many were moved.
    mutating func moveAll(to destination: UnsafeMutablePointer<Element>) -> Int {
        let moved = count
        if let base, moved > 0 { destination.moveInitialize(from: base, count: moved) }
        count = 0
        return moved
    }

    /// The elements held, in order (valid until the next change to the storage).
    var elements: UnsafeMutableBufferPointer<Element> {
        UnsafeMutableBufferPointer(start: base, count: count)
    }

    /// Holds no elements, without deinitialising them: the caller has moved every one out
    /// of ``elements``.
    mutating func forgetMovedElements() { count = 0 }

    /// Releases the elements still held and the storage.
    mutating func free() {
        guard let base else { return }
        base.deinitialize(count: count)
        Foundation.free(base)
        self.base = nil
        count = 0
        capacity = 0
    }
}
