import Foundation

/// Where a large transaction line goes while it is encoded: straight to the end of the store
/// file, part by part, so that the line is never whole in memory.
///
/// A save of many rows used to be encoded whole (each core's part of the rows in a buffer of
/// its own, then every part copied into the line's buffer) and written at once: at 100,000
/// expenses, ≈ 15 MB of parts and as much again of line at the moment of the copy, the
/// largest allocation of the save beyond its objects and rows (the file store's W1 peaked
/// ≈ 16 MB above the RAM store's). With a spill, the line's bytes so far are written when its
/// rows begin, and the rows are encoded in waves of parts of about ``partBytes`` (one part per
/// core), each written as soon as its wave is done and then freed. The line's checksum is
/// combined from the checksums of what was written (a part's is combined from its runs',
/// computed on the core that encoded it), so no row is read again for it (rows of a later
/// array too small to spill are, as in any line: see ``LineFrame/finish(_:bodyStart:runs:)``).
///
/// Whether an array of rows spills is decided from the encoder's estimate of its size (192
/// bytes a complete row, 64 a partial row or entry), array by array, and a part holds as many
/// rows as make ``partBytes`` at that estimate: rows much wider than the estimate make larger
/// parts, and a few very wide rows do not spill.
///
/// The bytes go past the file's committed length only: until the line's LF is written they
/// are a torn tail, which no reader applies (the file format's §7, "Torn tail"),
/// and when encoding or writing fails the store truncates them away, as it does after a
/// failed single write. A value that does not fit, found in a later part, is therefore found
/// after earlier parts were written (and a failed write of a part hides a bad value in a
/// later one; both are 134030). Only a store's own single-store appends spill; a staged
/// commit (a save across several stores) encodes each line whole before writing any.
final class LineSpill {
    /// Rows are spilled only when they take about this many bytes or more.
    static let minimumBytes = 1 << 20
    /// The size a part of the rows aims at.
    static let partBytes = 1 << 19

    /// Writes bytes at an offset from the line's start; `true` for the first write of rows,
    /// made in two halves with the `commit.midWrite` pause point between them when pause
    /// points are armed, so that a kill there lands inside the line's row data.
    private let writeBytes: (UnsafeRawBufferPointer, Int, Bool) throws -> Void
    /// The CRC-32C of the line's bytes written so far.
    private(set) var checksum: UInt32 = 0
    /// Whether a write was attempted: bytes may have reached the file (a write that fails
    /// may have written part of its bytes), which a failure must truncate away.
    private(set) var touchedFile = false
    /// Whether a part of rows has been written (see ``writeBytes``).
    private var wroteRows = false

    /// A spill that writes through `write` (the bytes, their offset from the line's start,
    /// and whether they are the line's first part of rows).
    init(write: @escaping (UnsafeRawBufferPointer, Int, Bool) throws -> Void) {
        self.writeBytes = write
    }

    /// Writes `w`'s buffered bytes (the line's bytes since the last spill) and empties its
    /// buffer.
    func flush(_ w: JSONByteWriter) throws {
        let offset = w.spilled
        try w.spillBuffered { bytes in
            guard !bytes.isEmpty else { return }
            try write(bytes, at: offset, crc: CRC32C.checksum(bytes), rows: false)
        }
    }

    /// Writes `bytes`, whose checksum is `crc`, as the line's next bytes after `w`'s (whose
    /// buffer must be empty: ``flush(_:)`` first), and counts them in `w`.
    func write(part bytes: UnsafeRawBufferPointer, crc: UInt32, after w: JSONByteWriter) throws {
        guard !bytes.isEmpty else { return }
        try write(bytes, at: w.spilled, crc: crc, rows: true)
        w.noteSpilled(bytes.count)
    }

    private func write(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, crc: UInt32, rows: Bool
    ) throws {
        let firstRows = rows && !wroteRows
        touchedFile = true
        wroteRows = wroteRows || rows
        try writeBytes(bytes, offset, firstRows)
        checksum = CRC32C.combine(checksum, crc, lengthOfB: bytes.count)
    }

    /// The checksum of a line's body that starts at `w`'s offset 0: the bytes written so far
    /// and those in `w`'s buffer.
    func bodyChecksum(_ w: JSONByteWriter) -> UInt32 {
        let rest = w.bytes
        return CRC32C.combine(checksum, CRC32C.checksum(rest), lengthOfB: rest.count)
    }
}
