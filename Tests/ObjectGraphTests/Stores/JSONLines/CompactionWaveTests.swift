import Foundation
import Testing

@testable import ObjectGraph

/// A compaction writes its snapshot to the temporary file in waves of rows, each encoded
/// across cores and written before the next, instead of holding the whole snapshot: the file
/// has the bytes of the snapshot encoded whole, progress is reported at the same counts, and
/// a failure in a later wave leaves the file as it was, as a failure always did.
@Suite struct CompactionWaveTests {
    let model: ManagedObjectModel
    let rows: FileStoreFixtures.Rows
    let directory: URL

    init() throws {
        model = try FileStoreFixtures.model()
        rows = FileStoreFixtures.Rows(model: model, store: "S")
        directory = try FileStoreFixtures.temporaryDirectory()
    }

    /// Enough expenses for three waves or more on any number of cores (and more than the
    /// single-wave limit).
    private var expenseCount: Int {
        max(ParallelChunks.threshold, 2 * JSONLinesStore.compactionWaveRows) + 1_000
    }

    private func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// A store at `name` holding a category and ``expenseCount`` expenses, a tenth of them
    /// updated (so that there is something to compact away).
    private func filledStore(
        _ name: String, fileSystem: (any StoreFileSystem)? = nil, history: Bool = false
    ) throws -> JSONLinesStore {
        var options = FileStoreFixtures.options(identifier: "S")
        options.tracksHistory = history
        let store =
            try fileSystem.map {
                try JSONLinesStore(model: model, url: url(name), options: options, fileSystem: $0)
            } ?? JSONLinesStore(model: model, url: url(name), options: options)
        try store.commit(
            StoreChangeSet(
                inserted: [rows.row("Category", 1, ["name": .attribute(.string("Food"))])]
                    + (1...expenseCount).map { rows.expense(Int64($0), seed: $0, category: 1) },
                timestamp: Date(timeIntervalSinceReferenceDate: 7_000_000)))
        try store.commit(
            StoreChangeSet(
                updated: stride(from: 1, through: expenseCount, by: 10).map {
                    rows.expense(Int64($0), version: 2, seed: $0 + 3, category: 1)
                }, timestamp: Date(timeIntervalSinceReferenceDate: 7_000_001)))
        return store
    }

    @Test func aSnapshotWrittenInWavesHasTheBytesOfOneEncodedWhole() throws {
        let fs = FaultInjectingFileSystem()
        let store = try filledStore("w.jsonl", fileSystem: fs)
        let whole = JSONByteWriter()
        try store.codec.writeSnapshotLines(store.table.allRows(), to: whole, parallelAbove: .max)
        let rowsBefore = try FileStoreFixtures.allRows(store)
        let writesBefore = fs.writeCount
        try store.compact()
        // One write a wave (the header goes with the first).
        let waves =
            (expenseCount + 1 + JSONLinesStore.compactionWaveRows - 1)
            / JSONLinesStore.compactionWaveRows
        #expect(waves >= 3)
        #expect(fs.writeCount - writesBefore >= waves)
        store.close()
        let bytes = try [UInt8](Data(contentsOf: url("w.jsonl")))
        let headerEnd = try #require(bytes.firstIndex(of: 0x0A)) + 1
        #expect(Array(bytes[headerEnd...]) == [UInt8](whole.bytes))
        #expect(JSONLinesStore.verify(at: url("w.jsonl")).isHealthy)
        let reopened = try JSONLinesStore(
            model: model, url: url("w.jsonl"), options: FileStoreFixtures.options(identifier: "S"))
        defer { reopened.close() }
        #expect(try FileStoreFixtures.allRows(reopened) == rowsBefore)
        #expect(try reopened.statistics().snapshotRowCount == expenseCount + 1)
    }

    /// The history the store keeps follows a snapshot written in waves, and the file's
    /// recorded length, rows' end and history's bytes are right: the next commit appends where
    /// the file ends, and a reopened store reads the rows and every transaction.
    @Test func aStoreWithHistoryCompactedInWavesTakesTheNextCommitAndReopens() throws {
        let store = try filledStore("h.jsonl", history: true)
        #expect(try store.history(after: nil).count == 2)
        try store.compact()
        try store.commit(
            StoreChangeSet(
                updated: [rows.expense(5, version: 2, seed: 99, category: 1)],
                timestamp: Date(timeIntervalSinceReferenceDate: 7_000_002)))
        let rowsAfter = try FileStoreFixtures.allRows(store)
        store.close()
        #expect(JSONLinesStore.verify(at: url("h.jsonl")).isHealthy)
        var options = FileStoreFixtures.options(identifier: "S")
        options.tracksHistory = true
        let reopened = try JSONLinesStore(model: model, url: url("h.jsonl"), options: options)
        defer { reopened.close() }
        #expect(try FileStoreFixtures.allRows(reopened) == rowsAfter)
        #expect(try reopened.history(after: nil).count == 3)
        #expect(try reopened.statistics().snapshotRowCount == expenseCount + 1)
    }

    /// Waves end where progress is reported: every `compactionProgressInterval` rows.
    @Test func progressIsReportedAtTheSameCountsAsWhenEncodedWhole() throws {
        let tags = JSONLinesStore.compactionProgressInterval + 4_321
        let store = try JSONLinesStore(
            model: model, url: url("p.jsonl"), options: FileStoreFixtures.options(identifier: "S"))
        defer { store.close() }
        try store.commit(
            StoreChangeSet(
                inserted: (1...tags).map {
                    rows.row("Tag", Int64($0), ["label": .attribute(.string("t\($0)"))])
                },
                timestamp: Date(timeIntervalSinceReferenceDate: 7_000_000)))
        var reports: [[Int]] = []
        try store.compact { reports.append([$0, $1]) }
        #expect(
            reports == [
                [0, tags], [JSONLinesStore.compactionProgressInterval, tags], [tags, tags],
            ])
        #expect(JSONLinesStore.verify(at: url("p.jsonl")).isHealthy)
    }

    @Test func aWriteThatFailsInALaterWaveLeavesTheFileAsItWas() throws {
        let fs = FaultInjectingFileSystem()
        let store = try filledStore("f.jsonl", fileSystem: fs)
        defer { store.close() }
        let before = try Data(contentsOf: url("f.jsonl"))
        let rowsBefore = try FileStoreFixtures.allRows(store)
        // The first wave is written; the second wave's write writes 100 bytes and fails.
        fs.beforeNextWrite {
            fs.beforeNextWrite { fs.failNext(.write, .partialThenFail(100, EIO)) }
        }
        #expect {
            try store.compact()
        } throws: { error in
            let e = error as? ObjectGraphError
            // A failed write, not an encoding failure (an error about the encoding would
            // name it).
            return e?.reason == .storeOperationFailed
                && e?.message.contains("compacting (the file is unchanged)") == true
                && e?.message.contains("encoding the snapshot") == false
        }
        #expect(try Data(contentsOf: url("f.jsonl")) == before)
        #expect(!FileManager.default.fileExists(atPath: url("f.jsonl").path + ".tmp"))
        #expect(try FileStoreFixtures.allRows(store) == rowsBefore)
        // The store keeps working, and compacts once writes succeed.
        try store.compact()
        #expect(try FileStoreFixtures.allRows(store) == rowsBefore)
        #expect(JSONLinesStore.verify(at: url("f.jsonl")).isHealthy)
    }

    /// A value that cannot be encoded, in the last wave, is reported as an encoding failure
    /// (as when the snapshot was encoded before the temporary file was written).
    @Test func aValueThatDoesNotFitInALaterWaveIsAnEncodingFailure() throws {
        let store = try filledStore("e.jsonl")
        defer { store.close() }
        let before = try Data(contentsOf: url("e.jsonl"))
        let amount = try #require(model[entityName: "Expense"]?.propertiesByName["amount"]).index
        var bad = rows.expense(Int64(expenseCount), version: 1, seed: expenseCount, category: 1)
        bad.values[amount] = .attribute(.string("twelve"))
        store.table.upsert(bad)
        #expect {
            try store.compact()
        } throws: { error in
            let e = error as? ObjectGraphError
            // Reported as such, not wrapped as a failed replacement of the file.
            return e?.reason == .storeOperationFailed
                && e?.message.contains("encoding the snapshot") == true
                && e?.message.contains("compacting") == false
        }
        #expect(try Data(contentsOf: url("e.jsonl")) == before)
        #expect(!FileManager.default.fileExists(atPath: url("e.jsonl").path + ".tmp"))
    }
}
