import Foundation
import Testing

@testable import ObjectGraph

/// A batch update's transaction line is written straight from its plan (issue 25): as partial
/// rows it must be, byte for byte, the line a save of the same updates as patches writes
/// (format version 5's partial rows of the changed slots, complete rows when half or more
/// change); as a batch line (version 6) it must read back as that save. Either way the rows,
/// history and live-byte count afterwards are the save's.
@Suite struct JSONLinesBatchLineTests {
    let model: ManagedObjectModel
    let rows: FileStoreFixtures.Rows
    let directory: URL

    init() throws {
        model = try FileStoreFixtures.model()
        rows = FileStoreFixtures.Rows(model: model, store: "S")
        directory = try FileStoreFixtures.temporaryDirectory()
    }

    /// One batch update: its entity (subentities included), its constant new values by
    /// attribute name, and a piece its line must hold (so each case covers the shape it is for).
    struct Case: Sendable, CustomTestStringConvertible {
        var entity: String
        var values: [(String, AttributeValue)]
        var lineHolds: String
        var testDescription: String { "\(entity): \(values.map(\.0))" }
    }

    static let cases: [Case] = [
        // Two of fifteen stored slots: partial rows; expense 4 already has both values, so
        // its partial row is empty, and others change one slot or two.
        Case(
            entity: "Expense",
            values: [("cleared", .boolean(true)), ("title", .string("same"))],
            lineHolds: "[\"Expense\",4,2,{}]"),
        // Eight of fifteen: complete rows (expense 1 keeps its `count16`: seven, partial).
        Case(
            entity: "Expense",
            values: [
                ("amount", .decimal(7)), ("count16", .integer(1)), ("count32", .integer(2)),
                ("count64", .integer(3)), ("date", .date(Date(timeIntervalSince1970: 5))),
                ("ratio", .double(0.1 * 3)), ("title", .string("t")), ("weight", .float(0.5)),
            ],
            lineHolds: "[\"Expense\",2,2,\"t\""),
        // An abstract entity's subentity rows: `path` is one of a receipt's two stored slots
        // (complete), and receipt 2 keeps its path (an empty partial row).
        Case(
            entity: "Document", values: [("path", .string("p2"))],
            lineHolds: "[\"Receipt\",2,2,{}]"),
    ]

    private func options(history: Bool) -> StoreOptions {
        var options = FileStoreFixtures.options(identifier: "S")
        options.tracksHistory = history
        return options
    }

    /// Six expenses (expense 4 titled "same" and cleared) and two receipts (the second at
    /// path "p2"), saved at `url`.
    private func seed(_ url: URL, history: Bool) throws {
        let store = try JSONLinesStore(model: model, url: url, options: options(history: history))
        defer { store.close() }
        var expenses = (1...6).map { rows.expense(Int64($0), seed: $0) }
        let title = try #require(model[entityName: "Expense"]?.propertiesByName["title"])
        expenses[3].values[title.index] = .attribute(.string("same"))
        let receipts = [
            rows.row("Receipt", 1, ["path": .attribute(.string("p1"))]),
            rows.row("Receipt", 2, ["path": .attribute(.string("p2"))]),
        ]
        try store.commit(
            StoreChangeSet(
                inserted: expenses + receipts, timestamp: Date(timeIntervalSince1970: 1)))
    }

    private func lastLine(_ url: URL) throws -> String {
        try #require(
            try String(contentsOf: url, encoding: .utf8).split(separator: "\n").last.map(
                String.init))
    }

    /// `mode`: bit 0 tracks history; bit 1 lets the store write a batch line (version 6),
    /// which these constant updates all are; without it, the partial rows of version 5.
    @Test(arguments: 0..<cases.count, 0..<4)
    func aBatchUpdatesLineReadsBackAsItsPatchesSaved(_ index: Int, mode: Int) throws {
        let history = mode & 1 != 0
        let batchLine = mode & 2 != 0
        let c = Self.cases[index]
        let batchURL = directory.appendingPathComponent("batch-\(index)-\(mode).jsonl")
        let saveURL = directory.appendingPathComponent("save-\(index)-\(mode).jsonl")
        try seed(batchURL, history: history)
        try FileManager.default.copyItem(at: batchURL, to: saveURL)
        let batchStore = try JSONLinesStore(
            model: model, url: batchURL, options: options(history: history))
        let saveStore = try JSONLinesStore(
            model: model, url: saveURL, options: options(history: history))
        defer {
            batchStore.close()
            saveStore.close()
        }
        batchStore.writesBatchLines = batchLine
        // The live-byte count is known before the update, so the append keeps it up to date.
        _ = batchStore.locked { batchStore.liveBytes() }

        let entity = try #require(model[entityName: c.entity])
        let attributes = c.values.map { entity.attributesByName[$0.0]! }
        let update = RowBatchUpdate(
            entity: entity, predicate: nil, includesSubentities: true,
            updates: zip(attributes, c.values).map { ($0, .constant($1.1)) },
            author: "batch", contextName: "worker", timestamp: Date(timeIntervalSince1970: 9))
        let before = try saveStore.fetch(
            StoreFetchRequest(entity: entity, includesSubentities: true))
        let updated = try batchStore.batchUpdate(update)

        // The same updates as a save hands them to the store: every updated slot, ascending.
        let planned = zip(attributes, c.values).map { ($0.index, StoreValue.attribute($1.1)) }
            .sorted { $0.0 < $1.0 }
        try saveStore.commit(
            StoreChangeSet(
                patched: before.map {
                    StoreRowPatch(
                        objectID: $0.objectID, version: $0.version + 1,
                        slots: planned.map(\.0), values: planned.map(\.1))
                }, author: "batch", contextName: "worker",
                timestamp: Date(timeIntervalSince1970: 9)))

        #expect(updated == before.map(\.objectID))
        let line = try lastLine(batchURL)
        if batchLine {
            #expect(line.contains(",\"batch\":{\"entity\":\"\(c.entity)\",\"set\":{"))
        } else {
            #expect(line == (try lastLine(saveURL)))
            #expect(line.contains(c.lineHolds))
        }
        #expect(
            try FileStoreFixtures.allRows(batchStore) == (try FileStoreFixtures.allRows(saveStore)))
        if history {
            let batchHistory = try batchStore.history(after: nil)
            #expect(batchHistory.count == 2)
            #expect(batchHistory.last == (try saveStore.history(after: nil).last))
        }
        let kept = batchStore.locked { batchStore.liveBytes() }
        let measured = batchStore.locked {
            batchStore.liveRowBytes = nil
            return batchStore.liveBytes()
        }
        #expect(kept == measured, "the live-byte count stays exact")

        // Read back by a fresh store object: the same rows and history as the save's file.
        let reopened = try JSONLinesStore(
            model: model, url: batchURL, options: options(history: history))
        defer { reopened.close() }
        #expect(
            try FileStoreFixtures.allRows(reopened) == (try FileStoreFixtures.allRows(saveStore)))
        if history {
            #expect(
                try reopened.history(after: nil).last?.changes
                    == (try saveStore.history(after: nil).last?.changes))
        }
    }

    /// Regression (the lead's review of `bw`): a partially written row's snapshot line holds
    /// its version, so when the version gains a digit (9 → 10) the line grows by a byte that
    /// the live-byte count left out, for batch updates and for saved patches and rows alike.
    /// Nine alternating one-slot updates take every row from version 1 to 10.
    @Test(arguments: ["batch", "patch", "row"])
    func theLiveByteCountFollowsAVersionGainingADigit(_ path: String) throws {
        let url = directory.appendingPathComponent("digits-\(path).jsonl")
        try seed(url, history: false)
        let store = try JSONLinesStore(model: model, url: url, options: options(history: false))
        defer { store.close() }
        _ = store.locked { store.liveBytes() }
        let entity = try #require(model[entityName: "Expense"])
        let title = try #require(entity.attributesByName["title"])
        for n in 0..<9 {
            let value = AttributeValue.string(n.isMultiple(of: 2) ? "a" : "b")
            let current = try store.fetch(StoreFetchRequest(entity: entity))
            switch path {
            case "batch":
                _ = try store.batchUpdate(
                    RowBatchUpdate(
                        entity: entity, predicate: nil, includesSubentities: false,
                        updates: [(title, .constant(value))], author: nil, contextName: nil,
                        timestamp: Date(timeIntervalSince1970: 9)))
            case "patch":
                try store.commit(
                    StoreChangeSet(
                        patched: current.map {
                            StoreRowPatch(
                                objectID: $0.objectID, version: $0.version + 1,
                                slots: [title.index], values: [.attribute(value)])
                        }, timestamp: Date(timeIntervalSince1970: 9)))
            default:
                try store.commit(
                    StoreChangeSet(
                        updated: current.map {
                            var row = $0
                            row.version += 1
                            row.values[title.index] = .attribute(value)
                            return row
                        }, timestamp: Date(timeIntervalSince1970: 9)))
            }
        }
        let rows = try store.fetch(StoreFetchRequest(entity: entity))
        #expect(rows.allSatisfy { $0.version == 10 })
        let kept = store.locked { store.liveBytes() }
        let measured = store.locked {
            store.liveRowBytes = nil
            return store.liveBytes()
        }
        #expect(kept == measured)
    }

    @Test func decimalLengthCountsWhatTheWriterWrites() {
        for value: Int64 in [0, 9, 10, 99, 100, -1, -10, 12_345, .max, .min, 1_000_000_000] {
            let writer = JSONByteWriter()
            writer.append(integer: value)
            #expect(JSONByteWriter.decimalLength(of: value) == writer.count, "\(value)")
        }
    }
}
