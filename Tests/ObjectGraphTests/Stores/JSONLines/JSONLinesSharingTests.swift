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

    @Test func aSecondWriterIsRefusedAtOnceUntilTheFirstCloses() throws {
        // B41
        let first = try open()
        let lockFile = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: url.path + ".lock")), as: UTF8.self)
        // The writer's pid, then where the file ends (StoreFileFormat.md §6.5).
        #expect(
            lockFile
                == "\(getpid())\nend 0 \(try fileSize()) 6B0F5C2E-0000-4000-8000-000000000001\n")
        #expect { try open() } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .storeLocked && e.message.contains("this process")
                && e.message.contains(url.path)
        }
        #expect { try open(lockTimeout: 0.05) } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeLocked
                && ($0 as? ObjectGraphError)?.message.contains("waiting") == true
        }
        let reader = try open(readOnly: true)
        #expect(try reader.count(tags) == 0, "a reader opens beside the writer")
        first.close()
        let second = try open()
        try second.commit(StoreChangeSet(inserted: [rows.row("Tag", 1)], timestamp: Date()))
        #expect(try reader.count(tags) == 1)
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
        let second = try JSONLinesStore(model: model, url: url, options: options, fileSystem: fs)
        #expect(released.count >= 3)
        second.close()
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
            number: number, keys: [], codec: codec, to: w)
        return Data(w.array)
    }
}
