import Foundation

/// The checksum framing every store line shares: `BODY,"crc":"hhhhhhhh"}` then LF, where
/// `hhhhhhhh` is the lowercase hex CRC-32C of BODY (<doc:StoreFileFormat#11-Checksum>).
enum LineFrame {
    /// The bytes after the body: `,"crc":"` + 8 hex digits + `"}`.
    static let suffixLength = 18
    /// The bytes a snapshot row line adds around its row: `{"row":`, the suffix and the LF.
    static let snapshotRowOverhead = 7 + suffixLength + 1

    private static let crcKey: [UInt8] = Array(",\"crc\":\"".utf8)

    /// Ends the line whose body started at `bodyStart` in `w`: appends the checksum member,
    /// the closing brace and the LF.
    ///
    /// - Parameter runs: Row runs inside the body whose checksums are known: the body's
    ///   checksum is combined from theirs and the bytes between them (see ``RowRun``).
    static func finish(_ w: JSONByteWriter, bodyStart: Int, runs: [RowRun] = []) {
        // A line that spilled (`LineSpill`) starts at the writer's offset 0 and has its
        // written bytes' checksum already.
        let spill = w.spilled > 0 ? w.spill : nil
        precondition(
            w.spilled == 0 || (spill != nil && bodyStart == 0),
            "LineFrame: a line that spilled starts at offset 0 and is finished while spilling")
        let crc =
            spill != nil
            ? spill!.bodyChecksum(w)
            : runs.isEmpty
                ? CRC32C.checksum(UnsafeRawBufferPointer(rebasing: w.bytes[bodyStart...]))
                : RowRun.checksum(of: w, from: bodyStart, runs: runs)
        w.append(ascii: ",\"crc\":\"")
        w.append(hex32: crc)
        w.append(ascii: "\"}\n")
    }

    /// Whether `line` (without its LF) ends as every store line does, with `,"crc":"` and
    /// eight bytes and `"}`, whatever its checksum says.
    static func endsWithChecksumMember(_ line: UnsafeRawBufferPointer) -> Bool {
        let n = line.count
        guard n >= suffixLength + 1 else { return false }
        let suffix = n - suffixLength
        for (i, b) in crcKey.enumerated() where line[suffix + i] != b { return false }
        return line[n - 2] == 0x22 && line[n - 1] == 0x7D
    }

    /// Why `line` (without its LF) fails its framing or checksum, or `nil` when it is sound.
    static func problem(_ line: UnsafeRawBufferPointer) -> String? {
        var stored: UInt32 = 0
        if let problem = framingProblem(line, recorded: &stored) { return problem }
        let computed = checksum(
            UnsafeRawBufferPointer(rebasing: line[..<(line.count - suffixLength)]))
        return mismatch(recorded: stored, computed: computed)
    }

    /// Why `line` (without its LF) fails its framing (not a JSON object, no checksum member,
    /// not eight lowercase hex digits), or `nil` when the framing is sound: `recorded` then
    /// holds the checksum the line records. The body is not read (its checksum is
    /// ``mismatch(recorded:computed:)``'s to compare).
    static func framingProblem(_ line: UnsafeRawBufferPointer, recorded: inout UInt32) -> String? {
        let n = line.count
        guard n >= suffixLength + 1, line[0] == 0x7B else {
            return n == 0 ? "the line is empty" : "the line is not a JSON object with a checksum"
        }
        let suffix = n - suffixLength
        for (i, b) in crcKey.enumerated() where line[suffix + i] != b {
            return "the line does not end with its checksum member ,\"crc\":\"…\"}"
        }
        guard line[n - 2] == 0x22, line[n - 1] == 0x7D else {
            return "the line does not end with its checksum member ,\"crc\":\"…\"}"
        }
        var stored: UInt32 = 0
        for i in (suffix + 8)..<(suffix + 16) {
            let b = line[i]
            guard b < 0x41 || b > 0x46, let d = hexValue(b) else {
                return "the checksum is not eight lowercase hex digits"
            }
            stored = stored << 4 | UInt32(d)
        }
        recorded = stored
        return nil
    }

    /// The problem of a line whose body's checksum is `computed` while it records `recorded`,
    /// or `nil` when they agree.
    static func mismatch(recorded: UInt32, computed: UInt32) -> String? {
        guard computed != recorded else { return nil }
        return
            "checksum mismatch: the line records \(hex(recorded)), its content gives \(hex(computed))"
    }

    /// The CRC-32C of `bytes`; a body of ``parallelBytes`` or more is checked in parts across
    /// cores, their checksums combined (``CRC32C/combine(_:_:lengthOfB:)``): a save of 100,000
    /// rows is one line of 15 MB, whose checksum was a serial pass before it could be parsed.
    /// The parts are more than the cores (``ParallelChunks/balancedPartCount()``), so that a
    /// thread that starts late takes fewer of them rather than leaving the first one idle.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let parts = bytes.count >= parallelBytes ? ParallelChunks.balancedPartCount() : 1
        guard parts > 1 else { return CRC32C.checksum(bytes) }
        let shared = SharedBytes(bytes: bytes)
        let crcs = ParallelChunks.map(parts) { k -> (crc: UInt32, length: Int) in
            let range = ParallelChunks.range(k, of: parts, count: shared.bytes.count)
            return (
                CRC32C.checksum(UnsafeRawBufferPointer(rebasing: shared.bytes[range])), range.count
            )
        }
        var crc = crcs[0].crc
        for part in crcs.dropFirst() { crc = CRC32C.combine(crc, part.crc, lengthOfB: part.length) }
        return crc
    }

    /// From how many bytes on a line's checksum is computed across cores.
    static let parallelBytes = 4 << 20

    private static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }
}

/// The checksum of one large line's body, computed by the workers that read the line's rows:
/// the first array read across cores (`RowCodec.readAcrossCores`) claims it, and each of its
/// parts checks an equal share of the body's bytes before reading its rows, so that the line
/// is checked and read in one fork–join rather than two (each paying for a pool thread that
/// may wake late). When no array is read across cores, ``value()`` computes it in one go.
///
/// Used by one thread (the one parsing the line); the workers see only the body's bytes.
/// The caller compares the checksum before it uses what the parse gave (rows or an error),
/// so a damaged line reports its checksum mismatch as when the checksum comes first.
final class LineChecksum {
    /// The line's body: the bytes before `,"crc":`.
    let body: SharedBytes
    /// From how many bytes on the line's arrays are read across cores (`LineParser`'s
    /// threshold, which tests lower).
    let rowsParallelAbove: Int
    /// How many parts the line's arrays are split into when read across cores, or `nil` for
    /// `ParallelChunks.balancedPartCount()` (`LineParser.rowParts`, which tests set).
    let rowParts: Int?
    /// The first rows of the line's `ins` array, read while the file was still arriving
    /// (``PrefetchedRows``), for the split read of that array to use; `nil` when none were.
    let prefetched: PrefetchedRows<StoreRow>?
    /// Whether a split read has taken the body (``claim(after:)``): only the first computes it.
    private var claimed = false
    /// The checksum of the body's first bytes, known to the claimer, and their count.
    private var known: (crc: UInt32, length: Int)?
    /// The body's checksum once the claimer has recorded its parts' (``record(_:)``).
    private var computed: UInt32?

    /// A checksum of `body` not yet computed, for arrays read across cores from
    /// `rowsParallelAbove` bytes on in `rowParts` parts (`nil`: the balanced count), and the
    /// rows of its `ins` array read ahead, if any.
    init(
        body: UnsafeRawBufferPointer, rowsParallelAbove: Int, rowParts: Int? = nil,
        prefetched: PrefetchedRows<StoreRow>? = nil
    ) {
        self.body = SharedBytes(bytes: body)
        self.rowsParallelAbove = rowsParallelAbove
        self.rowParts = rowParts
        self.prefetched = prefetched
    }

    /// The body's bytes for the first caller, which then owes ``record(_:)`` the checksums
    /// of their parts; `nil` for later callers.
    ///
    /// - Parameter known: The checksum of the body's first bytes and their count, when the
    ///   caller knows it (rows read ahead): only the bytes after them are returned (and no
    ///   bytes at all, `nil`, when there are fewer than they say: the checksum is then
    ///   computed whole by ``value()``).
    func claim(after known: (crc: UInt32, length: Int)? = nil) -> SharedBytes? {
        guard !claimed else { return nil }
        claimed = true
        guard let known else { return body }
        guard known.length < body.bytes.count else { return nil }
        self.known = known
        return SharedBytes(bytes: UnsafeRawBufferPointer(rebasing: body.bytes[known.length...]))
    }

    /// Records the checksums of the body's parts, in order, as computed by the claimer (each
    /// with its length; together they cover the body, after the bytes it said it knew).
    func record(_ parts: [(crc: UInt32, length: Int)]) {
        precondition(
            claimed && computed == nil && !parts.isEmpty
                && (known?.length ?? 0) + parts.reduce(0) { $0 + $1.length } == body.bytes.count,
            "LineChecksum: the parts recorded cover the body once")
        var crc = parts[0].crc
        if let known { crc = CRC32C.combine(known.crc, crc, lengthOfB: parts[0].length) }
        for part in parts.dropFirst() {
            crc = CRC32C.combine(crc, part.crc, lengthOfB: part.length)
        }
        computed = crc
    }

    /// The body's checksum: the one recorded, or else computed now
    /// (`LineFrame.checksum(_:)`, across cores when the body is long).
    func value() -> UInt32 { computed ?? LineFrame.checksum(body.bytes) }
}
