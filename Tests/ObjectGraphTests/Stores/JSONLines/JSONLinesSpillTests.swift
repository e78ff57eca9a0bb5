import Foundation
import Testing

@testable import ObjectGraph

/// A save of many rows writes its line to the file as its rows are encoded (`LineSpill`), so
/// that the line is never whole in memory: the bytes are those of a line encoded whole (only
/// the row runs of `sums` are cut at the encoding parts' ends too), and a failure while
/// encoding or writing leaves the file as it was.
@Suite struct JSONLinesSpillTests {
    let model: ManagedObjectModel
    let rows: FileStoreFixtures.Rows
    let directory: URL

    init() throws {
        model = try FileStoreFixtures.model()
        rows = FileStoreFixtures.Rows(model: model, store: "S")
        directory = try FileStoreFixtures.temporaryDirectory()
    }

    private func open(_ name: String, fileSystem: (any StoreFileSystem)? = nil) throws
        -> JSONLinesStore
    {
        let url = directory.appendingPathComponent(name)
        let options = FileStoreFixtures.options(identifier: "S")
        if let fileSystem {
            return try JSONLinesStore(
                model: model, url: url, options: options, fileSystem: fileSystem)
        }
        return try JSONLinesStore(model: model, url: url, options: options)
    }

    /// 12,000 expenses (≈ 2.3 MB at the encoder's estimate of 192 bytes a row, so they spill
    /// in waves of parts) and a category, at one timestamp.
    private func bigSave() -> StoreChangeSet {
        StoreChangeSet(
            inserted: [rows.row("Category", 1, ["name": .attribute(.string("Food"))])]
                + (1...12_000).map { rows.expense(Int64($0), seed: $0, category: 1) },
            timestamp: Date(timeIntervalSinceReferenceDate: 7_000_000.25))
    }

    /// Line 2 of the file at `url` without its `sums` member and its checksum member.
    private func lineWithoutRunsAndChecksum(_ name: String) throws -> String {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let line = text.split(separator: "\n")[1]
        let body = try #require(line.range(of: ",\"crc\":\"")).lowerBound
        let sums = try #require(line.range(of: ",\"sums\":[", options: .backwards)).lowerBound
        #expect(sums < body)
        return String(line[..<sums])
    }

    @Test func aSpilledLineHasTheBytesOfALineEncodedWhole() throws {
        let fs = FaultInjectingFileSystem()
        let spilled = try open("spilled.jsonl", fileSystem: fs)
        let writesBefore = fs.writeCount
        try spilled.commit(bigSave())
        // It did spill: the head, ≈ 5 parts of ≈ 2,730 expenses, and the line's end (a line
        // written whole is one write, plus the end record's).
        #expect(fs.writeCount - writesBefore >= 6)
        let whole = try open("whole.jsonl")
        // A staged commit (a save across several stores) encodes its line whole first.
        try whole.withStagedCommit(bigSave()) { staged in
            try staged.write()
            staged.apply()
        }
        spilled.close()
        whole.close()
        for name in ["spilled.jsonl", "whole.jsonl"] {
            #expect(JSONLinesStore.verify(at: directory.appendingPathComponent(name)).isHealthy)
        }
        let a = try lineWithoutRunsAndChecksum("spilled.jsonl")
        let b = try lineWithoutRunsAndChecksum("whole.jsonl")
        #expect(a.utf8.count > LineSpill.minimumBytes)
        #expect(a == b)
        // Both read back as the same rows.
        let reread = try [open("spilled.jsonl"), open("whole.jsonl")].map {
            try $0.fetch(StoreFetchRequest(entity: model[entityName: "Expense"]!))
        }
        #expect(reread[0].count == 12_000 && reread[0] == reread[1])
    }

    /// A line whose `ins` spills and whose `upd` (300 rows, ≈ 19 KB at the estimate: under
    /// the spill's threshold, over a run's 16 KiB) stays in the buffer: every run the line
    /// lists holds, read by a salvage's own reader, so the `upd` runs' checksums, computed in
    /// the buffer after the `ins` rows left it, are right (they are found by their offset in
    /// the line, which the buffer no longer starts at).
    @Test func runsOfAnArrayAfterASpilledOneAreChecksummedWhereTheyAre() throws {
        let store = try open("s.jsonl")
        let url = directory.appendingPathComponent("s.jsonl")
        try store.commit(
            StoreChangeSet(
                inserted: [rows.row("Category", 1, ["name": .attribute(.string("Food"))])]
                    + (50_001...50_300).map { rows.expense(Int64($0), seed: $0, category: 1) },
                timestamp: Date()))
        var changes = bigSave()
        changes.inserted.removeFirst()
        changes.updated = (50_001...50_300).map {
            rows.expense(Int64($0), version: 2, seed: $0 + 7, category: 1)
        }
        try store.commit(changes)
        store.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        let reader = try open("s.jsonl")
        let bytes = try Data(contentsOf: url)
        let lines = bytes.split(separator: 0x0A)
        let line = try #require(lines.last)
        let recovered = try #require(
            line.withUnsafeBytes { RowRun.recover(from: $0, codec: reader.codec) })
        #expect(recovered.runs > 2 && recovered.intactRuns == recovered.runs)
        #expect(recovered.inserted.count == 12_000 && recovered.updated.count == 300)
    }

    @Test func aValueThatDoesNotFitAfterTheFirstWaveLeavesTheFileAsItWas() throws {
        let store = try open("s.jsonl")
        let url = directory.appendingPathComponent("s.jsonl")
        try store.commit(
            StoreChangeSet(
                inserted: [rows.row("Category", 1, ["name": .attribute(.string("Food"))])],
                timestamp: Date()))
        let before = try Data(contentsOf: url)
        var changes = bigSave()
        changes.inserted.removeFirst()  // the category is there already
        // The last expense's amount is a string: it fails when the last wave is encoded,
        // after the first waves were written.
        let last = changes.inserted.count - 1
        changes.inserted[last].values[
            model[entityName: "Expense"]!.propertiesByName["amount"]!.index] =
            .attribute(.string("twelve"))
        #expect {
            try store.commit(changes)
        } throws: { ($0 as? ObjectGraphError)?.code == 134030 }
        #expect(try Data(contentsOf: url) == before)
        #expect(try store.fetch(StoreFetchRequest(entity: model[entityName: "Expense"]!)).isEmpty)
        // The store takes the save once the value is right.
        changes.inserted[last] = rows.expense(12_000, seed: 12_000, category: 1)
        try store.commit(changes)
        try expectSavedWhole(store)
    }

    @Test func aWriteThatFailsWhileSpillingLeavesTheFileAsItWas() throws {
        let fs = FaultInjectingFileSystem()
        let store = try open("s.jsonl", fileSystem: fs)
        let url = directory.appendingPathComponent("s.jsonl")
        let before = try Data(contentsOf: url)
        // The line's first write (its head, before the rows) writes a few bytes and fails:
        // they are cut off again. (The first version of the spill truncated only after a
        // write that succeeded, and left these four bytes as a torn tail.)
        fs.failNext(.write, .partialThenFail(4, EIO))
        #expect {
            try store.commit(bigSave())
        } throws: { ($0 as? ObjectGraphError)?.reason == .storeWriteFailed }
        #expect(try Data(contentsOf: url) == before)
        try store.commit(bigSave())
        try expectSavedWhole(store)
    }

    /// 20,000 expenses saved (their line spills) and then all updated by a batch update
    /// (a batch line, or partial rows at 64 bytes each by the estimate, which spill too), with
    /// history tracked or not (the line's head then holds `bundle` and `pid`): the file
    /// verifies, and a fresh store reads the same rows and history as one that received the
    /// same update as saved patches (the batch-line tests' comparison, at a size that spills).
    @Test(arguments: [false, true], [false, true])
    func spilledSavesAndBatchUpdatesReadBackAsSaved(history: Bool, batchLine: Bool) throws {
        var options = FileStoreFixtures.options(identifier: "S")
        options.tracksHistory = history
        let expenses = (1...20_000).map { rows.expense(Int64($0), seed: $0) }
        let urls = ["batch", "save"].map { directory.appendingPathComponent("\($0).jsonl") }
        let stores = try urls.map { try JSONLinesStore(model: model, url: $0, options: options) }
        defer { for store in stores { store.close() } }
        for store in stores {
            try store.commit(
                StoreChangeSet(inserted: expenses, timestamp: Date(timeIntervalSince1970: 1)))
        }
        stores[0].writesBatchLines = batchLine
        let entity = try #require(model[entityName: "Expense"])
        let cleared = try #require(entity.attributesByName["cleared"])
        let title = try #require(entity.attributesByName["title"])
        let updated = try stores[0].batchUpdate(
            RowBatchUpdate(
                entity: entity, predicate: nil, includesSubentities: true,
                updates: [(cleared, .constant(.boolean(true))), (title, .constant(.string("t")))],
                author: "batch", contextName: "worker", timestamp: Date(timeIntervalSince1970: 9)
            ))
        #expect(updated.count == 20_000)
        let slots = [cleared.index, title.index].sorted()
        let values: [Int: StoreValue] = [
            cleared.index: .attribute(.boolean(true)), title.index: .attribute(.string("t")),
        ]
        try stores[1].commit(
            StoreChangeSet(
                patched: expenses.map {
                    StoreRowPatch(
                        objectID: $0.objectID, version: 2, slots: slots,
                        values: slots.map { values[$0]! })
                }, author: "batch", contextName: "worker",
                timestamp: Date(timeIntervalSince1970: 9)))
        for url in urls { #expect(JSONLinesStore.verify(at: url).isHealthy) }
        let reopened = try urls.map {
            try JSONLinesStore(model: model, url: $0, options: options)
        }
        defer { for store in reopened { store.close() } }
        let saved = try FileStoreFixtures.allRows(reopened[1])
        #expect(saved.count == 20_000)
        #expect(try FileStoreFixtures.allRows(reopened[0]) == saved)
        if history {
            let batchHistory = try reopened[0].history(after: nil)
            #expect(batchHistory.count == 2)
            #expect(
                batchHistory.last?.changes == (try reopened[1].history(after: nil).last?.changes))
        }
    }

    /// A reader following the file while a large line arrives part by part (as a spilling
    /// writer writes it) looks ten times before the line's LF: it scans each new piece for an
    /// LF once and reads the line whole once, ≈ 2 line lengths in all. (Reading the whole
    /// tail at every look, as it did, read ≈ 5.5 line lengths here, and a 15 MB line once per
    /// look; the spill review.) Then it applies the line.
    @Test func aReaderScansAGrowingTailOncePerPiece() throws {
        let url = directory.appendingPathComponent("s.jsonl")
        let writer = try open("s.jsonl")
        try writer.commit(
            StoreChangeSet(
                inserted: [rows.row("Category", 1, ["name": .attribute(.string("Food"))])],
                timestamp: Date()))
        writer.close()
        let copy = directory.appendingPathComponent("copy.jsonl")
        try FileManager.default.copyItem(at: url, to: copy)
        var changes = bigSave()
        changes.inserted.removeFirst()
        let other = try open("copy.jsonl")
        try other.commit(changes)
        other.close()
        let start = try Data(contentsOf: url).count
        let line = try Data(contentsOf: copy)[start...]
        #expect(line.last == 0x0A && line.count > LineSpill.minimumBytes)

        let fs = FaultInjectingFileSystem()
        let reader = try JSONLinesStore(
            model: model, url: url,
            options: FileStoreFixtures.options(identifier: "S", readOnly: true), fileSystem: fs)
        defer { reader.close() }
        let expenses = StoreFetchRequest(entity: model[entityName: "Expense"]!)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let readBefore = fs.bytesRead
        for piece in 1...10 {
            let from = line.startIndex + line.count * (piece - 1) / 10
            let to = line.startIndex + line.count * piece / 10
            try handle.seekToEnd()
            try handle.write(contentsOf: line[from..<to])
            let seen = try reader.fetch(expenses).count
            #expect(seen == (piece == 10 ? 12_000 : 0))
        }
        let read = fs.bytesRead - readBefore
        #expect(read < line.count * 22 / 10, "\(read) bytes read for a line of \(line.count)")
    }

    /// Closes `store` (on `s.jsonl`), whose last save held the 12,000 expenses: the file
    /// verifies and reopens with all of them.
    private func expectSavedWhole(_ store: JSONLinesStore) throws {
        store.close()
        #expect(JSONLinesStore.verify(at: directory.appendingPathComponent("s.jsonl")).isHealthy)
        let reopened = try open("s.jsonl")
        #expect(
            try reopened.fetch(StoreFetchRequest(entity: model[entityName: "Expense"]!)).count
                == 12_000)
    }
}
