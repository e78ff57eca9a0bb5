import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct JSONLinesStoreConformanceTests {
    static let suite = StoreConformance(
        name: "JSONLines",
        makeStore: { model in
            let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent(
                "conformance.jsonl")
            var options = StoreOptions()
            options.synchronous = .off  // durability is tested elsewhere; keep the suite fast
            return try JSONLinesStore(model: model, url: url, options: options)
        },
        reopen: { store, model in
            // The checks keep using the first store, which stays the writer; a second open of
            // the file, read-only, shows what the file itself holds.
            var options = StoreOptions()
            options.isReadOnly = true
            return try JSONLinesStore(model: model, url: store.url!, options: options)
        })

    static let tracked = StoreConformance(
        name: "JSONLines+history",
        makeStore: { model in
            let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent(
                "conformance.jsonl")
            var options = StoreOptions()
            options.synchronous = .off
            options.tracksHistory = true
            return try JSONLinesStore(model: model, url: url, options: options)
        },
        reopen: { store, model in
            var options = StoreOptions()
            options.isReadOnly = true
            options.tracksHistory = true
            return try JSONLinesStore(model: model, url: store.url!, options: options)
        })

    @Test(arguments: StoreConformance.checkNames)
    func jsonLinesStorePassesTheConformanceCheck(_ check: String) throws {
        try Self.suite.run(check)
    }

    @Test(arguments: StoreConformance.checkNames)
    func jsonLinesStoreTrackingHistoryPassesTheConformanceCheck(_ check: String) throws {
        try Self.tracked.run(check)
    }

    @Test func closingAndReopeningKeepsEveryConformanceRow() throws {
        let model = ConformanceModel.make()
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("reopen.jsonl")
        let store = try JSONLinesStore(model: model, url: url)
        let owner = model.entitiesByName["Owner"]!
        let key = try store.allocatePrimaryKeys(for: owner, count: 1)[0]
        let id = ManagedObjectID(entity: owner, storeIdentifier: store.identifier, primaryKey: key)
        let row = StoreRow(
            objectID: id, version: 1, values: [.attribute("a"), .notStored, .toMany([])])
        try store.commit(StoreChangeSet(inserted: [row], timestamp: Date(timeIntervalSince1970: 0)))
        store.close()
        let reopened = try JSONLinesStore(model: model, url: url)
        #expect(try reopened.row(for: id) == row)
        #expect(try reopened.allocatePrimaryKeys(for: owner, count: 1) == [key + 1])
    }
}
