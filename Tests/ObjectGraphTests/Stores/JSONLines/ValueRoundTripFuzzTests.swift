import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Hostile values of every attribute type come back bit for bit through the file store's
/// writers and readers (issue 25's fast value writers: integers by digit pairs, UUIDs through
/// a hex table, doubles through the short-decimal shortcut): save → reopen, save → compact →
/// reopen, partial rows (format version 5) and batch updates, on both stores where they
/// apply; and hand-edited lines with values the format refuses fail with a `storeCorrupt`
/// error naming the line, never a crash or a changed value (StoreFileFormat.md §5, §7).
@Suite struct ValueRoundTripFuzzTests {
    static let types = ValueRoundTripTests.types

    let model: ManagedObjectModel

    init() throws {
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Sample",
                properties: Self.types.map { AttributeDescription(name: $0.rawValue, type: $0) })
        ])
    }

    // MARK: Hostile values

    /// Doubles that stress the shortest-spelling writer and the reader's rounding.
    static func hostileDoubles(seed: UInt64) -> [Double] {
        var v: [Double] = [
            0, -0.0, .infinity, -.infinity, .nan, -Double.nan,
            Double(bitPattern: 0x7FF0_0000_0000_0001),
            Double(bitPattern: 0xFFF8_0000_0000_0002), .leastNonzeroMagnitude,
            -.leastNonzeroMagnitude, .leastNormalMagnitude, Double.leastNormalMagnitude.nextDown,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne, 1 + .ulpOfOne,
            1 - .ulpOfOne / 2, 0.1, 0.2, 0.1 + 0.2, 0.001, 0.001.nextDown, 0.001.nextUp,
            9_007_199_254_740_992, 9_007_199_254_740_991, 9_007_199_254_740_991.5.nextDown,
            4_503_599_627_370_495.5, 999_999_999_999_999.9, 1e15, 1e15.nextUp, 1e15.nextDown,
            123_456_789.123456, 123_456_789.1234567, 0.000_999_999_999_999_999_9, 2.675, 1.005,
            1_700_000_000.000_001, 0.123_456_789_012_345_67, Double(bitPattern: 1),
            Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
        ]
        // Near every power of ten from 1e-320 to 1e308, each with both neighbours.
        for e in -320...308 {
            let p = Double("1e\(e)")!
            v += [p, p.nextUp, p.nextDown, -p]
        }
        var random = SeededRandomNumberGenerator(seed: seed)
        for _ in 0..<1000 {
            v.append(Double(bitPattern: random.next()))
            // 15, 16 and 17 significant digits at every scale the shortcut handles and beyond.
            let digits = [15, 16, 17][Int(random.next() % 3)]
            let mantissa = random.next() % [UInt64(1e15), UInt64(1e16), UInt64(1e17)][digits - 15]
            let scale = Int(random.next() % 40) - 20
            v.append(Double("\(mantissa)e\(scale)")!)
            v.append(
                Double(random.next() % 10_000_000_000)
                    / [1, 10, 1e3, 1e6, 1e7][Int(random.next() % 5)])
        }
        return v
    }

    static func hostileFloats(seed: UInt64) -> [Float] {
        var v: [Float] = [
            0, -0.0, .infinity, -.infinity, .nan, Float(bitPattern: 0xFFC0_0001),
            Float(bitPattern: 0x7F80_0001), .leastNonzeroMagnitude, .leastNormalMagnitude,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne, 0.1, 16_777_216,
            Float(16_777_216).nextUp, 1e10, 3.4028235e38,
        ]
        for e in -45...38 {
            let p = Float("1e\(e)")!
            v += [p, p.nextUp, p.nextDown, -p]
        }
        var random = SeededRandomNumberGenerator(seed: seed)
        for _ in 0..<2000 { v.append(Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))) }
        return v
    }

    static func hostileStrings(seed: UInt64) -> [String] {
        var v: [String] = [
            "", "\"", "\\", "\\\"", "\"\\\"", "\u{0}", "a\u{0}b", "\u{7F}", "\u{80}\u{9F}",
            "\u{2028}", "\u{2029}", "\u{2027}\u{202A}€…", "\u{FEFF}", "\u{FFFF}\u{FFFE}",
            "\u{10FFFF}", "👩‍👩‍👧‍👦🏳️‍🌈", "e\u{301}\u{302}\u{303}", ",\"crc\":\"00000000\"}",
            ",\"sums\":[", "\n{\"t\":9}\n", "\\u0000", "\\ud83d",
            String(repeating: "é\"\\\u{1}", count: 50_000),
            String(repeating: "x\u{2028}", count: 1 << 18),
        ]
        // Every control character, alone and at every offset of the writer's 8-byte scan.
        for c in 0..<0x20 {
            let s = String(Unicode.Scalar(UInt8(c)))
            v.append(s)
            for offset in 0..<17 {
                v.append(
                    String(repeating: "a", count: offset) + s + String(repeating: "b", count: 9))
            }
        }
        for offset in 0..<17 {
            for special in ["\"", "\\", "\u{2028}", "\u{2029}", "€"] {
                v.append(String(repeating: "z", count: offset) + special + "12345678")
            }
        }
        var random = SeededRandomNumberGenerator(seed: seed)
        for _ in 0..<300 {
            if case .string(let s) = RandomValues.value(.string, &random) { v.append(s) }
        }
        return v
    }

    static func hostileDecimals() -> [Decimal] {
        [
            .nan, 0, -1, .greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude,
            -Decimal.leastNonzeroMagnitude, Decimal(string: "0.1")!, Decimal(string: "1.50")!,
            Decimal(string: "99999999999999999999999999999999999999")!,
            Decimal(string: "-0.00000000000000000000000000000000000001")!,
            Decimal(string: "1e100")!, Decimal(string: "-1e-100")!,
            Decimal(string: "12345678901234567890.123456789012345678")!,
            Decimal(Int64.max), Decimal(Int64.min),
        ]
    }

    static func hostileDates(seed: UInt64) -> [Date] {
        var v: [Date] = [
            .distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: 0),
            Date(timeIntervalSinceReferenceDate: -0.0), Date(timeIntervalSince1970: 0),
            Date(timeIntervalSinceReferenceDate: 646_790_399.999),
            Date(timeIntervalSinceReferenceDate: -978_307_200.000_000_1),
            Date(timeIntervalSinceReferenceDate: 1e300),
            Date(timeIntervalSinceReferenceDate: -1e-300),
            Date(timeIntervalSinceReferenceDate: .infinity),
            Date(timeIntervalSinceReferenceDate: -.infinity),
            Date(timeIntervalSinceReferenceDate: .nan),
            Date(timeIntervalSinceReferenceDate: 0.000_001),
            Date(timeIntervalSinceReferenceDate: 1_000_000_000.123_456_7),
        ]
        var random = SeededRandomNumberGenerator(seed: seed)
        for _ in 0..<300 {
            v.append(
                Date(
                    timeIntervalSinceReferenceDate: Double(Int64(bitPattern: random.next()) >> 30)
                        / [1, 1e3, 1e6, 1e9][Int(random.next() % 4)]))
        }
        return v
    }

    static func hostileUUIDs(seed: UInt64) -> [UUID] {
        var v = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(
                uuid: (
                    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255
                )),
            UUID(uuid: (0x0A, 0xA0, 0x0F, 0xF0, 0x9A, 0xA9, 0x10, 0x01, 0, 1, 2, 3, 4, 5, 6, 7)),
        ]
        var random = SeededRandomNumberGenerator(seed: seed)
        for _ in 0..<300 {
            if case .uuid(let u) = RandomValues.value(.uuid, &random) { v.append(u) }
        }
        return v
    }

    /// Every hostile value, each in its own row of the model's columns (the other columns
    /// `null`), so one failure names its value.
    func hostileRows(seed: UInt64) -> [[AttributeValue]] {
        var random = SeededRandomNumberGenerator(seed: seed)
        var values: [(AttributeType, AttributeValue)] = []
        values += [Int64(Int16.min), Int64(Int16.max), 0, -1, 1, 9, 10, 99, 100].map {
            (.integer16, .integer($0))
        }
        values += [Int64(Int32.min), Int64(Int32.max), 0, -1, 1_000_000_000].map {
            (.integer32, .integer($0))
        }
        var int64s: [Int64] = [.min, .max, 0, -1, .min + 1, .max - 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            int64s += [power, power - 1, -power, -(power - 1)]
            power = power &* 10
        }
        for _ in 0..<300 { int64s.append(Int64(bitPattern: random.next())) }
        values += int64s.map { (.integer64, .integer($0)) }
        values += Self.hostileDoubles(seed: seed).map { (.double, .double($0)) }
        values += Self.hostileFloats(seed: seed).map { (.float, .float($0)) }
        values += Self.hostileDecimals().map { (.decimal, .decimal($0)) }
        values += Self.hostileStrings(seed: seed).map { (.string, .string($0)) }
        values += [(.boolean, .boolean(true)), (.boolean, .boolean(false))]
        values += Self.hostileDates(seed: seed).map { (.date, .date($0)) }
        let blobs = [
            Data(), Data([0]), Data([0xFF, 0xFE]), Data([1, 2, 3]),
            Data((0...255).map { UInt8($0) }),
            Data(repeating: 0xA5, count: 1 << 20),
        ]
        values += blobs.map { (.binaryData, .data($0)) }
        values += blobs.map { (.transformable, .transformable($0)) }
        values += Self.hostileUUIDs(seed: seed).map { (.uuid, .uuid($0)) }
        values += [
            "x-coredata://6B0F5C2E/Category/p1", "file:///tmp/a%20b?q=%E2%80%A8#f", "mailto:a@b.c",
            "https://例え.jp/パス?α=β", "https://example.com/" + String(repeating: "a", count: 10_000),
            "x-app:%22%5C%00", "urn:uuid:00000000-0000-0000-0000-000000000000",
        ].compactMap { URL(string: $0) }.map { (.uri, .uri($0)) }
        return values.map { type, value in
            Self.types.map { $0 == type ? value : .null }
        } + [Self.types.map { _ in .null }]
    }

    // MARK: Checking

    private func rows(_ values: [[AttributeValue]], version: Int64 = 1, store: String = "S")
        -> [StoreRow]
    {
        values.enumerated().map { i, row in
            StoreRow(
                objectID: ManagedObjectID(
                    entity: model.entities[0], storeIdentifier: store, primaryKey: Int64(i + 1)),
                version: version, values: row.map { .attribute($0) })
        }
    }

    /// Records one issue per value that did not come back bit for bit (at most 20).
    private func expectSame(
        _ expected: [[AttributeValue]], _ store: any PersistentStore, _ when: String
    ) throws {
        let fetched = try store.fetch(StoreFetchRequest(entity: model.entities[0]))
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        #expect(fetched.count == expected.count, "\(when)")
        var failures = 0
        for (row, values) in zip(fetched, expected) {
            for (slot, value) in values.enumerated() {
                let back = row.values[slot].attributeValue
                if !ValueRoundTripTests.same(value, back) {
                    failures += 1
                    if failures <= 20 {
                        Issue.record(
                            "\(when): \(Self.types[slot].rawValue) \(Self.describe(value)) came back as \(Self.describe(back))"
                        )
                    }
                }
            }
        }
        #expect(failures == 0, "\(when): \(failures) values changed")
    }

    /// A value with its bit pattern when it is floating point.
    static func describe(_ v: AttributeValue) -> String {
        switch v {
        case .double(let d): "\(d) (0x\(String(d.bitPattern, radix: 16)))"
        case .float(let f): "\(f) (0x\(String(f.bitPattern, radix: 16)))"
        case .date(let d):
            "\(d.timeIntervalSinceReferenceDate) (0x\(String(d.timeIntervalSinceReferenceDate.bitPattern, radix: 16)))"
        case .string(let s): s.count > 80 ? "a string of \(s.count) characters" : s.debugDescription
        default: "\(v)"
        }
    }

    private func url(_ name: String) throws -> URL {
        try FileStoreFixtures.temporaryDirectory().appendingPathComponent(name)
    }

    private func options() -> StoreOptions {
        var options = FileStoreFixtures.options(identifier: "S")
        options.synchronous = .off
        return options
    }

    // MARK: Round trips

    @Test func hostileValuesComeBackAfterSaveReopenAndCompaction() throws {
        let values = hostileRows(seed: 25)
        let url = try url("save.jsonl")
        let store = try JSONLinesStore(model: model, url: url, options: options())
        try store.commit(StoreChangeSet(inserted: rows(values), timestamp: Date()))
        try expectSame(values, store, "in memory")
        store.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        let reopened = try JSONLinesStore(model: model, url: url, options: options())
        try expectSame(values, reopened, "after reopening")
        try reopened.compact()
        reopened.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        let compacted = try JSONLinesStore(model: model, url: url, options: options())
        try expectSame(values, compacted, "after compaction and reopening")
        compacted.close()
    }

    @Test func hostileValuesComeBackFromTheMemoryStore() throws {
        let values = hostileRows(seed: 26)
        let store = InMemoryStore(
            model: model, options: FileStoreFixtures.options(identifier: "S"))
        try store.commit(StoreChangeSet(inserted: rows(values), timestamp: Date()))
        try expectSame(values, store, "memory store")
    }

    /// Each row starts as all `null`, then an update sets its one hostile value: fewer than
    /// half of the columns change, so each update is a partial row (format version 5).
    @Test func hostileValuesWrittenAsPartialRowsComeBackAfterReopenAndCompaction() throws {
        let values = hostileRows(seed: 27)
        let url = try url("partial.jsonl")
        let store = try JSONLinesStore(model: model, url: url, options: options())
        let empty = values.map { $0.map { _ in AttributeValue.null } }
        try store.commit(StoreChangeSet(inserted: rows(empty), timestamp: Date()))
        try store.commit(StoreChangeSet(updated: rows(values, version: 2), timestamp: Date()))
        store.close()
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text.contains("\"upd\":[[\"Sample\",1,2,{\"integer16\":-32768}]"),
            "written as partial rows")
        let reopened = try JSONLinesStore(model: model, url: url, options: options())
        try expectSame(values, reopened, "partial rows after reopening")
        try reopened.compact()
        reopened.close()
        let compacted = try JSONLinesStore(model: model, url: url, options: options())
        try expectSame(values, compacted, "partial rows after compaction")
        compacted.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
    }

    /// A batch update sets one hostile value on one row at a time, through a context, on both
    /// stores.
    @Test(arguments: ["/dev/null", "file"])
    func hostileValuesWrittenByBatchUpdatesComeBack(store kind: String) throws {
        let url = kind == "file" ? try url("batch.jsonl") : URL(fileURLWithPath: "/dev/null")
        // A sample of each type (batch updates run one save each).
        var random = SeededRandomNumberGenerator(seed: 28)
        let all = hostileRows(seed: 28)
        // Transformable values stay `null`: a batch update's constant is a value, not a payload.
        let transformable = Self.types.firstIndex(of: .transformable)!
        let values = (all.filter { _ in random.next() % 80 == 0 } + all.prefix(8)).map {
            var row = $0
            row[transformable] = .null
            return row
        }
        func container() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Batch", managedObjectModel: model)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            try container.loadPersistentStores()
            return container
        }
        let first = try container()
        let context = first.newBackgroundContext()
        try context.performAndWait {
            for i in values.indices {
                context.insertNewObject(forEntityName: "Sample").setValue(
                    Int64(i), forKey: "integer64")
            }
            try context.save()
            for (i, row) in values.enumerated() {
                let update = BatchUpdateRequest(entityName: "Sample")
                update.predicate = try FetchPredicate(format: "integer64 == %@", Int64(i))
                var properties: [String: FetchExpression] = [:]
                for (slot, value) in row.enumerated()
                where Self.types[slot] != .integer64 && Self.types[slot] != .transformable {
                    properties[Self.types[slot].rawValue] = FetchExpression(
                        forConstantValue: value.swiftValue(for: Self.types[slot]))
                }
                update.propertiesToUpdate = properties
                _ = try context.execute(update)
            }
        }
        var expected = values
        for i in expected.indices {
            expected[i][Self.types.firstIndex(of: .integer64)!] = .integer(Int64(i))
        }
        let stores = first.persistentStoreCoordinator.persistentStores
        if kind != "file" {
            try expectSame(expected, stores[0], "memory store after batch updates")
            return
        }
        ValueRoundTripTests.close(first)
        let reopened = try JSONLinesStore(model: model, url: url, options: options())
        defer { reopened.close() }
        let sorted = try reopened.fetch(StoreFetchRequest(entity: model.entities[0]))
        #expect(sorted.count == expected.count)
        // Objects were inserted in `values` order, so their keys follow it.
        try expectSame(expected, reopened, "batch updates after reopening")
        try reopened.compact()
        try expectSame(expected, reopened, "batch updates after compaction")
    }

    // MARK: Hostile lines

    /// A version-5 file whose one insert holds `value` in column `column`, the rest `null`.
    private func writeFile(_ url: URL, column: AttributeType, value: String) throws {
        let header = StoreFileHeader(
            model: model, storeIdentifier: "S",
            created: Date(timeIntervalSinceReferenceDate: 700_000_000))
        let w = JSONByteWriter()
        header.write(to: w)
        let cells = Self.types.map { $0 == column ? value : "null" }.joined(separator: ",")
        let start = w.count
        w.append(raw: "{\"t\":1,\"at\":700000100.5,\"ins\":[[\"Sample\",1,1,\(cells)]]")
        LineFrame.finish(w, bodyStart: start)
        try Data(w.array).write(to: url)
    }

    /// Expects opening the file at `url` read-only to fail with an ``ObjectGraphError`` that
    /// `check` accepts.
    private func expectOpeningFails(
        _ url: URL, _ model: ManagedObjectModel, _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ check: @escaping (ObjectGraphError) -> Bool
    ) {
        #expect(comment, sourceLocation: sourceLocation) {
            let store = try JSONLinesStore(
                model: model, url: url,
                options: FileStoreFixtures.options(identifier: "S", readOnly: true))
            store.close()
        } throws: { error in
            guard let e = error as? ObjectGraphError else { return false }
            return check(e)
        }
    }

    /// Values a hand edit may leave that the format refuses (§5): each is damage of line 2,
    /// reported by opening and by `verify` alike, with a message saying what is wrong.
    @Test func hostileValuesInAHandEditedLineAreDamageOfThatLine() throws {
        let refused: [(AttributeType, String, String)] = [
            (.double, "1e999", "out of range"), (.double, "-1e999", "out of range"),
            (.float, "1e39", "out of range"), (.date, "1e999", "out of range"),
            (.integer64, "1e999", "integer"), (.integer64, "1.0", "integer"),
            (.integer64, "00012", "leading zero"), (.double, "00012", "leading zero"),
            (.integer64, "9223372036854775808", "64 bits"), (.integer16, "32768", ""),
            (.integer32, "-2147483649", ""), (.integer64, "+1", ""), (.double, "NaN", ""),
            (.double, "Infinity", ""), (.double, "\"NaN:0x7ff0000000000000\"", "NaN"),
            (.double, "\"NaN:0x7FF8000000000001\"", ""), (.float, "\"NaN:0x7fc0000\"", ""),
            (.double, ".5", ""), (.double, "1.", "digit"), (.double, "1e", "exponent"),
            (.uuid, "\"6B0F5C2E-9D41-4C59-9E4B-2D1F0A7C3E5\"", "UUID"),
            (.uuid, "\"6B0F5C2E-9D41-4C59-9E4B-2D1F0A7C3E588\"", "UUID"),
            (.uuid, "\"6B0F5C2E9D414C599E4B2D1F0A7C3E58\"", "UUID"),
            (.uuid, "\"6B0F5C2G-9D41-4C59-9E4B-2D1F0A7C3E58\"", "UUID"),
            (.string, "\"abc\\u12\"", ""), (.string, "\"abc\\\"", ""), (.string, "\"abc\\x\"", ""),
            (.string, "\"\\ud83d\"", "surrogate"), (.string, "\"a\u{1}b\"", ""),
            (.binaryData, "\"not base64!\"", ""), (.boolean, "1", ""), (.decimal, "12", ""),
            (.decimal, "\"12x\"", ""), (.string, "12", ""),
        ]
        let url = try url("hostile.jsonl")
        for (type, value, says) in refused {
            try writeFile(url, column: type, value: value)
            expectOpeningFails(url, model, "\(type.rawValue) \(value)") { e in
                e.reason == .storeCorrupt && e.line == 2
                    && (says.isEmpty || "\(e)".localizedCaseInsensitiveContains(says))
            }
            let report = JSONLinesStore.verify(at: url)
            #expect(report.problems.first?.line == 2, "verify: \(type.rawValue) \(value)")
        }
    }

    /// Spellings the reader accepts though the writer never writes them (§5) read as the
    /// value they spell, bit for bit: `-0` keeps its sign, UUIDs in either case.
    @Test func acceptedSpellingsReadAsTheValueTheySpell() throws {
        let accepted: [(AttributeType, String, AttributeValue)] = [
            (.double, "-0", .double(-0.0)), (.double, "-0.0e5", .double(-0.0)),
            (.double, "0", .double(0)), (.float, "-0", .float(-0.0)),
            (.date, "-0", .date(Date(timeIntervalSinceReferenceDate: -0.0))),
            (.integer64, "-0", .integer(0)), (.integer16, "-32768", .integer(-32768)),
            (.double, "1E2", .double(100)), (.double, "1e+2", .double(100)),
            (.double, "4.9406564584124654e-324", .double(.leastNonzeroMagnitude)),
            (.double, "17976931348623157e292", .double(.greatestFiniteMagnitude)),
            (
                .double, "\"NaN:0xfff8000000000002\"",
                .double(Double(bitPattern: 0xFFF8_0000_0000_0002))
            ),
            (
                .uuid, "\"6b0f5c2e-9d41-4c59-9e4b-2d1f0a7c3e58\"",
                .uuid(UUID(uuidString: "6B0F5C2E-9D41-4C59-9E4B-2D1F0A7C3E58")!)
            ),
            (.string, "\"\\ud83d\\ude00\\u0000\\/\"", .string("😀\u{0}/")),
            (.decimal, "\"1.5e3\"", .decimal(Decimal(1500))),
        ]
        let url = try url("accepted.jsonl")
        for (type, text, value) in accepted {
            try writeFile(url, column: type, value: text)
            let store = try JSONLinesStore(
                model: model, url: url,
                options: FileStoreFixtures.options(identifier: "S", readOnly: true))
            let row = try store.fetch(StoreFetchRequest(entity: model.entities[0])).first
            let back = row?.values[Self.types.firstIndex(of: type)!].attributeValue ?? .null
            #expect(
                ValueRoundTripTests.same(value, back),
                "\(text) read as \(Self.describe(back)), expected \(Self.describe(value))")
            store.close()
        }
    }

    /// A damaged value in a row of a hand-edited line is reported as before the thirteenth
    /// session's word-at-a-time reading (issue 25): the store's file, the line, the column of
    /// the byte at fault and the same message.
    @Test func damagedValuesAreReportedWithTheirFileLineAndColumn() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item",
                properties: [
                    AttributeDescription(name: "id", type: .uuid),
                    AttributeDescription(name: "amount", type: .double),
                    AttributeDescription(name: "title", type: .string),
                ])
        ])
        let url = try url("bad.jsonl")
        let good = ["\"6B0F5C2E-9D41-4C59-9E4B-2D1F0A7C3E58\"", "123456789.25", "\"a title\""]
        let cases: [(Int, String, String, Int)] = [
            // (slot, text, message, offset of the fault within the text)
            (
                0, "\"6B0F5C2E-9D41-4C59-9E4B-2D1F0A7C3E5G\"", "not a UUID (8-4-4-4-12 hex digits)",
                0
            ),
            (
                0, "\"6B0F5C2E-9D41-4C59-9E4B-2D1F0A7C3\u{e9}8\"",
                "not a UUID (8-4-4-4-12 hex digits)", 0
            ),
            (1, "12345678901.e3", "expected a digit after '.'", 12),
            (1, "123456789012345678e", "expected a digit in the exponent", 19),
            (2, "\"abcdefghij\u{1}klm\"", "raw control character 0x01 in a string", 11),
        ]
        for (slot, text, message, offset) in cases {
            var cells = good
            cells[slot] = text
            let header = StoreFileHeader(
                model: model, storeIdentifier: "S",
                created: Date(timeIntervalSinceReferenceDate: 700_000_000))
            let w = JSONByteWriter()
            header.write(to: w)
            let start = w.count
            let body = "{\"t\":1,\"at\":700000100.5,\"ins\":[[\"Item\",1,1,"
            w.append(raw: body + cells.joined(separator: ",") + "]]")
            LineFrame.finish(w, bodyStart: start)
            try Data(w.array).write(to: url)
            let prefix = body + cells[..<slot].map { $0 + "," }.joined()
            let column = prefix.utf8.count + offset + 1
            let property = ["id", "amount", "title"][slot]
            expectOpeningFails(url, model, "\(text)") { e in
                e.reason == .storeCorrupt && e.line == 2 && e.column == column
                    && e.file == url.path && "\(e)".contains("Item.\(property): \(message)")
            }
        }
    }
}
