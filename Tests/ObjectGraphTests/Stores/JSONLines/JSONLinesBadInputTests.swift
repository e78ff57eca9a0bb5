import Foundation
import Testing

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs that once misbehaved: replacements that lost the file's permissions, a repair that
/// did not refuse what compaction refuses, and a many-megabyte torn tail.
@Suite struct JSONLinesBadInputTests {
    let fixture: FileStoreFixtures.NoteFile
    var model: ManagedObjectModel { fixture.model }
    var directory: URL { fixture.directory }
    var url: URL { fixture.url }

    init() throws { fixture = try FileStoreFixtures.NoteFile() }

    private func note(_ pk: Int64, _ title: String, version: Int64 = 1) -> StoreRow {
        FileStoreFixtures.note(model, pk, title, version: version)
    }

    private func options(readOnly: Bool = false) -> StoreOptions {
        var options = FileStoreFixtures.options(readOnly: readOnly)
        options.storeIdentifier = "S"
        options.automaticCompaction = false
        return options
    }

    /// A closed store of two transactions (three rows).
    @discardableResult
    private func makeFile() throws -> [UInt8] {
        let store = try JSONLinesStore(model: model, url: url, options: options())
        try store.commit(
            StoreChangeSet(
                inserted: [note(1, "a"), note(2, "b")], timestamp: Date(timeIntervalSince1970: 1)))
        try store.commit(
            StoreChangeSet(inserted: [note(3, "c")], timestamp: Date(timeIntervalSince1970: 2)))
        store.close()
        return Array(try Data(contentsOf: url))
    }

    private func access(_ path: String) throws -> (mode: UInt32, user: UInt32, group: UInt32) {
        var s = stat()
        guard stat(path, &s) == 0 else {
            throw FileSystemError(operation: "stat", path: path, code: errno)
        }
        return (UInt32(s.st_mode) & 0o7777, UInt32(s.st_uid), UInt32(s.st_gid))
    }

    /// Gives `path` mode 0600 and, when this process may (root), another owner and group.
    /// Returns the access the file then has.
    private func restrict(_ path: String) throws -> (mode: UInt32, user: UInt32, group: UInt32) {
        #expect(chmod(path, 0o600) == 0)
        _ = chown(path, 4242, 4343)  // refused unless root: the owner then stays ours
        return try access(path)
    }

    private func sidecars() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.contains(".corrupt-") }
    }

    @Test func compactionKeepsThePermissionsAndOwnerOfTheFile() throws {
        try makeFile()
        let before = try restrict(url.path)
        #expect(before.mode == 0o600)
        let store = try JSONLinesStore(model: model, url: url, options: options())
        let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber]
        try store.compact()
        store.close()
        // A new file replaced the old one, with the same access.
        #expect(
            try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
                != inode as? Int)
        let after = try access(url.path)
        #expect(after == before)
    }

    @Test func repairKeepsThePermissionsAndOwnerOfTheFileAndTheSidecar() throws {
        var bytes = try makeFile()
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        bytes[lfs[2] - 5] ^= 1  // line 3, the second transaction
        try Data(bytes).write(to: url)
        let before = try restrict(url.path)
        let result = try JSONLinesStore.repair(at: url, options: options())
        let sidecar = try #require(result.sidecarURL)
        #expect(result.firstDamagedLine == 3)
        #expect(try access(url.path) == before)
        #expect(try access(sidecar.path) == before)
    }

    @Test func repairRefusesAReadOnlyStoreAsCompactionDoes() throws {
        var bytes = try makeFile()
        bytes[bytes.count - 5] ^= 1
        try Data(bytes).write(to: url)
        let reader = try? JSONLinesStore(model: model, url: url, options: options(readOnly: true))
        #expect(reader == nil)  // damaged: even a reader refuses it; repair is what is asked
        #expect { try JSONLinesStore.repair(at: url, options: options(readOnly: true)) } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .readOnlyStore && e.message.contains("read-only; cannot repair")
        }
        #expect(Array(try Data(contentsOf: url)) == bytes)
        #expect(try sidecars().isEmpty)
    }

    @Test func repairRefusesAFileItMayNotWriteWithTheCodeOfAWriterOpen() throws {
        var bytes = try makeFile()
        let fs = FaultInjectingFileSystem()
        // A healthy file a writer may not open: opening the store fails with 134080 …
        fs.failNext(.open, .fail(EACCES))
        #expect {
            try JSONLinesStore(model: model, url: url, options: options(), fileSystem: fs)
        } throws: { ($0 as? ObjectGraphError)?.reason == .storeOpenFailed }
        // … and so does repairing a damaged one, which moves nothing aside.
        bytes[bytes.count - 5] ^= 1
        try Data(bytes).write(to: url)
        fs.failNext(.open, .fail(EACCES))
        #expect {
            try JSONLinesStore.repair(at: url, options: options(), fileSystem: fs)
        } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .storeOpenFailed && e.message.contains("opening the file")
        }
        #expect(Array(try Data(contentsOf: url)) == bytes)
        #expect(try sidecars().isEmpty)
        // Once it may, the repair goes ahead.
        #expect(try JSONLinesStore.repair(at: url, options: options(), fileSystem: fs).didRepair)
    }

    @Test func aTwentyMegabyteTornTailIsReportedAndDropped() throws {
        let good = try makeFile()
        // A save of many rows cut short: a long unterminated line, with no LF anywhere.
        var tail = Array("{\"t\":3,\"at\":3.0,\"ins\":[".utf8)
        let row = Array("[\"Note\",9,1,\"0123456789abcdefghijklmnopqrstuvwxyz\",9],".utf8)
        while tail.count < 20 << 20 { tail += row }
        try Data(good + tail).write(to: url)

        let reader = try JSONLinesStore(model: model, url: url, options: options(readOnly: true))
        #expect(
            reader.recoveryNotices == [
                "store \(url.path): line 4: incomplete last line (\(tail.count) bytes): a save was "
                    + "interrupted before it completed, so it is not part of the store (the next "
                    + "writer removes it)"
            ])
        #expect(try reader.count(StoreFetchRequest(entity: model[entityName: "Note"]!)) == 3)

        let writer = try JSONLinesStore(model: model, url: url, options: options())
        #expect(writer.recoveryNotices.count == 1)
        #expect(
            writer.recoveryNotices.first?.contains(
                "dropped the torn last line 4 (\(tail.count) bytes") == true)
        #expect(Array(try Data(contentsOf: url)) == good)
        writer.close()
        reader.close()
    }

    @Test func aFollowingReaderLeavesALongTornTailForLater() throws {
        let good = try makeFile()
        let reader = try JSONLinesStore(model: model, url: url, options: options(readOnly: true))
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x61, count: 20 << 20))
        try handle.close()
        let notes = StoreFetchRequest(entity: model[entityName: "Note"]!)
        #expect(try reader.count(notes) == 3)
        #expect(try reader.count(notes) == 3)
        reader.close()
        #expect(try Data(contentsOf: url).count == good.count + 20 << 20)
    }
}
