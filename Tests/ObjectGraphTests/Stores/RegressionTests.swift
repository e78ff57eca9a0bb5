import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// Inputs that once crashed the engine (found by a bad-input session).
@Suite struct StoreRegressionTests {
    @Test(arguments: StoreKind.all)
    func hugeLimitsAndNegativeOffsetsDoNotTrap(_ kind: StoreKind) throws {
        let model = ConformanceModel.make()
        let store = try kind.open(model)
        let owner = model.entitiesByName["Owner"]!
        let rows = try (0..<3).map { i -> StoreRow in
            let id = ManagedObjectID(
                entity: owner, storeIdentifier: store.identifier,
                primaryKey: try store.allocatePrimaryKeys(for: owner, count: 1)[0])
            return StoreRow(
                objectID: id, version: 1,
                values: [.attribute(.string("o\(i)")), .notStored, .toMany([])])
        }
        try store.commit(StoreChangeSet(inserted: rows, timestamp: Date(timeIntervalSince1970: 0)))
        var request = StoreFetchRequest(entity: owner, fetchLimit: Int.max, fetchOffset: 1)
        #expect(try store.fetch(request).count == 2)
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        #expect(try store.fetch(request).count == 2)
        request.fetchOffset = -1
        request.fetchLimit = 2
        let sorted = try store.fetch(request).count
        request.sortDescriptors = []
        #expect(try store.fetch(request).count == sorted)
        #expect(sorted == 2)
    }

    @Test func aRowWithTheLargestPrimaryKeyDoesNotTrap() {
        let model = ConformanceModel.make()
        let owner = model.entitiesByName["Owner"]!
        var table = RowTable(model: model, storeIdentifier: "S")
        let id = ManagedObjectID(entity: owner, storeIdentifier: "S", primaryKey: .max)
        table.upsert(
            StoreRow(objectID: id, version: 1, values: [.attribute("x"), .notStored, .toMany([])]))
        #expect(table.row(for: id) != nil)
    }
}
