import Foundation
import Testing

@testable import ObjectGraph

/// The real file system with faults injected through the seam (sessions run as root, so
/// permissions cannot make I/O fail).
final class FaultInjectingFileSystem: StoreFileSystem, @unchecked Sendable {
    // Sendable: `faults` is guarded by `lock`; the wrapped file system is a stateless struct.
    enum Kind: Equatable { case write, sync, truncate, rename, syncDirectory }
    enum Fault {
        case fail(Int32)
        case partialThenFail(Int, Int32)
    }

    private let base = PosixFileSystem()
    private let lock = NSLock()
    private var faults: [(Kind, Fault)] = []

    /// Makes the next operation of `kind` fail (once).
    func failNext(_ kind: Kind, _ fault: Fault) {
        lock.lock()
        faults.append((kind, fault))
        lock.unlock()
    }

    private func take(_ kind: Kind) -> Fault? {
        lock.lock()
        defer { lock.unlock() }
        guard let i = faults.firstIndex(where: { $0.0 == kind }) else { return nil }
        return faults.remove(at: i).1
    }

    private func check(_ kind: Kind, _ what: String) throws {
        switch take(kind) {
        case .fail(let code)?, .partialThenFail(_, let code)?:
            throw FileSystemError(operation: what, path: "(injected)", code: code)
        case nil: return
        }
    }

    func open(_ path: String, _ mode: FileOpenMode) throws -> Int32 { try base.open(path, mode) }
    func close(_ fd: Int32) { base.close(fd) }
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int
    {
        try base.read(fd, into: buffer, at: offset)
    }
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int {
        switch take(.write) {
        case .fail(let code)?:
            throw FileSystemError(operation: "write", path: "(injected)", code: code)
        case .partialThenFail(let k, let code)?:
            _ = try base.write(
                fd, UnsafeRawBufferPointer(rebasing: bytes[..<min(k, bytes.count)]), at: offset)
            failNext(.write, .fail(code))  // the next attempt, for the rest, fails
            return min(k, bytes.count)
        case nil: return try base.write(fd, bytes, at: offset)
        }
    }
    func sync(_ fd: Int32) throws {
        try check(.sync, "fsync")
        try base.sync(fd)
    }
    func truncate(_ fd: Int32, to length: Int) throws {
        try check(.truncate, "ftruncate")
        try base.truncate(fd, to: length)
    }
    func status(_ fd: Int32) throws -> FileStatus { try base.status(fd) }
    func status(atPath path: String) throws -> FileStatus? { try base.status(atPath: path) }
    func rename(_ from: String, to: String) throws {
        try check(.rename, "rename")
        try base.rename(from, to: to)
    }
    func remove(_ path: String) throws { try base.remove(path) }
    func syncDirectory(of path: String) throws {
        try check(.syncDirectory, "fsync directory")
        try base.syncDirectory(of: path)
    }
    func tryLock(_ fd: Int32) throws -> Bool { try base.tryLock(fd) }
    func unlock(_ fd: Int32) { base.unlock(fd) }
    var processID: Int32 { base.processID }
    var namespace: Int { base.namespace }
}

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
        #expect { try store.commit(save) } throws: { ($0 as? ObjectGraphError)?.code == .storeSave }
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

    @Test func aSaveWhoseRollbackAlsoFailsRefusesLaterSaves() throws {
        let store = try seeded()
        fs.failNext(.write, .partialThenFail(20, ENOSPC))
        fs.failNext(.truncate, .fail(EIO))
        let save = StoreChangeSet(
            inserted: [rows.expense(2, seed: 3)], timestamp: Date(timeIntervalSince1970: 3))
        #expect { try store.commit(save) } throws: { ($0 as? ObjectGraphError)?.code == .storeSave }
        #expect { try store.commit(save) } throws: {
            ($0 as? ObjectGraphError)?.code == .storeSave
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
            ($0 as? ObjectGraphError)?.code == .storeOperation
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
            ($0 as? ObjectGraphError)?.code == .storeOperation
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
        #expect { try open() } throws: { ($0 as? ObjectGraphError)?.code == .storeOpen }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".tmp"))
        try open().close()
    }
}

@Suite struct JSONLinesContextSaveTests {
    @Test func aContextWhoseSaveFailsKeepsItsChangesAndARetrySucceeds() throws {
        let model = try ExpenseModel.make()
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("context.jsonl")
        let fs = FaultInjectingFileSystem()
        let store = try JSONLinesStore(
            model: model, url: url, options: StoreOptions(), fileSystem: fs)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let before = try Data(contentsOf: url)
        try context.performAndWait {
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            fs.failNext(.write, .partialThenFail(50, ENOSPC))
            #expect { try context.save() } throws: { ($0 as? ObjectGraphError)?.code == .storeSave }
            #expect(context.hasChanges && context.insertedObjects.count == 1)
            #expect(food.name == "Food")
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(try Data(contentsOf: url).count > before.count)
        store.close()
        let reopened = try JSONLinesStore(model: model, url: url)
        let names = try reopened.fetch(StoreFetchRequest(entity: model[entityName: "Category"]!))
            .map { $0["name"]?.attributeValue }
        #expect(names == [.string("Food")])
    }
}
