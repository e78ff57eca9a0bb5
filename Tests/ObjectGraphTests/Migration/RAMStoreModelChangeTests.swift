import Foundation
import Testing

@testable import ObjectGraph

/// Changing the model of a loaded RAM store through the API is refused with 134100, not a trap.
///
/// Core Data refuses a store whose model is not the coordinator's with
/// `NSPersistentStoreIncompatibleVersionHashError` (134100, "The model used to open the store
/// is incompatible with the one used to create the store"; ../shared/reference/
/// coredata-semantics.md (k)). A `/dev/null` store has no file to migrate, so the only way to
/// a new model is a new store.
@Suite("RAM store model change")
struct RAMStoreModelChangeTests {
    /// A RAM store of version 1 holding one street, and version 2 (a new `Street.width`).
    private func loaded() throws -> (store: InMemoryStore, v2: ManagedObjectModel) {
        let v1 = try MigrationFixtures.v1()
        let store = InMemoryStore(model: v1, url: URL(fileURLWithPath: "/dev/null"))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: v1)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let street = context.insertNewObject(forEntityName: "Street")
            street.setValue("Main St", forKey: "name")
            try context.save()
        }
        let v2 = try MigrationFixtures.v1(streetExtras: [
            AttributeDescription(name: "width", type: .double)
        ])
        return (store, v2)
    }

    @Test func addingALoadedRAMStoreToACoordinatorOfAnotherModelThrows134100NamingTheChange()
        throws
    {
        let (store, v2) = try loaded()
        let other = PersistentStoreCoordinator(managedObjectModel: v2)
        let error = try #require(throws: ObjectGraphError.self) {
            try other.addPersistentStore(store)
        }
        #expect(error.code == 134100)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.message.contains(store.identifier))
        #expect(error.message.contains("Street.width"))
        #expect(error.message.contains("nothing to migrate"))
        #expect(other.persistentStores.isEmpty)
        #expect(try store.count(StoreFetchRequest(entity: store.model[entityName: "Street"]!)) == 1)
    }

    @Test func aRAMStoreMadeFromAnotherModelsRowsThrows134100() throws {
        let (store, v2) = try loaded()
        let error = try #require(throws: ObjectGraphError.self) {
            try InMemoryStore(model: v2, table: store.snapshot())
        }
        #expect(error.code == 134100)
        #expect(error.message.contains("InMemoryStore(model:table:)"))
        #expect(error.message.contains("Street.width"))
    }

    @Test func anEqualSchemaInAnotherModelInstanceIsRefusedSayingSo() throws {
        let (store, _) = try loaded()
        let twin = try MigrationFixtures.v1()
        let other = PersistentStoreCoordinator(managedObjectModel: twin)
        let error = try #require(throws: ObjectGraphError.self) {
            try other.addPersistentStore(store)
        }
        #expect(error.code == 134100)
        #expect(error.message.contains("two model instances"))
    }

    @Test func theSameModelIsAccepted() throws {
        let (store, _) = try loaded()
        let copy = try InMemoryStore(model: store.model, table: store.snapshot())
        let coordinator = PersistentStoreCoordinator(managedObjectModel: store.model)
        try coordinator.addPersistentStore(copy)
        #expect(coordinator.persistentStores.count == 1)
        #expect(copy.identifier == store.identifier)
    }
}
