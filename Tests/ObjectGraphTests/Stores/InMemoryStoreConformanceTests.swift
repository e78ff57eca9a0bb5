import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct InMemoryStoreConformanceTests {
    static let suite = StoreConformance(name: "InMemory") { model in InMemoryStore(model: model) }

    static let tracked = StoreConformance(name: "InMemory+history") { model in
        var options = StoreOptions()
        options.tracksHistory = true
        return InMemoryStore(model: model, options: options)
    }

    @Test(arguments: StoreConformance.checkNames)
    func inMemoryStorePassesTheConformanceCheck(_ check: String) throws {
        try Self.suite.run(check)
    }

    @Test(arguments: StoreConformance.checkNames)
    func inMemoryStoreTrackingHistoryPassesTheConformanceCheck(_ check: String) throws {
        try Self.tracked.run(check)
    }

    @Test func aSnapshotIsIsolatedFromLaterWrites() throws {
        let model = ConformanceModel.make()
        let store = InMemoryStore(model: model)
        let owner = model.entitiesByName["Owner"]!
        let key = try store.allocatePrimaryKeys(for: owner, count: 1)[0]
        let id = ManagedObjectID(entity: owner, storeIdentifier: store.identifier, primaryKey: key)
        let row = StoreRow(
            objectID: id, version: 1, values: [.attribute("a"), .notStored, .toMany([])])
        try store.commit(StoreChangeSet(inserted: [row], timestamp: Date(timeIntervalSince1970: 0)))
        let copy = InMemoryStore(model: model, table: store.snapshot())
        try store.commit(
            StoreChangeSet(deleted: [(id, 1)], timestamp: Date(timeIntervalSince1970: 0)))
        #expect(try store.row(for: id) == nil)
        #expect(try copy.row(for: id) == row)
    }
}
