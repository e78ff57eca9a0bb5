import Foundation

extension RowRun {
    /// What a salvage reads back from a damaged transaction line through its row runs.
    struct Recovered {
        var inserted: [StoreRow] = []
        var updated: [RowUpdate] = []
        /// Runs whose checksum held, of all the line lists.
        var intactRuns = 0
        var runs = 0
        /// The transaction number at the line's start, when it still reads as one.
        var number: Int64?
    }

    /// The rows of the runs of `line` (a damaged transaction line, without its LF) whose
    /// checksums hold; `nil` when the line lists no runs that can be read (a small line, or
    /// damage to its `sums` member).
    static func recover(from line: UnsafeRawBufferPointer, codec: RowCodec) -> Recovered? {
        // A raw `,"sums":[` is structure: inside a string its quotes would be escaped.
        guard let at = line.lastOccurrence(of: Array(",\"sums\":".utf8)) else { return nil }
        var s = JSONScanner(line)
        s.position = at.upperBound
        var listed: [RowRun] = []
        do {
            try s.forEachElement { s in
                try s.expect(0x5B)
                let member = try s.readString()
                try s.expect(0x2C)
                let offset = try s.readInt64()
                try s.expect(0x2C)
                let length = try s.readInt64()
                try s.expect(0x2C)
                let hex = try s.readString()
                try s.expect(0x5D)
                guard member == "ins" || member == "upd", offset >= 0, length > 0,
                    offset + length <= Int64(line.count), let crc = UInt32(hex, radix: 16),
                    hex.count == 8
                else { throw s.error("not a row run") }
                listed.append(
                    RowRun(member: member, start: Int(offset), length: Int(length), crc: crc))
            }
        } catch {
            return nil
        }
        guard !listed.isEmpty else { return nil }
        var recovered = Recovered(runs: listed.count)
        for run in listed {
            let bytes = UnsafeRawBufferPointer(
                rebasing: line[run.start..<(run.start + run.length)])
            guard CRC32C.checksum(bytes) == run.crc else { continue }
            if run.member == "ins" {
                guard let rows = try? rows(in: bytes, codec: codec, { try $0.read(&$1) })
                else { continue }
                recovered.inserted += rows
            } else {
                guard let rows = try? rows(in: bytes, codec: codec, { try $0.readUpdate(&$1) })
                else { continue }
                recovered.updated += rows
            }
            recovered.intactRuns += 1
        }
        var head = JSONScanner(line)
        if (try? head.expect(0x7B)) != nil, (try? head.readString()) == "t", head.consume(0x3A),
            let number = try? head.readInt64()
        {
            recovered.number = number
        }
        return recovered
    }

    /// The rows of one run: `ROW,ROW,…` (complete rows, or `upd` entries).
    private static func rows<Element>(
        in bytes: UnsafeRawBufferPointer, codec: RowCodec,
        _ readOne: (RowCodec, inout JSONScanner) throws -> Element
    ) throws -> [Element] {
        var s = JSONScanner(bytes)
        var rows: [Element] = []
        repeat { rows.append(try readOne(codec, &s)) } while s.consume(0x2C)
        guard s.isAtEnd else { throw s.error("text after the rows") }
        return rows
    }
}

extension UnsafeRawBufferPointer {
    /// The last occurrence of `pattern`.
    fileprivate func lastOccurrence(of pattern: [UInt8]) -> Range<Int>? {
        guard count >= pattern.count, !pattern.isEmpty else { return nil }
        var i = count - pattern.count
        while i >= 0 {
            if self[i] == pattern[0], self[i..<(i + pattern.count)].elementsEqual(pattern) {
                return i..<(i + pattern.count)
            }
            i -= 1
        }
        return nil
    }
}
