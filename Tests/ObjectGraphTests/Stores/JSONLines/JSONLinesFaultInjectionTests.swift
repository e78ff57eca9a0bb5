import Foundation
import Testing

@testable import ObjectGraph

@Suite struct JSONLinesFaultInjectionTests {
    let model: ManagedObjectModel
    let url: URL
    let rows: FileStoreFixtures.Rows
    let fs = FaultInjectingFileSystem()

    init() throws {
        model = try FileStoreFixtures.model()
        url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("faults.jsonl")
        rows = FileStoreFixtures.Rows(
            model: model, store: FileStoreFixtures.options().storeIdentifier!)
    }

    private func open() throws -> JSONLinesStore {
        var options = FileStoreFixtures.options()
        options.automaticCompaction = false
        return try JSONLinesStore(model: model, url: url, options: options, fileSystem: fs)
    }

    private func seeded() throws -> JSONLinesStore {
        let store = try open()
        try store.commit(
            StoreChangeSet(
                inserted: [rows.row("Category", 1), rows.expense(1, seed: 1, category: 1)],
                timestamp: Date(timeIntervalSince1970: 1)))
        try store.commit(
            StoreChangeSet(
                updated: [rows.expense(1, version: 2, seed: 2, category: 1)],
                timestamp: Date(timeIntervalSince1970: 2)))
        return store
    }

    static let saveFaults: [(FaultInjectingFileSystem.Kind, FaultInjectingFileSystem.Fault)] = [
        (.write, .fail(EIO)), (.write, .partialThenFail(37, ENOSPC)), (.write, .fail(ENOSPC)),
        (.sync, .fail(EIO)),
    ]

    @Test(arguments: 0..<saveFaults.count)
    func aFailedSaveThrowsLeavesFileAndRowsUnchangedAndARetrySucceeds(_ index: Int) throws {
        let store = try seeded()
        let fileBefore = try Data(contentsOf: url)
        let rowsBefore = try FileStoreFixtures.allRows(store)
        let save = StoreChangeSet(
            inserted: [rows.expense(2, seed: 3, category: 1)],
            deleted: [(rows.id("Expense", 1), 2)],
            timestamp: Date(timeIntervalSince1970: 3))
        let (kind, fault) = Self.saveFaults[index]
        fs.failNext(kind, fault)
        #expect { try store.commit(save) } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeWriteFailed
        }
        #expect(try Data(contentsOf: url) == fileBefore, "the file is truncated back")
        #expect(try FileStoreFixtures.allRows(store) == rowsBefore)
        #expect(try store.statistics().lastTransactionNumber == 2)
        try store.commit(save)
        let rowsAfter = try FileStoreFixtures.allRows(store)
        store.close()
        let reopened = try open()
        #expect(try FileStoreFixtures.allRows(reopened) == rowsAfter)
        #expect(try reopened.statistics().lastTransactionNumber == 3)
        #expect(reopened.recoveryNotices.isEmpty)
    }

    @Test(arguments: 0..<saveFaults.count)
    func aBatchUpdateWhoseWriteFailsChangesNoRowNorByteAndARetrySucceeds(_ index: Int) throws {
        // The rows are updated in place only after the line is written and synced: a failed
        // write leaves every row (values and versions) as it was.
        let store = try seeded()
        let fileBefore = try Data(contentsOf: url)
        let rowsBefore = try FileStoreFixtures.allRows(store)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let update = BatchUpdateRequest(entityName: "Expense")
        update.propertiesToUpdate = [
            "ratio": try FetchExpression(format: "ratio * 1.2"), "title": "changed",
        ]
        let (kind, fault) = Self.saveFaults[index]
        fs.failNext(kind, fault)
        context.performAndWait {
            #expect { try context.execute(update) } throws: {
                ($0 as? ObjectGraphError)?.reason == .storeWriteFailed
            }
        }
        #expect(try Data(contentsOf: url) == fileBefore, "the file is truncated back")
        #expect(try FileStoreFixtures.allRows(store) == rowsBefore)
        try context.performAndWait { _ = try context.execute(update) }
        let rowsAfter = try FileStoreFixtures.allRows(store)
        let expense = try #require(rowsAfter[rows.id("Expense", 1)])
        #expect(expense.version == 3 && expense["title"] == .attribute(.string("changed")))
        store.close()
        let reopened = try open()
        #expect(try FileStoreFixtures.allRows(reopened) == rowsAfter)
    }

    @Test func aSaveWhoseRollbackAlsoFailsRefusesLaterSaves() throws {
        let store = try seeded()
        fs.failNext(.write, .partialThenFail(20, ENOSPC))
        fs.failNext(.truncate, .fail(EIO))
        let save = StoreChangeSet(
            inserted: [rows.expense(2, seed: 3)], timestamp: Date(timeIntervalSince1970: 3))
        #expect { try store.commit(save) } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeWriteFailed
        }
        #expect { try store.commit(save) } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeUnusable
                && ($0 as? ObjectGraphError)?.message.contains("reopen") == true
        }
        store.close()
        let reopened = try open()
        #expect(reopened.recoveryNotices.count == 1, "the partial line is torn and dropped")
        #expect(try reopened.statistics().lastTransactionNumber == 2)
        try reopened.commit(save)
    }

    static let compactionFaults: [(FaultInjectingFileSystem.Kind, FaultInjectingFileSystem.Fault)] =
        [
            (.write, .fail(EIO)), (.write, .partialThenFail(100, ENOSPC)), (.sync, .fail(EIO)),
            (.rename, .fail(EXDEV)),
        ]

    @Test(arguments: 0..<compactionFaults.count)
    func aFailedCompactionThrowsKeepsTheOldFileAndTheStoreWorks(_ index: Int) throws {
        // B38: a failed compaction is an error, not "done".
        let store = try seeded()
        let fileBefore = try Data(contentsOf: url)
        let (kind, fault) = Self.compactionFaults[index]
        fs.failNext(kind, fault)
        #expect { try store.compact() } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeOperationFailed
        }
        #expect(try Data(contentsOf: url) == fileBefore)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".tmp"))
        try store.commit(
            StoreChangeSet(
                inserted: [rows.row("Tag", 1)], timestamp: Date(timeIntervalSince1970: 3)))
        try store.compact()
        store.close()
        let reopened = try open()
        #expect(try reopened.statistics().transactionCount == 0)
        #expect(try reopened.row(for: rows.id("Tag", 1)) != nil)
    }

    @Test func aDirectorySyncFailureAfterTheRenameReportsButKeepsTheNewFile() throws {
        let store = try seeded()
        let before = try FileStoreFixtures.allRows(store)
        fs.failNext(.syncDirectory, .fail(EIO))
        #expect { try store.compact() } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeOperationFailed
                && ($0 as? ObjectGraphError)?.message.contains("compacted file is in place") == true
        }
        #expect(try store.statistics().transactionCount == 0)
        try store.commit(
            StoreChangeSet(
                inserted: [rows.row("Tag", 1)], timestamp: Date(timeIntervalSince1970: 3)))
        store.close()
        let reopened = try open()
        #expect(try FileStoreFixtures.allRows(reopened).count == before.count + 1)
    }

    @Test func aFailedCreationLeavesNoFile() throws {
        fs.failNext(.sync, .fail(EIO))
        #expect { try open() } throws: { ($0 as? ObjectGraphError)?.reason == .storeOpenFailed }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".tmp"))
        try open().close()
    }
}
