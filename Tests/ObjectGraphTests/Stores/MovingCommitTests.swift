import Foundation
import Testing

@testable import ObjectGraph

/// A built-in store's commit of a change set handed over (``StagedCommitting``'s
/// `commit(movingRows:)`, what a context's save to one built-in store uses): the inserted rows
/// are moved into the store's rows, and a refused commit leaves the change set, and the store,
/// as they were, so that the save can be made again.
@Suite struct MovingCommitTests {
    @Test(arguments: StoreKind.all)
    func aHandedOverCommitMovesTheInsertsAndARefusedOneKeepsThem(_ kind: StoreKind) throws {
        let model = try DanglingReferenceTests.model()
        let store = try kind.open(model)
        let moving = try #require(store as? any StagedCommitting)
        let folder = try #require(model.entitiesByName["Folder"])
        let rows = try store.allocatePrimaryKeys(for: folder, count: 2).map { key in
            StoreRow(
                objectID: ManagedObjectID(
                    entity: folder, storeIdentifier: store.identifier, primaryKey: key),
                version: 1, values: [.attribute(.string("f\(key)")), .notStored])
        }
        let at = Date(timeIntervalSinceReferenceDate: 0)
        var changes = StoreChangeSet(inserted: rows, timestamp: at)
        try moving.commit(movingRows: &changes)
        #expect(changes.inserted.isEmpty)
        #expect(try store.fetch(StoreFetchRequest(entity: folder)) == rows)
        // The same rows again: their objects are in the store (134050), nothing is moved.
        var again = StoreChangeSet(inserted: rows, timestamp: at)
        #expect(throws: ObjectGraphError.self) { try moving.commit(movingRows: &again) }
        #expect(again.inserted == rows)
        #expect(try store.fetch(StoreFetchRequest(entity: folder)) == rows)
    }
}
