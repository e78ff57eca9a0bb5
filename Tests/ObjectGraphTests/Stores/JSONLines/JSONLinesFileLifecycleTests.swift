import Foundation
import Testing

@testable import ObjectGraph

/// Creating, undoing and locking a store file (issue 14, "Lost acknowledged writes"): a file
/// is created only with the lock held and never over another; only an untouched file this
/// store created is removed, under the lock; the lock file is never removed, and a writer
/// whose lock file was removed stops writing. What is not a regular file is refused before
/// anything is locked or read; a symbolic link is followed, never replaced.
@Suite struct JSONLinesFileLifecycleTests {
    let fixture: FileStoreFixtures.NoteFile
    var model: ManagedObjectModel { fixture.model }
    var directory: URL { fixture.directory }
    var url: URL { fixture.url }

    init() throws { fixture = try FileStoreFixtures.NoteFile() }

    private func open(_ url: URL? = nil, readOnly: Bool = false) throws -> JSONLinesStore {
        var options = StoreOptions()
        options.storeIdentifier = "S"
        options.isReadOnly = readOnly
        return try JSONLinesStore(model: model, url: url ?? self.url, options: options)
    }

    private func save(_ store: JSONLinesStore, _ pk: Int64) throws {
        try store.commit(
            StoreChangeSet(
                inserted: [FileStoreFixtures.note(model, pk, "n\(pk)")], timestamp: Date()))
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func anUntouchedFileTheStoreCreatedIsRemovedAndItsLockFileStays() throws {
        let store = try open()
        #expect(store.didCreateFile)
        #expect(store.closeRemovingCreatedFile())
        #expect(!exists(url.path))
        #expect(exists(url.path + ".lock"), "the lock file is never removed")
        // The next writer takes the same lock file and creates the file again.
        let again = try open()
        #expect(again.didCreateFile)
        try save(again, 1)
        again.close()
        #expect(
            try open(readOnly: true).fetch(StoreFetchRequest(entity: model.entities[0])).count == 1)
    }

    @Test func aFileWithASaveOrCreatedByAnotherIsNeverRemoved() throws {
        let first = try open()
        try save(first, 1)
        #expect(!first.closeRemovingCreatedFile(), "it holds a save")
        #expect(exists(url.path))
        let second = try open()
        #expect(!second.didCreateFile)
        #expect(!second.closeRemovingCreatedFile(), "another store created it")
        #expect(exists(url.path))
    }

    @Test func aFileReplacedAtThePathIsNotRemoved() throws {
        let store = try open()
        // Another file now has the name (someone who ignores the lock moved it there).
        let other = directory.appendingPathComponent("other.jsonl")
        try Data("x".utf8).write(to: other)
        _ = rename(other.path, url.path)
        #expect(!store.closeRemovingCreatedFile())
        #expect(try String(contentsOf: url, encoding: .utf8) == "x")
    }

    @Test func creatingNeverReplacesAFileThatAppearsMeanwhile() throws {
        // Between the lock and the link, a process that ignores the lock creates the file.
        let fs = SimulatedFileSystem()
        let path = "/sim/notes.jsonl"
        fs.beforeLink = { fs in fs.setContents(path, Array("theirs\n".utf8)) }
        #expect(throws: ObjectGraphError.self) {
            try JSONLinesStore(
                model: model, url: URL(fileURLWithPath: path), options: StoreOptions(),
                fileSystem: fs)
        }
        #expect(fs.contents(path) == Array("theirs\n".utf8), "their file is untouched")
        #expect(!fs.paths.contains(path + ".tmp"))
    }

    @Test func aWriterWhoseLockFileWasRemovedRefusesToWriteAndTheNewWriterWorks() throws {
        let a = try open()
        try save(a, 1)
        try FileManager.default.removeItem(atPath: url.path + ".lock")
        let b = try open()
        try save(b, 2)
        #expect {
            try save(a, 3)
        } throws: { error in
            let e = error as? ObjectGraphError
            return e?.reason == .storeLockLost && e?.message.contains("lock file") == true
        }
        #expect {
            try a.compact()
        } throws: { error in (error as? ObjectGraphError)?.reason == .storeOperationFailed }
        a.close()
        try save(b, 3)
        b.close()
        let rows = try open(readOnly: true).fetch(StoreFetchRequest(entity: model.entities[0]))
        #expect(Set(rows.map(\.objectID.primaryKey)) == [1, 2, 3])
    }

    @Test(arguments: ["fifo", "directory", "/dev/zero", "/dev/null"])
    func whatIsNotARegularFileIsRefusedBeforeItIsLockedOrRead(kind: String) throws {
        let path: String
        switch kind {
        case "fifo":
            path = directory.appendingPathComponent("pipe.jsonl").path
            #expect(mkfifo(path, 0o644) == 0)
        case "directory":
            path = directory.appendingPathComponent("dir.jsonl").path
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: false)
        default:
            path = kind
        }
        let hadLock = exists(path + ".lock")
        let target = URL(fileURLWithPath: path)
        func refused(_ error: any Error) -> Bool {
            guard let e = error as? ObjectGraphError else { return false }
            return e.reason == .storeOpenFailed && e.message.contains("not a regular file")
                && !e.message.contains("permission")
        }
        #expect(performing: { try open(target) }, throws: refused)
        #expect(performing: { try open(target, readOnly: true) }, throws: refused)
        #expect(performing: { try JSONLinesStore.metadata(at: target) }, throws: refused)
        #expect(performing: { try JSONLinesStore.repair(at: target) }, throws: refused)
        let report = JSONLinesStore.verify(at: target)
        #expect(report.problems.first?.message.contains("not a regular file") == true)
        #expect(exists(path + ".lock") == hadLock, "no lock file is created beside it")
    }

    @Test func compactingThroughASymbolicLinkCompactsTheTargetAndKeepsTheLink() throws {
        let link = directory.appendingPathComponent("link.jsonl")
        let store = try open()
        try save(store, 1)
        store.close()
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        let viaLink = try open(link)
        try save(viaLink, 2)
        try viaLink.compact()
        try save(viaLink, 3)
        viaLink.close()
        let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(!exists(link.path + ".lock"), "the target's lock file is the one used")
        let rows = try open(readOnly: true).fetch(StoreFetchRequest(entity: model.entities[0]))
        #expect(Set(rows.map(\.objectID.primaryKey)) == [1, 2, 3])
        #expect(try JSONLinesStore.metadata(at: url).baseTransactionNumber == 2)
    }
}
