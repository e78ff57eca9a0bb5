import Foundation

/// A run of whole rows inside a large transaction line, with a checksum of its own
/// (<doc:StoreFileFormat#31-Row-runs>): when a byte of the line is damaged, a salvage still
/// reads the runs whose checksums hold, so the damage costs one run (about ``targetBytes`` of
/// rows), not the whole save.
struct RowRun: Sendable, Equatable {
    /// The array the rows belong to: `"ins"` or `"upd"`.
    var member: String
    /// Where the run starts: an offset in the writer while writing, in the line when read.
    var start: Int
    /// Its length in bytes: rows separated by commas, no brackets around them.
    var length: Int
    /// CRC-32C of those bytes (0 until computed).
    var crc: UInt32

    /// Runs end at the first row boundary at or past this many bytes; lines whose rows take
    /// fewer carry no runs.
    static let targetBytes = 16_384

    /// Appends the `sums` member listing `runs`, whose starts are offsets in `w` of a line
    /// that starts at `lineStart`: `,"sums":[["ins",OFFSET,LENGTH,"hhhhhhhh"],…]`.
    static func writeMember(_ runs: [RowRun], lineStart: Int, to w: JSONByteWriter) {
        w.append(ascii: ",\"sums\":[")
        for (i, run) in runs.enumerated() {
            if i > 0 { w.append(0x2C) }
            w.append(0x5B)
            w.append(quoted: run.member)
            w.append(0x2C)
            w.append(integer: Int64(run.start - lineStart))
            w.append(0x2C)
            w.append(integer: Int64(run.length))
            w.append(ascii: ",\"")
            w.append(hex32: run.crc)
            w.append(ascii: "\"]")
        }
        w.append(0x5D)
    }

    /// The checksum of `w`'s bytes from `start` on, combined from `runs` (inside that span, in
    /// order, their checksums known) and the bytes between them: each byte is read once.
    static func checksum(of w: JSONByteWriter, from start: Int, runs: [RowRun]) -> UInt32 {
        let bytes = w.bytes
        var crc: UInt32 = 0
        var position = start
        func add(upTo end: Int) {
            guard end > position else { return }
            let part = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[position..<end]))
            crc = CRC32C.combine(crc, part, lengthOfB: end - position)
            position = end
        }
        for run in runs {
            add(upTo: run.start)
            crc = CRC32C.combine(crc, run.crc, lengthOfB: run.length)
            position = run.start + run.length
        }
        add(upTo: w.count)
        return crc
    }
}
