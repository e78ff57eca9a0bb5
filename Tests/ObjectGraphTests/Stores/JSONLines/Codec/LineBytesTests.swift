import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The bytes of a transaction line's rows do not change when the writer gets faster (issue
/// 25, twenty-third session, branch `w1x`: strings copied a word at a time, the checksum
/// sixteen bytes a step): mixed rows written on one thread, across cores and spilled part
/// by part give the bytes main's code gave at `db086ec` (their length and CRC-32C, recorded
/// below), and every string is spelled as `JSONEscaping.quoted(_:)` spells it.
@Suite struct LineBytesTests {
    /// The length and CRC-32C of the rows of ``mixedRows(_:)`` as main's writer wrote them
    /// (`db086ec`, one thread). A pin of the bytes, not a description of them: a change to
    /// `FileStoreFixtures.model()`, to ``mixedRows(_:)`` or to how Foundation spells a
    /// `Decimal` or a `Float` breaks it with only the length or the checksum to go on. Record
    /// new values from `db086ec`'s writer (or a writer shown to write its bytes), never from
    /// the code under test.
    private static let mainLength = 780_973
    private static let mainChecksum: UInt32 = 0xC699_87DC

    /// Strings of every length from 0 to 40 bytes made of plain ASCII, non-ASCII, every kind
    /// of escape and U+2028/U+2029, wherever they fall in a word.
    ///
    /// `wider` adds characters whose UTF-8 starts with U+2028's lead bytes `E2 80` but are not
    /// escaped (U+2026 "…", U+201C, U+2027), and `€` (`E2 82 AC`) starts with `E2` alone; `â`
    /// (U+00E2) is `C3 A2`. The rows of ``mixedRows(_:)`` use the narrower set their pinned
    /// bytes were recorded with.
    private static func seededString(
        _ random: inout SeededRandomNumberGenerator, wider: Bool = false
    ) -> String {
        let pieces =
            [
                "a", "b", "Z", "0", " ", "~", "é", "日", "€", "😀", "\"", "\\", "/", "\n", "\t",
                "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{E2}",
            ] + (wider ? ["\u{2026}", "\u{201C}", "\u{2027}"] : [])
        let plain = random.next() % 3 != 0
        return (0..<Int(random.next() % 41)).map { _ in
            plain
                ? pieces[Int(random.next() % 6)]
                : pieces[Int(random.next() % UInt64(pieces.count))]
        }.joined()
    }

    /// 6,000 rows of every kind the fixture model has, with seeded values: strings of
    /// ``seededString(_:)``, doubles of any bit pattern and their edges, dates, UUIDs, every
    /// integer width at its limits, nulls, binary data, URIs, to-ones, references to a
    /// subentity and ordered to-manys.
    private static func mixedRows(_ rows: FileStoreFixtures.Rows) -> [StoreRow] {
        var random = SeededRandomNumberGenerator(seed: 2323)
        let edgeDoubles: [Double] = [
            0, -0.0, 223.21, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .nan,
            .infinity, -.infinity, 675_242_087.580_247_4, 4_503_599_627_370_495.5, 1e21, 1e-7,
        ]
        return (1...6000).map { i -> StoreRow in
            let pk = Int64(i)
            switch i % 5 {
            case 0:
                return rows.row(
                    "Category", pk,
                    [
                        "id": .attribute(i % 10 == 0 ? .null : .uuid(seededUUID(&random))),
                        "name": .attribute(.string(Self.seededString(&random))),
                    ])
            case 1, 2:
                let double =
                    random.next() % 4 == 0
                    ? edgeDoubles[Int(random.next() % UInt64(edgeDoubles.count))]
                    : Double(bitPattern: random.next())
                let integers: [Int64] = [.min, .max, 0, -1, Int64(bitPattern: random.next())]
                return rows.row(
                    "Expense", pk, version: Int64(random.next() % 1000),
                    [
                        "title": .attribute(
                            i % 7 == 0 ? .null : .string(Self.seededString(&random))),
                        "amount": .attribute(.decimal(Decimal(i) / 100)),
                        "date": .attribute(
                            .date(Date(timeIntervalSinceReferenceDate: Double(i) * 7_777.125))),
                        "ratio": .attribute(.double(double)),
                        "weight": .attribute(.float(Float(i) / 3)),
                        "count16": .attribute(.integer(Int64(i % 30_000) - 15_000)),
                        "count32": .attribute(.integer(Int64(Int32.min) + Int64(i))),
                        "count64": .attribute(.integer(integers[i % integers.count])),
                        "cleared": .attribute(i % 3 == 0 ? .null : .boolean(i % 2 == 0)),
                        "blob": .attribute(.data(Data((0..<(i % 9)).map { UInt8($0 * 29) }))),
                        "link": .attribute(
                            .uri(URL(string: "https://example.com/e/\(i)?q=\"x\"")!)),
                        "payload": .attribute(.transformable(Data("{\"n\":\(i)}".utf8))),
                        "category": .toOne(
                            i % 11 == 0 ? nil : rows.id("Category", Int64(i % 50 * 5))),
                        "receipt": .toOne(i % 2 == 0 ? rows.id("Receipt", pk) : nil),
                        "tags": .toMany(
                            (0..<(i % 4)).map { rows.id("Tag", Int64((i + $0 * 5) / 5 * 5 + 3)) }),
                    ])
            case 3:
                return rows.row(
                    "Tag", pk, ["label": .attribute(.string(Self.seededString(&random)))])
            default:
                return rows.row(
                    "Receipt", pk,
                    [
                        "path": .attribute(.string("/receipts/\(i) \(Self.seededString(&random))")),
                        "total": .attribute(.decimal(Decimal(string: "\(i).0\(i % 10)")!)),
                    ])
            }
        }
    }

    /// A UUID of one seeded word's eight bytes, then the same bytes reversed.
    private static func seededUUID(_ random: inout SeededRandomNumberGenerator) -> UUID {
        let word = Array(withUnsafeBytes(of: random.next()) { Array($0) })
        let b = word + word.reversed()
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                b[13], b[14], b[15]
            ))
    }

    @Test func mixedRowsAreWrittenWithMainsBytesSeriallyAcrossCoresAndSpilled() throws {
        let model = try FileStoreFixtures.model()
        let codec = RowCodec(model: model, storeIdentifier: "S", path: "/tmp/line-bytes.jsonl")
        let sample = Self.mixedRows(FileStoreFixtures.Rows(model: model, store: "S"))
        let one = JSONByteWriter()
        let size = try codec.write(sample, to: one, parallelAbove: .max)
        #expect(one.count == Self.mainLength)
        #expect(CRC32C.checksum(one.bytes) == Self.mainChecksum)

        // Across cores only where the machine has more than one (`ParallelChunks` makes one
        // chunk a core): say so, rather than pass on the serial path unnoticed.
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            #expect(ParallelChunks.chunkCount(for: sample.count, minimum: 1) > 1)
        } else {
            print("LineBytesTests: one core, so the parallel write ran as one chunk")
        }
        let many = JSONByteWriter()
        let manySize = try codec.write(sample, to: many, parallelAbove: 1)
        #expect(many.array == one.array && manySize == size)

        // A spilled line (the path of a large save): the bytes go to the "file" part by part.
        let file = FileBytes()
        let spilled = JSONByteWriter()
        spilled.append(ascii: "{\"inserted\":[")
        let spill = LineSpill { bytes, offset, _ in file.write(bytes, at: offset) }
        spilled.spill = spill
        var runs: [RowRun] = []
        let spilledSize = try codec.write(sample, to: spilled, runs: &runs, member: "inserted")
        #expect(spilled.spilled > 0, "the rows were spilled")
        let whole = file.bytes + spilled.array
        #expect(whole == Array("{\"inserted\":[".utf8) + one.array && spilledSize == size)
        #expect(spill.bodyChecksum(spilled) == CRC32C.checksum(whole))
        for run in runs {
            let bytes = Array(whole[run.start..<(run.start + run.length)])
            #expect(run.crc == CRC32C.checksum(bytes))
        }
    }

    @Test func everyStringIsSpelledAsTheReferenceEscaperSpellsIt() {
        var random = SeededRandomNumberGenerator(seed: 2324)
        for round in 0..<30_000 {
            let text = Self.seededString(&random, wider: true)
            // A small writer that must grow, bytes before the string at every offset in a
            // word, and leftovers past the count that a faster path may write over.
            let w = JSONByteWriter(capacity: round % 2 == 0 ? 16 : 4096)
            w.append(raw: String(repeating: "x", count: round % 9))
            w.append(quoted: text + "\"")
            w.truncate(to: round % 9)
            w.append(quoted: text)
            w.append(0x2C)
            #expect(
                w.string == String(repeating: "x", count: round % 9) + JSONEscaping.quoted(text)
                    + ",", "\(Array(text.unicodeScalars))")
        }
        // A plain run of every length up to 40 with one byte to escape at every position.
        for length in 0...40 {
            let plain = String(repeating: "k", count: length)
            let w = JSONByteWriter(capacity: 8)
            w.append(quoted: plain)
            #expect(w.string == "\"\(plain)\"")
            for at in 0..<length {
                for special in [
                    "\"", "\\", "\n", "\u{2028}", "\u{2029}", "\u{2026}", "\u{201C}", "€", "é",
                ] {
                    var scalars = Array(plain)
                    scalars[at] = Character(special)
                    let text = String(scalars)
                    let w = JSONByteWriter(capacity: 8)
                    w.append(quoted: text)
                    #expect(w.string == JSONEscaping.quoted(text), "\(length) \(at) \(special)")
                }
            }
        }
    }

    @Test func aPlainStringThatMakesTheWriterGrowIsCopiedAfterTheGrowth() {
        // The word-at-a-time copy reads the buffer's base after reserving room: a string that
        // does not fit grows the buffer within the same append (the writer starts at 64).
        for length in [8, 9, 15, 16, 17, 40] {
            for lead in [60, 62 - length, 63 - length] where lead >= 0 {
                let text = String(
                    (0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
                let w = JSONByteWriter(capacity: 64)
                w.append(raw: String(repeating: "x", count: lead))
                w.append(quoted: text)
                #expect(
                    w.string == String(repeating: "x", count: lead) + "\"\(text)\"",
                    "length \(length), lead \(lead)")
            }
        }
    }

    /// The bytes a spill wrote, by offset (a stand-in for the store file's tail).
    private final class FileBytes: @unchecked Sendable {
        // Written only by the thread that writes the spill's parts, in order.
        var bytes: [UInt8] = []

        func write(_ source: UnsafeRawBufferPointer, at offset: Int) {
            if bytes.count < offset + source.count {
                bytes += [UInt8](repeating: 0, count: offset + source.count - bytes.count)
            }
            bytes.replaceSubrange(offset..<(offset + source.count), with: source)
        }
    }
}
