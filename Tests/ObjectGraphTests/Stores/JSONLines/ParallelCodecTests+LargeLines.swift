import Foundation
import Testing

@testable import ObjectGraph

/// A large transaction line is checked and read in one fork–join: the workers that read its
/// rows also compute its checksum (`LineChecksum`), and the checksum is compared before the
/// rows or the parse's error are used. Every line must give exactly what the checksum first,
/// then the parse, gives: its record, its framing or checksum problem, or its first error,
/// with the same line, column and message (thresholds lowered here so that small lines take
/// the new path; the suite's codec names the file `/tmp/parallel.jsonl`).
extension ParallelCodecTests {
    private var lineSample: [StoreRow] { rows.splitReadSample }

    /// Transaction 5 inserting `lineSample` (and, with `updating`, updating it too; without
    /// `inserting`, only updating it; with `deleting`, only deleting it), without its LF.
    private func line(inserting: Bool = true, updating: Bool = false, deleting: Bool = false)
        throws -> [UInt8]
    {
        let w = JSONByteWriter()
        _ = try TransactionLine.write(
            StoreChangeSet(
                inserted: inserting && !deleting ? lineSample : [],
                updated: updating && !deleting ? lineSample : [],
                deleted: deleting ? lineSample.map { ($0.objectID, $0.version) } : [],
                timestamp: Date(timeIntervalSince1970: 9)),
            number: 5, keys: [("Tag", 301)], codec: codec, patchWrites: PatchWrites(), to: w)
        return Array(w.array.dropLast())
    }

    /// `line` with its checksum made right again for its (changed) body.
    private func reframed(_ line: [UInt8]) -> [UInt8] {
        let w = JSONByteWriter()
        w.append(Array(line[..<(line.count - LineFrame.suffixLength)]))
        LineFrame.finish(w, bodyStart: 0)
        return Array(w.array.dropLast())
    }

    /// What the line parser gives for `line` as line 7: through the checksum first and the
    /// parse after (`parallelAbove` above the line's size), or through one fork–join for both
    /// (`parallelAbove` 1, which also reads every array across cores), in 2, 16 and 32 parts
    /// (whatever the machine's cores), which must all give the same.
    private func parsed(_ line: [UInt8], together: Bool) -> String {
        guard together else { return parsed(line, parts: nil) }
        let each = [2, 16, 32].map { parsed(line, parts: $0) }
        return Set(each).count == 1 ? each[0] : "parts differ: \(each)"
    }

    /// What the line parser gives for `line` as line 7: with `parts`, through one fork–join
    /// reading arrays in that many parts; without, through the checksum first.
    private func parsed(_ line: [UInt8], parts: Int?) -> String {
        line.withUnsafeBytes { raw in
            var parser = LineParser(codec: codec, firstNumber: 7, snapshotRows: 0)
            parser.parallelAbove = parts == nil ? .max : 1
            parser.rowParts = parts
            let lines = parser.parse(SharedBytes(bytes: raw), [0..<raw.count])
            guard lines.count == 1 else { return "\(lines.count) lines" }
            switch lines[0] {
            case .transaction(let record):
                return "transaction \(record.number): inserts \(record.inserted), updates "
                    + "\(record.updated.count) rows \(record.updated.map(\.objectID)), deletes "
                    + "\(record.deleted)"
            case .damaged(let e):
                return
                    "damaged \(e.reason) line \(e.line ?? 0) column \(e.column ?? 0): \(e.message)"
            default: return "another kind of line"
            }
        }
    }

    /// Where the `occurrence`th row `["Tag",pk,1,…` starts in `line`, and its version's offset.
    private func tag(_ pk: Int, in line: [UInt8], occurrence: Int = 0) throws
        -> (start: Int, version: Int)
    {
        let head = Array("[\"Tag\",\(pk),1,".utf8)
        var from = 0
        var found = 0..<0
        for _ in 0...occurrence {
            found = try #require(line[from...].firstRange(of: head))
            from = found.upperBound
        }
        return (found.lowerBound, found.upperBound - 2)
    }

    /// The offset of the version of the `occurrence`th row `["Tag",pk,1,…` in `line`.
    private func versionOffset(ofTag pk: Int, in line: [UInt8], occurrence: Int = 0) throws -> Int {
        try tag(pk, in: line, occurrence: occurrence).version
    }

    @Test func aSoundLineGivesTheRecordTheCheckedParseGives() throws {
        for updating in [false, true] {
            let sound = try line(updating: updating)
            let first = parsed(sound, together: false)
            #expect(first.hasPrefix("transaction 5: inserts"))
            #expect(parsed(sound, together: true) == first, "updating: \(updating)")
        }
    }

    /// A byte changed in the first, a middle or the last part of the body (a label's letter,
    /// which keeps the JSON valid, or a row's opening bracket, which does not) is the line's
    /// checksum mismatch, with the checksum its content gives.
    @Test func aDamagedByteInAnyPartIsTheChecksumMismatch() throws {
        try forEachRowInEachPart { sound, pk, row in
            let label = try #require(sound[row.start...].firstRange(of: Array("tag \(pk) ".utf8)))
            for (at, byte) in [(label.lowerBound, UInt8(ascii: "u")), (row.start, 0x5A)] {
                var bad = sound
                bad[at] = byte
                let first = parsed(bad, together: false)
                #expect(first.contains("line 7 column 0: ") && first.contains("checksum mismatch"))
                #expect(parsed(bad, together: true) == first, "row \(pk), byte \(at)")
            }
        }
    }

    /// A bad value in a line whose checksum is right (a version 0 in a row of the first, a
    /// middle or the last part, in `ins` or in `upd`) is the same error, line and column.
    @Test func aBadValueInAnyPartIsTheSameErrorAndColumn() throws {
        try forEachRowInEachPart { sound, pk, row in
            var bad = sound
            bad[row.version] = UInt8(ascii: "0")
            bad = reframed(bad)
            let first = parsed(bad, together: false)
            #expect(
                first.contains("line 7 column \(row.version + 1): ")
                    && first.contains("version 0 is below 1"))
            #expect(parsed(bad, together: true) == first, "row \(pk) at \(row.version)")
        }
    }

    /// Calls `body` with a sound line (inserting, or inserting and updating) and a row of its
    /// first, a middle and its last part, in `ins` and in `upd`.
    private func forEachRowInEachPart(
        _ body: ([UInt8], Int, (start: Int, version: Int)) throws -> Void
    ) throws {
        for updating in [false, true] {
            let sound = try line(updating: updating)
            for pk in [2, 151, 299] {
                for occurrence in updating ? [0, 1] : [0] {
                    try body(sound, pk, try tag(pk, in: sound, occurrence: occurrence))
                }
            }
        }
    }

    /// A bad value and a damaged byte in the same line: the checksum mismatch wins, wherever
    /// each is; a line cut short is its framing problem.
    @Test func theChecksumMismatchWinsOverABadValueAndATornLineIsItsFraming() throws {
        let sound = try line(updating: true)
        for (valuePK, damagePK) in [(2, 299), (299, 2), (151, 151)] {
            var bad = sound
            bad[try versionOffset(ofTag: valuePK, in: sound)] = UInt8(ascii: "0")
            bad = reframed(bad)
            bad[try tag(damagePK, in: sound, occurrence: 1).start] ^= 1
            let first = parsed(bad, together: false)
            #expect(first.contains("checksum mismatch"))
            #expect(parsed(bad, together: true) == first, "value \(valuePK), damage \(damagePK)")
        }
        for cut in [1, 10, sound.count / 2] {
            let torn = Array(sound.dropLast(cut))
            let first = parsed(torn, together: false)
            #expect(first.contains("checksum member") || first.contains("hex digits"))
            #expect(parsed(torn, together: true) == first, "cut \(cut)")
        }
    }

    /// The split read computes the checksum it claims in as many parts as it reads (2 to 32
    /// here), the same as one pass over the body, whether its rows are used or it falls back.
    @Test func theSplitReadsChecksumIsOnePassesInAnyNumberOfParts() throws {
        let sound = try line()
        let start = try #require(sound.firstRange(of: Array("\"ins\":".utf8))).upperBound
        var bad = sound
        bad[try versionOffset(ofTag: 151, in: sound)] = UInt8(ascii: "0")
        for bytes in [sound, bad] {
            bytes.withUnsafeBytes { raw in
                let body = UnsafeRawBufferPointer(
                    rebasing: raw[..<(raw.count - LineFrame.suffixLength)])
                for parts in [2, 3, 5, 8, 16, 32] {
                    let checksum = LineChecksum(body: body, rowsParallelAbove: 1)
                    var s = JSONScanner(raw)
                    s.position = start
                    let read = codec.readAcrossCores(&s, parts: parts, checksum: checksum) {
                        codec, s in try codec.read(&s)
                    }
                    #expect((read == lineSample) == (bytes == sound), "\(parts) parts")
                    #expect(checksum.claim() == nil, "\(parts) parts: claimed")
                    #expect(checksum.value() == CRC32C.checksum(body), "\(parts) parts")
                }
            }
        }
    }

    /// A line whose only large array is `upd` (W4's save: the update read claims the
    /// checksum) and one where no array is split (a `del`-only line: the checksum is computed
    /// after the parse): sound, with a damaged byte, and with a bad value and the checksum
    /// made right, each gives what the checksum first, then the parse, gives.
    @Test func anUpdateOnlyLineAndALineWithNoSplitArrayGiveWhatTheCheckedParseGives() throws {
        let updates = try line(inserting: false, updating: true)
        let deletes = try line(deleting: true)
        #expect(updates.firstRange(of: Array("\"ins\"".utf8)) == nil)
        #expect(deletes.firstRange(of: Array("\"upd\"".utf8)) == nil)
        let deleted = try #require(deletes.firstRange(of: Array("[\"Tag\",151]".utf8)))
        let cases: [(String, [UInt8], damaged: Int, value: Int, error: String)] = [
            (
                "upd", updates, try tag(151, in: updates).start + 2,
                try versionOffset(ofTag: 151, in: updates), "version 0 is below 1"
            ),
            ("del", deletes, deleted.lowerBound + 2, deleted.lowerBound + 3, "Tbg"),
        ]
        for (name, sound, damaged, value, error) in cases {
            let first = parsed(sound, together: false)
            #expect(first.hasPrefix("transaction 5: inserts"), "\(name)")
            #expect(parsed(sound, together: true) == first, "\(name): sound")
            var bad = sound
            bad[damaged] ^= 0x20  // a letter's case: the JSON stays valid
            let mismatch = parsed(bad, together: false)
            #expect(mismatch.contains("checksum mismatch"), "\(name)")
            #expect(parsed(bad, together: true) == mismatch, "\(name): damaged byte")
            var wrong = sound
            wrong[value] = UInt8(ascii: name == "upd" ? "0" : "b")
            wrong = reframed(wrong)
            let failed = parsed(wrong, together: false)
            #expect(
                failed.contains("line 7 column ") && failed.contains(error), "\(name): \(failed)")
            #expect(parsed(wrong, together: true) == failed, "\(name): bad value")
        }
    }
}
