import Foundation
import Testing

@testable import ObjectGraph

/// The format's version plan (StoreFileFormat.md §0): version 1 files (instants as seconds
/// since 1970) are still read; a writer upgrades one to version 2 (seconds since 2001) before
/// its first write; a reader following it picks the new version up.
@Suite struct JSONLinesFormatVersionTests {
    let model: ManagedObjectModel
    let url: URL

    init() throws {
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Employee",
                properties: [
                    AttributeDescription(name: "hiredAt", type: .date),
                    AttributeDescription(name: "name", type: .string),
                ])
        ])
        url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("v1.jsonl")
    }

    /// A version-1 file as the library used to write it: header created at 1,700,000,000 s
    /// since 1970, one transaction at 1,700,000,100.5 inserting an employee hired at
    /// 1,625,097,599.5 s since 1970.
    private func writeVersion1File() throws -> [UInt8] {
        var header = StoreFileHeader(
            model: model, storeIdentifier: "S", created: Date(timeIntervalSince1970: 1_700_000_000))
        header.version = 1
        let w = JSONByteWriter()
        header.write(to: w)
        let start = w.count
        w.append(
            ascii:
                "{\"t\":1,\"at\":1700000100.5,\"ins\":[[\"Employee\",1,1,1625097599.5,\"Ann\"]]")
        LineFrame.finish(w, bodyStart: start)
        try Data(w.array).write(to: url)
        return w.array
    }

    private func options(readOnly: Bool) -> StoreOptions {
        var options = StoreOptions()
        options.isReadOnly = readOnly
        return options
    }

    private func hiredAt(_ store: JSONLinesStore) throws -> [Date] {
        try store.fetch(StoreFetchRequest(entity: model.entities[0])).compactMap {
            if case .date(let d) = $0.values[0].attributeValue { d } else { nil }
        }
    }

    @Test func aVersion1FileIsReadAsItWasWrittenAndLeftUnchangedByAReader() throws {
        let bytes = try writeVersion1File()
        let metadata = try JSONLinesStore.metadata(at: url)
        #expect(metadata.formatVersion == 1)
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_700_000_000))
        let reader = try JSONLinesStore(model: model, url: url, options: options(readOnly: true))
        #expect(try hiredAt(reader) == [Date(timeIntervalSince1970: 1_625_097_599.5)])
        reader.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        #expect(Array(try Data(contentsOf: url)) == bytes)
    }

    @Test func aWriterUpgradesAVersion1FileBeforeItsFirstWriteAndAReaderFollows() throws {
        _ = try writeVersion1File()
        let reader = try JSONLinesStore(model: model, url: url, options: options(readOnly: true))
        #expect(try hiredAt(reader).count == 1)
        let writer = try JSONLinesStore(model: model, url: url, options: options(readOnly: false))
        #expect(writer.recoveryNotices.contains { $0.contains("upgraded from format version 1") })
        let metadata = try JSONLinesStore.metadata(at: url)
        #expect(metadata.formatVersion == StoreFileVersion.current)
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(metadata.baseTransactionNumber == 1)
        #expect(try hiredAt(reader) == [Date(timeIntervalSince1970: 1_625_097_599.5)])
        let exact = Date(timeIntervalSinceReferenceDate: 646_790_399.999)
        let entity = model.entities[0]
        try writer.commit(
            StoreChangeSet(
                inserted: [
                    StoreRow(
                        objectID: ManagedObjectID(
                            entity: entity, storeIdentifier: "S", primaryKey: 2),
                        version: 1, values: [.attribute(.date(exact)), .attribute(.string("Bo"))])
                ], timestamp: Date()))
        // The reader reloaded the upgraded file; now it follows a line appended in version 2.
        let dates = try hiredAt(reader).sorted()
        #expect(dates.first == Date(timeIntervalSince1970: 1_625_097_599.5))
        #expect(
            dates.last?.timeIntervalSinceReferenceDate.bitPattern
                == exact.timeIntervalSinceReferenceDate.bitPattern)
        writer.close()
        reader.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"created\":721692800.0,"), "instants now count from 2001")
    }

    /// A version-3 file (no history members) as the library wrote it before version 4.
    private func writeVersion3File() throws {
        var header = StoreFileHeader(
            model: model, storeIdentifier: "S3",
            created: Date(timeIntervalSinceReferenceDate: 700_000_000))
        header.version = 3
        header.metadata = Array("{\"app\":\"x\"}".utf8)
        let w = JSONByteWriter()
        header.write(to: w)
        for (n, name) in ["Ann", "Bo"].enumerated() {
            let start = w.count
            w.append(
                raw:
                    "{\"t\":\(n + 1),\"at\":700000100.5,\"ins\":[[\"Employee\",\(n + 1),1,1.5,\"\(name)\"]]"
            )
            LineFrame.finish(w, bodyStart: start)
        }
        try Data(w.array).write(to: url)
    }

    @Test func aVersion3FileIsReadAndAWriterTurningHistoryOnUpgradesItAndStartsHistoryThere()
        throws
    {
        try writeVersion3File()
        #expect(try JSONLinesStore.metadata(at: url).formatVersion == 3)
        let reader = try JSONLinesStore(model: model, url: url, options: options(readOnly: true))
        #expect(try hiredAt(reader).count == 2)
        #expect(!reader.tracksHistory)
        reader.close()
        var tracked = options(readOnly: false)
        tracked.tracksHistory = true
        let writer = try JSONLinesStore(model: model, url: url, options: tracked)
        #expect(try JSONLinesStore.metadata(at: url).formatVersion == StoreFileVersion.current)
        #expect(writer.tracksHistory)
        #expect(try writer.currentHistoryTransactionNumber() == 2)
        #expect(try writer.history(after: nil).isEmpty)
        #expect(try writer.storeMetadata()["app"] as? String == "x")
        writer.close()
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"history\":{\"start\":2,\"retained\":0}"))
        #expect(JSONLinesStore.verify(at: url).isHealthy)
    }

    @Test func aHistoryLineOutOfPlaceIsCorruptionOfItsLine() throws {
        var tracked = options(readOnly: false)
        tracked.tracksHistory = true
        let store = try JSONLinesStore(model: model, url: url, options: tracked)
        let entity = model.entities[0]
        try store.commit(
            StoreChangeSet(
                inserted: [
                    StoreRow(
                        objectID: ManagedObjectID(
                            entity: entity, storeIdentifier: store.identifier, primaryKey: 1),
                        version: 1, values: [.attribute(.null), .attribute(.string("A"))])
                ], timestamp: Date()))
        store.close()
        // A history line after a transaction line breaks the layout of §3.2.
        let w = JSONByteWriter()
        let start = w.count
        w.append(raw: "{\"h\":1,\"at\":1.0,\"bundle\":\"b\",\"pid\":\"1\"")
        LineFrame.finish(w, bodyStart: start)
        var bytes = try Data(contentsOf: url)
        bytes.append(contentsOf: w.array)
        try bytes.write(to: url)
        #expect {
            _ = try JSONLinesStore(model: model, url: url, options: tracked)
        } throws: { error in
            guard let e = error as? ObjectGraphError else { return false }
            return e.reason == .storeCorrupt && e.line == 3
        }
    }
}
