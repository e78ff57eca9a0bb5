import Foundation
import Testing

@testable import ObjectGraph

/// One writer at a time; readers beside it follow appends and compactions.
@Suite struct JSONLinesSharingTests {
    let model: ManagedObjectModel
    let url: URL
    let rows: FileStoreFixtures.Rows

    init() throws {
        model = try FileStoreFixtures.model()
        url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("shared.jsonl")
        rows = FileStoreFixtures.Rows(
            model: model, store: FileStoreFixtures.options().storeIdentifier!)
    }

    private func open(readOnly: Bool = false, lockTimeout: TimeInterval = 0) throws
        -> JSONLinesStore
    {
        var options = FileStoreFixtures.options(readOnly: readOnly)
        options.lockTimeout = lockTimeout
        return try JSONLinesStore(model: model, url: url, options: options)
    }

    private func fileSize() throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
    }

    private var tags: StoreFetchRequest { StoreFetchRequest(entity: model[entityName: "Tag"]!) }

    /// Opens the file as a writer of another process would (real `flock`, no sharing).
    private func openAsAnotherProcess(lockTimeout: TimeInterval = 0) throws -> JSONLinesStore {
        var options = FileStoreFixtures.options()
        options.lockTimeout = lockTimeout
        return try JSONLinesStore(
            model: model, url: url, options: options,
            fileSystem: FaultInjectingFileSystem(actingAsAnotherProcess: true))
    }

    @Test func aWriterOfAnotherProcessIsRefusedAtOnceUntilThisProcessCloses() throws {
        // B41
        let first = try open()
        let lockFile = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: url.path + ".lock")), as: UTF8.self)
        // The writer's pid, then where the file ends (StoreFileFormat.md §6.5).
        #expect(
            lockFile
                == "\(getpid())\nend 0 \(try fileSize()) 6B0F5C2E-0000-4000-8000-000000000001\n")
        #expect { try openAsAnotherProcess() } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .storeLocked && e.message.contains("process \(getpid())")
                && e.message.contains(url.path)
        }
        #expect { try openAsAnotherProcess(lockTimeout: 0.05) } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeLocked
                && ($0 as? ObjectGraphError)?.message.contains("waiting") == true
        }
        let reader = try open(readOnly: true)
        #expect(try reader.count(tags) == 0, "a reader opens beside the writer")
        let second = try open()  // this process's second writer shares the lock
        first.close()
        #expect { try openAsAnotherProcess() } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeLocked
        }
        second.close()
        let other = try openAsAnotherProcess()
        try other.commit(StoreChangeSet(inserted: [rows.row("Tag", 1)], timestamp: Date()))
        #expect(try reader.count(tags) == 1)
        other.close()
    }

    /// Core Data: two coordinators on one SQLite file in one process both write it, and each
    /// sees the other's saves at its next fetch (NSPersistentStoreCoordinator documentation:
    /// several coordinators may use one store file).
    @Test func twoWritersOfThisProcessShareTheLockAndSeeEachOthersSaves() throws {
        let a = try open()
        let b = try open()
        try a.commit(StoreChangeSet(inserted: [rows.row("Tag", 1)], timestamp: Date()))
        #expect(try b.fetch(tags).map(\.objectID.primaryKey) == [1])
        try b.commit(StoreChangeSet(inserted: [rows.row("Tag", 2)], timestamp: Date()))
        try a.commit(
            StoreChangeSet(
                updated: [rows.row("Tag", 2, version: 2, ["label": .attribute(.string("a"))])],
                timestamp: Date()))
        #expect(try b.row(for: rows.id("Tag", 2))?.version == 2)
        // A commit made against a row version the other writer already replaced conflicts.
        #expect {
            try b.commit(
                StoreChangeSet(
                    updated: [rows.row("Tag", 2, version: 2, ["label": .attribute(.string("b"))])],
                    timestamp: Date()))
        } throws: { ($0 as? ObjectGraphError)?.reason == .storeSaveConflict }
        try b.compact()
        try a.commit(StoreChangeSet(inserted: [rows.row("Tag", 3)], timestamp: Date()))
        #expect(try b.fetch(tags).map(\.objectID.primaryKey) == [1, 2, 3])
        #expect(try a.fetch(tags) == (try b.fetch(tags)))
        a.close()
        try b.commit(StoreChangeSet(deleted: [(rows.id("Tag", 1), 1)], timestamp: Date()))
        b.close()
        let reopened = try open()
        #expect(try reopened.fetch(tags).map(\.objectID.primaryKey) == [2, 3])
        #expect(try reopened.statistics().lastTransactionNumber == 5)
        reopened.close()
    }

    @Test func aStaleLockFromADeadWriterIsIgnored() throws {
        try open().close()
        try Data("999999\n".utf8).write(to: URL(fileURLWithPath: url.path + ".lock"))
        let store = try open()
        let lockFile = { () throws -> String in
            String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: url.path + ".lock")),
                as: UTF8.self)
        }
        let end = "end 0 \(try fileSize()) 6B0F5C2E-0000-4000-8000-000000000001\n"
        #expect(try lockFile() == "\(getpid())\n" + end)
        store.close()
        #expect(try lockFile() == "\n" + end, "closing empties the pid line and keeps the end")
    }

    @Test func aWaitingWriterGetsTheLockWhenItIsReleased() throws {
        let fs = SimulatedFileSystem()
        var options = FileStoreFixtures.options()
        options.lockTimeout = 5
        let first = try JSONLinesStore(model: model, url: url, options: options, fileSystem: fs)
        let released = ReleaseAfterAttempts(store: first, attempts: 3)
        fs.lockAttemptHook = { released.attempted() }
        // A repair never shares the lock: it waits, as another process's writer does.
        _ = try JSONLinesStore.repair(at: url, options: options, fileSystem: fs)
        #expect(released.count >= 3)
    }

    @Test func aReaderSeesNewTransactionsAndSurvivesCompaction() throws {
        let writer = try open()
        let reader = try open(readOnly: true)
        try writer.commit(
            StoreChangeSet(inserted: [rows.row("Tag", 1), rows.row("Tag", 2)], timestamp: Date()))
        #expect(try reader.fetch(tags).map(\.objectID.primaryKey) == [1, 2])
        try writer.commit(
            StoreChangeSet(
                updated: [rows.row("Tag", 1, version: 2, ["label": .attribute(.string("x"))])],
                deleted: [(rows.id("Tag", 2), 1)], timestamp: Date()))
        #expect(try reader.row(for: rows.id("Tag", 1))?.version == 2)
        #expect(try reader.row(for: rows.id("Tag", 2)) == nil)
        try writer.compact()
        #expect(try reader.fetch(tags) == (try writer.fetch(tags)))
        try writer.commit(StoreChangeSet(inserted: [rows.row("Tag", 3)], timestamp: Date()))
        #expect(try reader.count(tags) == 2)
        #expect(try reader.statistics().lastTransactionNumber == 3)
    }

    @Test func aReaderTreatsAnIncompleteLineAsNotYetWritten() throws {
        let writer = try open()
        try writer.commit(StoreChangeSet(inserted: [rows.row("Tag", 1)], timestamp: Date()))
        let reader = try open(readOnly: true)
        // Simulate a writer mid-append: half a line, then the rest.
        let line = try transactionLine(inserting: rows.row("Tag", 2), number: 2)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: line.prefix(20))
        #expect(try reader.count(tags) == 1)
        try handle.write(contentsOf: line.dropFirst(20))
        try handle.close()
        #expect(try reader.count(tags) == 2)
        #expect(try Data(contentsOf: url).suffix(line.count) == line, "the reader changed nothing")
    }

    private func transactionLine(inserting row: StoreRow, number: Int64) throws -> Data {
        let w = JSONByteWriter()
        let codec = RowCodec(model: model, storeIdentifier: rows.store, path: url.path)
        _ = try TransactionLine.write(
            StoreChangeSet(inserted: [row], timestamp: Date(timeIntervalSince1970: 9)),
            number: number, keys: [], codec: codec, patchWrites: PatchWrites(), to: w)
        return Data(w.array)
    }
}
