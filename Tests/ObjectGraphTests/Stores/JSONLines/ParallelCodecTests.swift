import Foundation
import Testing

@testable import ObjectGraph

/// Large saves, reopens and compactions are encoded and parsed across cores (above
/// thresholds lowered here); the bytes and rows must be exactly what one thread gives.
@Suite struct ParallelCodecTests {
    let model: ManagedObjectModel
    let rows: FileStoreFixtures.Rows
    let codec: RowCodec

    init() throws {
        model = try FileStoreFixtures.model()
        rows = FileStoreFixtures.Rows(model: model, store: "S")
        codec = RowCodec(model: model, storeIdentifier: "S", path: "/tmp/parallel.jsonl")
    }

    private var sample: [StoreRow] { rows.splitReadSample }

    /// A new file store in the file `file` holding a category and the rows of `sample`, all
    /// at version 1; the caller closes it.
    private func storeHoldingSample(_ file: String) throws -> JSONLinesStore {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent(file)
        let store = try JSONLinesStore(
            model: model, url: url, options: FileStoreFixtures.options(identifier: "S"))
        let category = rows.row("Category", 1, ["name": .attribute(.string("c"))])
        try store.commit(
            StoreChangeSet(
                inserted: [category] + sample, timestamp: Date(timeIntervalSince1970: 1)))
        return store
    }

    @Test func encodingAcrossCoresGivesTheSameBytesAndSizes() throws {
        let one = JSONByteWriter()
        let many = JSONByteWriter()
        let size1 = try codec.write(sample, to: one, parallelAbove: .max)
        let size2 = try codec.write(sample, to: many, parallelAbove: 1)
        #expect(one.array == many.array && size1 == size2)
        let lines1 = JSONByteWriter()
        let lines2 = JSONByteWriter()
        try codec.writeSnapshotLines(sample, to: lines1, parallelAbove: .max)
        try codec.writeSnapshotLines(sample, to: lines2, parallelAbove: 1)
        #expect(lines1.array == lines2.array)
        var bad = sample
        bad[250].values[0] = .attribute(.integer(1))
        let w = JSONByteWriter()
        w.append(ascii: "prefix")
        #expect(throws: ObjectGraphError.self) { try codec.write(bad, to: w, parallelAbove: 1) }
        #expect(w.string == "prefix", "a failed encoding leaves the writer as it was")
    }

    /// The lead's review of `bw`: a batch update's line written from its plan across cores
    /// (partial rows of one changed slot, then complete rows of eight) is the line one thread
    /// writes, with the same runs and the same complete rows' sizes.
    @Test func aBatchPlansLineAcrossCoresIsTheLineOneThreadWrites() throws {
        let store = try storeHoldingSample("plan.jsonl")
        defer { store.close() }
        let entity = try #require(model[entityName: "Expense"])
        let updates: [[(String, AttributeValue)]] = [
            [("title", .string("new \"title\" é"))],
            [
                ("amount", .decimal(7)), ("count16", .integer(1)), ("count32", .integer(2)),
                ("count64", .integer(3)), ("date", .date(Date(timeIntervalSince1970: 5))),
                ("ratio", .double(0.1 * 3)), ("title", .string("t")), ("weight", .float(0.5)),
            ],
        ]
        for values in updates {
            let update = RowBatchUpdate(
                entity: entity, predicate: nil, includesSubentities: true,
                updates: values.map { (entity.attributesByName[$0.0]!, .constant($0.1)) },
                author: nil, contextName: nil, timestamp: Date(timeIntervalSince1970: 2))
            try store.locked {
                let plan = try store.table.plan(update, findingChanges: true)
                #expect(plan.refs.count == 100)
                let one = JSONByteWriter()
                let many = JSONByteWriter()
                var runsOne: [RowRun] = []
                var runsMany: [RowRun] = []
                let size1 = try store.codec.write(
                    plan, of: store.table, to: one, runs: &runsOne, member: nil,
                    parallelAbove: .max)
                let size2 = try store.codec.write(
                    plan, of: store.table, to: many, runs: &runsMany, member: nil,
                    parallelAbove: 1)
                #expect(one.array == many.array)
                #expect(size1 == size2)
                #expect(runsOne == runsMany)
                #expect(values.count == 1 ? size1 == 0 : size1 > 0)
            }
        }
    }

    /// The review of `w7save`: a save's patches written across cores from their runs of
    /// writes (`PatchWrites`: partial rows of one slot, then of another, complete rows, partial
    /// rows after complete ones, alternating slots) give the line one thread writes, with the
    /// same runs and the same complete rows' sizes.
    @Test func patchesWrittenAcrossCoresAreTheLineOneThreadWrites() throws {
        let store = try storeHoldingSample("patch.jsonl")
        defer { store.close() }
        let entity = try #require(model[entityName: "Expense"])
        let slot = { (name: String) in entity.attributesByName[name]!.index }
        let title = { (j: Int) in (slot("title"), StoreValue.attribute(.string("new \"\(j)\" é"))) }
        let amount = { (j: Int) in
            (slot("amount"), StoreValue.attribute(.decimal(Decimal(7_000 + j))))
        }
        let all = { (j: Int) in
            [
                title(j), amount(j), (slot("count16"), .attribute(.integer(Int64(-1 - j)))),
                (slot("count32"), .attribute(.integer(-2))),
                (slot("count64"), .attribute(.integer(-3))),
                (slot("date"), .attribute(.date(Date(timeIntervalSince1970: 5)))),
                (slot("ratio"), .attribute(.double(0.1 * 3))),
                (slot("weight"), .attribute(.float(0.5))),
            ]
        }
        let expenses = sample.filter { $0.objectID.entity === entity }
        #expect(expenses.count == 100)
        let patches = expenses.enumerated().map { j, row in
            let changes: [(Int, StoreValue)] =
                switch j {
                case ..<30: [title(j)]
                case ..<50: [amount(j)]
                case ..<60: all(j)
                case ..<80: [title(j)]
                default: j % 2 == 0 ? [title(j)] : [amount(j)]
                }
            let sorted = changes.sorted { $0.0 < $1.0 }
            return StoreRowPatch(
                objectID: row.objectID, version: row.version + 1, slots: sorted.map(\.0),
                values: sorted.map(\.1))
        }
        try store.locked {
            let writes = store.patchWrites(patches)
            #expect(writes.count == patches.count)
            #expect(writes.filter { $0.complete != nil }.count == 10)
            let one = JSONByteWriter()
            let many = JSONByteWriter()
            var runsOne: [RowRun] = []
            var runsMany: [RowRun] = []
            let size1 = try store.codec.write(
                patches, writes: writes, to: one, runs: &runsOne, member: "upd",
                parallelAbove: .max)
            let size2 = try store.codec.write(
                patches, writes: writes, to: many, runs: &runsMany, member: "upd",
                parallelAbove: 1)
            #expect(one.array == many.array)
            #expect(size1 == size2 && size1 > 0)
            #expect(runsOne == runsMany)
        }
    }

    /// `sample` written as a JSON array by one thread, followed by `,"next"`.
    private func sampleArray() throws -> [UInt8] {
        let w = JSONByteWriter()
        w.append(0x5B)
        _ = try codec.write(sample, to: w, parallelAbove: .max)
        w.append(ascii: "],\"next\"")
        return w.array
    }

    @Test func readingAcrossCoresGivesTheSameRows() throws {
        let bytes = try sampleArray()
        try bytes.withUnsafeBytes { raw in
            var split = JSONScanner(raw)
            let acrossCores = codec.readAcrossCores(&split, { codec, s in try codec.read(&s) })
            if ProcessInfo.processInfo.activeProcessorCount > 1 {
                #expect(acrossCores == sample, "the split read succeeds on ordinary rows")
            }
            var s = JSONScanner(raw)
            let parsed = try codec.readRows(&s, parallelAbove: 1)
            #expect(parsed == sample)
            let atComma = s.consume(0x2C)
            #expect(atComma, "the scanner ends just after the array")
        }
    }

    /// The parts read at once are joined by moving their rows (not copying them): read in 2,
    /// 3, 5, 8, 16 and 32 parts (more parts than cores, as by default), the rows are the ones
    /// one thread reads, in order, and the scanner ends just after the array; a bad value in
    /// the first, a middle or the last part makes the split read give up, and `readRows` then
    /// reports the error one thread reports.
    @Test func readingInAnyNumberOfPartsGivesTheRowsOrTheErrorOfOneThread() throws {
        let good = try sampleArray()
        for workers in [2, 3, 5, 8, 16, 32] {
            try good.withUnsafeBytes { raw in
                var s = JSONScanner(raw)
                let rows = codec.readAcrossCores(&s, parts: workers) { codec, s in
                    try codec.read(&s)
                }
                #expect(rows == sample, "\(workers) parts")
                let atComma = s.consume(0x2C)
                #expect(atComma, "\(workers) parts: the scanner ends after the array")
                var again = JSONScanner(raw)
                let reread = try codec.readRows(&again, parallelAbove: 1)
                #expect(reread == sample)
            }
        }
        // A version 0 in row 2 (the first part), 151 (a middle one) and 299 (the last).
        for pk in [2, 151, 299] {
            let head = Array("[\"Tag\",\(pk),1,".utf8)
            let at = try #require(good.firstRange(of: head)).upperBound - 2
            var bad = good
            bad[at] = UInt8(ascii: "0")
            try bad.withUnsafeBytes { raw in
                for workers in [2, 3, 5, 8, 16, 32] {  // every split read gives up
                    var s = JSONScanner(raw)
                    let rows = codec.readAcrossCores(&s, parts: workers) { codec, s in
                        try codec.read(&s)
                    }
                    #expect(rows == nil, "row \(pk), \(workers) parts")
                }
                func error(parallelAbove: Int) -> JSONScanError? {
                    var s = JSONScanner(raw)
                    do {
                        _ = try codec.readRows(&s, parallelAbove: parallelAbove)
                        return nil
                    } catch {
                        return error as? JSONScanError
                    }
                }
                let alone = try #require(error(parallelAbove: .max))
                let split = try #require(error(parallelAbove: 1))
                #expect(alone.offset == at && alone.message.contains("version 0 is below 1"))
                #expect(split.offset == alone.offset && split.message == alone.message)
            }
        }
    }

    /// The split read keeps its parts' rows in memory it manages itself (`RowStorage`, freed
    /// by `PartRows`): every element it makes is freed once, whether moved into the result or
    /// left in a part that is not used. Counted through elements that count themselves: a
    /// sound array in 2, 16 and 32 parts holds exactly its rows until the result goes; a bad
    /// value in the middle (the read gives up) leaves none; an array followed by another, so
    /// that parts start after the first one's end, leaves only the rows returned.
    @Test func theSplitReadFreesEveryRowItDoesNotReturn() throws {
        let one = try sampleArray().dropLast(",\"next\"".utf8.count)
        let head = Array("[\"Tag\",151,1,".utf8)
        var bad = Array(one)
        bad[try #require(bad.firstRange(of: head)).upperBound - 2] = UInt8(ascii: "0")
        let cases: [(String, [UInt8], Int?)] = [
            ("sound", Array(one), sample.count),
            ("bad value in the middle", bad, nil),
            ("followed by another array", Array(one) + [0x2C] + Array(one), sample.count),
        ]
        for (name, bytes, expected) in cases {
            for parts in [2, 16, 32] {
                let live = LiveCount()
                bytes.withUnsafeBytes { raw in
                    var s = JSONScanner(raw)
                    var read = codec.readAcrossCores(&s, parts: parts) { codec, s in
                        CountedRow(try codec.read(&s), live: live)
                    }
                    #expect(read?.count == expected, "\(name), \(parts) parts")
                    #expect(live.value == expected ?? 0, "\(name), \(parts) parts: held")
                    #expect(read?.map(\.row) == expected.map { _ in sample })
                    read = nil
                    #expect(live.value == 0, "\(name), \(parts) parts: after the result goes")
                }
            }
        }
    }

    @Test func rowBoundaryLookalikesInsideRowsAreDetected() throws {
        // `],["` also occurs inside a row (a to-many, then a reference to a subentity).
        let linked = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Document", isAbstract: true,
                properties: [AttributeDescription(name: "p", type: .string)]),
            EntityDescription(name: "Receipt", superentityName: "Document"),
            EntityDescription(
                name: "Holder",
                properties: [
                    RelationshipDescription(
                        name: "things", destination: "Document", isToMany: true),
                    RelationshipDescription(name: "main", destination: "Document"),
                ]),
        ])
        let codec = RowCodec(model: linked, storeIdentifier: "S", path: "/tmp/holders.jsonl")
        let receipt = { (pk: Int64) in
            ManagedObjectID(
                entity: linked[entityName: "Receipt"]!, storeIdentifier: "S", primaryKey: pk)
        }
        let holders = (1...Int64(200)).map { pk in
            StoreRow(
                objectID: ManagedObjectID(
                    entity: linked[entityName: "Holder"]!, storeIdentifier: "S", primaryKey: pk),
                version: 1,
                values: [.toMany([receipt(pk), receipt(pk + 1)]), .toOne(receipt(pk + 2))])
        }
        let w = JSONByteWriter()
        w.append(0x5B)
        _ = try codec.write(holders, to: w)
        w.append(0x5D)
        #expect(w.string.contains("]],[\"Receipt\""), "the lookalike is present")
        try w.array.withUnsafeBytes { raw in
            var s = JSONScanner(raw)
            let parsed = try codec.readRows(&s, parallelAbove: 1)
            #expect(parsed == holders)
            #expect(s.isAtEnd)
        }
    }

    @Test func linesParsedAcrossCoresReportTheFirstDamagedLine() throws {
        let w = JSONByteWriter()
        for row in sample {
            let start = w.count
            w.append(ascii: "{\"row\":")
            try codec.write(row, to: w)
            LineFrame.finish(w, bodyStart: start)
        }
        var bytes = w.array
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        bytes[lfs[200] - 3] ^= 1  // line 201 of the chunk → number 202
        bytes[lfs[260] - 3] ^= 1
        let lines = zip([-1] + lfs.dropLast(), lfs).map { ($0 + 1)..<$1 }
        bytes.withUnsafeBytes { raw in
            var parser = LineParser(codec: codec, firstNumber: 2, snapshotRows: sample.count)
            parser.parallelAbove = 1
            let parsed = parser.parse(SharedBytes(bytes: raw), lines)
            #expect(parsed.count == 201)
            guard case .damaged(let error) = parsed.last else {
                Issue.record("no damage reported")
                return
            }
            #expect(error.line == 202)
            var rowsParsed: [StoreRow] = []
            for case .row(let row) in parsed { rowsParsed.append(row) }
            #expect(rowsParsed == Array(sample.prefix(200)))
        }
    }
}

extension FileStoreFixtures.Rows {
    /// 300 rows for reads split across cores: tags whose labels hold `],["` (a row boundary's
    /// look-alike), a line feed and a non-ASCII letter, and every third an expense of category 1.
    var splitReadSample: [StoreRow] {
        (1...300).map { i in
            i % 3 == 0
                ? expense(Int64(i), seed: i, category: 1)
                : row("Tag", Int64(i), ["label": .attribute(.string("tag \(i) é\n\"],[\""))])
        }
    }
}

/// How many `CountedRow`s are alive, counted across threads.
private final class LiveCount: @unchecked Sendable {
    // Sendable: `count` is read and written only while holding `lock`.
    /// Guards `count`.
    private let lock = NSLock()
    /// The rows made and not yet freed.
    private var count = 0

    /// The rows alive now.
    var value: Int { lock.withLock { count } }

    /// Adds `delta` (1 for a row made, -1 for a row freed).
    func add(_ delta: Int) { lock.withLock { count += delta } }
}

/// A row read by the split read that counts itself in `live` while it exists.
private final class CountedRow: Sendable {
    /// The row read.
    let row: StoreRow
    /// Where this row is counted.
    let live: LiveCount

    /// Wraps `row`, counting it.
    init(_ row: StoreRow, live: LiveCount) {
        self.row = row
        self.live = live
        live.add(1)
    }

    deinit { live.add(-1) }
}
