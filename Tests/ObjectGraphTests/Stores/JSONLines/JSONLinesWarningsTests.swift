import Foundation
import Testing

@testable import ObjectGraph

/// What is not damage but must be said (issue 14): a torn last line is reported once by
/// every opening while no writer holds the file, and by `verify` as a warning, and never while
/// a writer holds it (it is then a save in progress); a file cut at a line boundary is noticed
/// through the end its writer recorded in `FILE.lock` (warned about, never refused); a
/// leftover `FILE.tmp` is mentioned by readers and removed by the next writer.
@Suite struct JSONLinesWarningsTests {
    let fixture: FileStoreFixtures.NoteFile
    var model: ManagedObjectModel { fixture.model }
    var url: URL { fixture.url }

    init() throws { fixture = try FileStoreFixtures.NoteFile() }

    private func open(readOnly: Bool = false) throws -> JSONLinesStore {
        try JSONLinesStore(
            model: model, url: url,
            options: FileStoreFixtures.options(identifier: "S", readOnly: readOnly))
    }

    /// A closed store with transactions 1…`count`, one note each.
    private func makeFile(_ count: Int) throws -> [UInt8] {
        let store = try open()
        for n in 1...count {
            try store.commit(
                StoreChangeSet(
                    inserted: [FileStoreFixtures.note(model, Int64(n), "n\(n)")],
                    timestamp: Date()))
        }
        store.close()
        return Array(try Data(contentsOf: url))
    }

    private func append(_ bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    @Test func aTornLastLineIsReportedOnceWhileNoWriterHoldsTheFile() throws {
        let good = try makeFile(2)
        let writer = try open()
        // The writer is appending a line: a reader and verify see part of it, and say nothing.
        try append(Array("{\"t\":3,\"at\":7.0,\"ins\":[[\"Note\",3,1,\"x".utf8))
        let reader = try open(readOnly: true)
        #expect(reader.recoveryNotices.isEmpty)
        reader.close()
        let during = JSONLinesStore.verify(at: url)
        #expect(during.isHealthy && during.warnings.isEmpty)
        writer.close()
        // The writer is gone (as if killed): the torn line is an interrupted save.
        let later = try open(readOnly: true)
        #expect(later.recoveryNotices.count == 1)
        #expect(later.recoveryNotices.first?.contains("line 4: incomplete last line") == true)
        #expect(try later.count(StoreFetchRequest(entity: model.entities[0])) == 2)
        later.close()
        let report = JSONLinesStore.verify(at: url)
        #expect(report.isHealthy)
        #expect(report.warnings.map(\.line) == [4])
        // The next writer drops it, says so, and from then on nobody mentions it.
        let next = try open()
        #expect(next.recoveryNotices.count == 1 && next.recoveryNotices[0].contains("dropped"))
        next.close()
        #expect(Array(try Data(contentsOf: url)) == good)
        #expect(try open(readOnly: true).recoveryNotices.isEmpty)
        #expect(JSONLinesStore.verify(at: url).warnings.isEmpty)
    }

    @Test func aFileCutAtALineBoundaryIsNoticedAndStillOpens() throws {
        let bytes = try makeFile(5)
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        let cut = Array(bytes[...lfs[3]])  // header and transactions 1…3
        try Data(cut).write(to: url)
        let reader = try open(readOnly: true)
        #expect(reader.recoveryNotices.count == 1)
        #expect(
            reader.recoveryNotices.first?.contains(
                "ends at transaction 3 (line 4), but notes.jsonl.lock records that its writer "
                    + "reached transaction 5: the last 2 transactions are missing") == true)
        #expect(try reader.count(StoreFetchRequest(entity: model.entities[0])) == 3)
        reader.close()
        let report = JSONLinesStore.verify(at: url)
        #expect(report.isHealthy && report.warnings.count == 1 && report.warnings[0].line == nil)
        // A writer warns too, then accepts the file as it is: its end is recorded again.
        let writer = try open()
        #expect(writer.recoveryNotices.contains { $0.contains("2 transactions are missing") })
        try writer.commit(
            StoreChangeSet(
                inserted: [FileStoreFixtures.note(model, 9, "after")], timestamp: Date()))
        writer.close()
        #expect(try open(readOnly: true).recoveryNotices.isEmpty)
        #expect(JSONLinesStore.verify(at: url).warnings.isEmpty)
    }

    @Test func compactionRepairAndCopiesKeepTheRecordedEndCoherent() throws {
        let bytes = try makeFile(4)
        let compacting = try open()
        try compacting.compact()
        compacting.close()
        #expect(JSONLinesStore.verify(at: url).warnings.isEmpty, "after compaction")
        // A repair that sets lines aside lowers the recorded end with them.
        try Data(bytes).write(to: url)
        var damaged = bytes
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        damaged[lfs[3] - 20] ^= 0x01  // line 4 (transaction 3)
        try Data(damaged).write(to: url)
        let repaired = try JSONLinesStore.repair(at: url)
        #expect(repaired.firstDamagedLine == 4)
        #expect(JSONLinesStore.verify(at: url).warnings.isEmpty, "after a repair")
        // A copy made with its lock file is checked as the original; one made without it
        // cannot be (nothing records its end).
        let copy = url.deletingLastPathComponent().appendingPathComponent("copy.jsonl")
        try Data(bytes[...lfs[2]]).write(to: copy)
        #expect(JSONLinesStore.verify(at: copy).warnings.isEmpty, "no lock file: no record")
        try FileManager.default.copyItem(
            atPath: url.path + ".lock", toPath: copy.path + ".lock")
        #expect(JSONLinesStore.verify(at: copy).warnings.isEmpty, "the record says 2, as the copy")
    }

    @Test func aLeftoverTemporaryFileIsMentionedAndTheNextWriterRemovesIt() throws {
        _ = try makeFile(1)
        try Data(repeating: 0x41, count: 321).write(to: URL(fileURLWithPath: url.path + ".tmp"))
        let reader = try open(readOnly: true)
        #expect(
            reader.recoveryNotices == [
                "store \(url.path): notes.jsonl.tmp (321 bytes) is left over from an interrupted compaction or repair; the next writer removes it"
            ])
        reader.close()
        let report = JSONLinesStore.verify(at: url)
        #expect(report.isHealthy && report.warnings.count == 1)
        let writer = try open()
        #expect(writer.recoveryNotices.count == 1 && writer.recoveryNotices[0].contains("removed"))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".tmp"))
        // While a writer holds the file, its own temporary file is work in progress.
        try Data([0x41]).write(to: URL(fileURLWithPath: url.path + ".tmp"))
        #expect(try open(readOnly: true).recoveryNotices.isEmpty)
        writer.close()
    }
}
