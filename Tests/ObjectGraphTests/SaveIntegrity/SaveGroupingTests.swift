import Foundation
import ObjectGraph
import Testing

/// A root save builds its rows in runs (one store's rows together, one entity's new objects
/// together) rather than one at a time; these pin that every row still reaches its own store
/// and every new object gets its key in insertion order, whatever order the objects changed in.
@Suite struct SaveGroupingTests {
    @Test(arguments: StoreKind.all)
    func interleavedInsertsOfTwoEntitiesGetKeysInInsertionOrder(_ kind: StoreKind) throws {
        let model = try DanglingReferenceTests.model()
        let store = try kind.open(model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            var folders: [ManagedObject] = []
            var notes: [ManagedObject] = []
            for i in 0..<3 {
                let folder = context.insertNewObject(forEntityName: "Folder")
                folder.setValue("F\(i)", forKey: "name")
                let note = context.insertNewObject(forEntityName: "Note")
                note.setValue("N\(i)", forKey: "title")
                note.setValue(folder, forKey: "folder")
                folders.append(folder)
                notes.append(note)
            }
            try context.save()
            for objects in [folders, notes] {
                let keys = objects.map(\.objectID.primaryKey)
                #expect(keys == keys.sorted() && Set(keys).count == 3)
                for object in objects {
                    #expect(!object.objectID.isTemporaryID)
                    #expect(context.registeredObject(for: object.objectID) === object)
                    #expect(try store.row(for: object.objectID) != nil)
                }
            }
            for (note, folder) in zip(notes, folders) {
                #expect(try store.row(for: note.objectID)?["folder"] == .toOne(folder.objectID))
            }
        }
    }

    @Test func updatesAndDeletesInterleavedAcrossTwoStoresReachEachStore() throws {
        let model = try DanglingReferenceTests.model()
        let stores = [InMemoryStore(model: model), InMemoryStore(model: model)]
        let folder = model.entitiesByName["Folder"]!
        let note = model.entitiesByName["Note"]!
        // Each store holds a folder and two notes in it.
        var notes: [[ManagedObjectID]] = []
        for store in stores {
            let folderID = ManagedObjectID(
                entity: folder, storeIdentifier: store.identifier,
                primaryKey: try store.allocatePrimaryKeys(for: folder, count: 1)[0])
            let noteIDs = try store.allocatePrimaryKeys(for: note, count: 2).map {
                ManagedObjectID(entity: note, storeIdentifier: store.identifier, primaryKey: $0)
            }
            try store.commit(
                StoreChangeSet(
                    inserted: [
                        StoreRow(
                            objectID: folderID, version: 1,
                            values: [.attribute("Inbox"), .notStored])
                    ]
                        + noteIDs.map {
                            StoreRow(
                                objectID: $0, version: 1,
                                values: [.attribute("n"), .toOne(folderID), .toMany([])])
                        },
                    timestamp: Date(timeIntervalSinceReferenceDate: 0)))
            notes.append(noteIDs)
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        for store in stores { try coordinator.addPersistentStore(store) }
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            // First store, second store, first, second: each change alternates stores.
            for id in [notes[0][0], notes[1][0]] {
                try context.existingObject(with: id).setValue("edited", forKey: "title")
            }
            for id in [notes[0][1], notes[1][1]] {
                context.delete(try context.existingObject(with: id))
            }
            try context.save()
        }
        for (store, ids) in zip(stores, notes) {
            #expect(try store.row(for: ids[0])?["title"] == .attribute("edited"))
            #expect(try store.row(for: ids[0])?.version == 2)
            #expect(try store.row(for: ids[1]) == nil)
            #expect(try store.count(StoreFetchRequest(entity: note)) == 1)
        }
    }
}
