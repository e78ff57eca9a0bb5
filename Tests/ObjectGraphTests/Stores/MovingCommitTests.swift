import Foundation
import Testing

@testable import ObjectGraph

/// A built-in store's commit of a change set handed over (``StagedCommitting``'s
/// `commit(movingRows:)`, what a context's save to one built-in store uses): a committed change
/// set is left without its inserted rows (they are the store's now), and a refused commit
/// leaves the change set, and the store, as they were, so that the save can be made again.
/// Whether the rows were moved or copied is not observable through the store's API; W1's
/// retain counts in docs/performance.md are what show the move.
@Suite struct MovingCommitTests {
    @Test(arguments: StoreKind.all)
    func aHandedOverCommitTakesTheInsertsAndARefusedOneLeavesThem(_ kind: StoreKind) throws {
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
