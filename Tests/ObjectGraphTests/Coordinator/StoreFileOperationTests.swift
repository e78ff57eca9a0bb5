import Foundation
import ObjectGraph
import Testing

// Core Data's coordinator store operations: `migratePersistentStore(_:to:options:type:)`
// "changes the location and, if necessary, the store type of the specified persistent store"
// and the old store leaves the coordinator
// (developer.apple.com/documentation/coredata/nspersistentstorecoordinator/remove(_:), "See
// Also"); `replacePersistentStore(at:…withPersistentStoreFrom:…)` replaces one store's content
// with a copy of another's; `destroyPersistentStore(at:type:options:)` removes a store. Our file
// store adds its own guarantees (StoreFileFormat article): under the writer lock, complete or not
// at all, `FILE.lock` never removed.
@Suite struct StoreFileOperationTests {
    private static func categoryNames(_ coordinator: PersistentStoreCoordinator) throws -> [String]
    {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        return try context.performAndWait {
            let request = FetchRequest<Category>(entityName: "Category")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            return try context.fetch(request).compactMap(\.name)
        }
    }

    private static func insert(_ names: [String], into coordinator: PersistentStoreCoordinator)
        throws
    {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            for name in names {
                let category = Category(context: context)
                category.id = UUID()
                category.name = name
            }
            try context.save()
        }
    }

    private static func fileCoordinator(_ url: URL, _ options: StoreOptions = StoreOptions())
        throws -> PersistentStoreCoordinator
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ExpenseModel.make())
        try coordinator.addPersistentStore(
            try JSONLinesStore(model: coordinator.managedObjectModel, url: url, options: options))
        return coordinator
    }

    // A store's metadata belongs to the store (`setMetadata(_:for:)`, kept by compaction and
    // by a model migration): a copy made by migratePersistentStore or replacePersistentStore
    // keeps it too. Regression: both wrote `{}` (found merging the store-file operations with
    // store metadata).
    @Test func migratingAndReplacingAFileKeepTheStoresMetadata() throws {
        let url = TemporaryStoreFiles.next()
        let coordinator = try Self.fileCoordinator(url)
        try Self.insert(["Food"], into: coordinator)
        try coordinator.setMetadata(["note": "kept"], for: coordinator.persistentStores[0])
        let copy = TemporaryStoreFiles.next()
        let moved = try coordinator.migratePersistentStore(
            coordinator.persistentStores[0], to: copy, type: JSONLinesStore.storeType)
        (moved as! JSONLinesStore).close()
        let migrated = try PersistentStoreCoordinator.metadataForPersistentStore(
            ofType: JSONLinesStore.storeType, at: copy)
        #expect(migrated["note"] as? String == "kept")
        let replaced = TemporaryStoreFiles.next()
        try coordinator.replacePersistentStore(
            at: replaced, withPersistentStoreFrom: copy, type: JSONLinesStore.storeType)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(
            ofType: JSONLinesStore.storeType, at: replaced)
        #expect(metadata["note"] as? String == "kept")
    }

    @Test func migratingARAMStoreToAFileSavesItAndKeepsObjectsValid() throws {
        let coordinator = try ExpenseModel.coordinator()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let food = try context.performAndWait {
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            try context.save()
            return food.objectID
        }
        let url = TemporaryStoreFiles.next()
        let ram = coordinator.persistentStores[0]
        let file = try coordinator.migratePersistentStore(
            ram, to: url, type: JSONLinesStore.storeType)
        #expect(coordinator.persistentStores.count == 1)
        #expect(coordinator.persistentStores[0] === file)
        #expect(file.identifier == ram.identifier)
        try context.performAndWait {
            let object = try context.existingObject(with: food) as! Category
            object.name = "Groceries"
            try context.save()
        }
        (file as! JSONLinesStore).close()
        #expect(try Self.categoryNames(try Self.fileCoordinator(url)) == ["Groceries"])
    }

    @Test func migratingAFileStoreToRAMLoadsItAndReleasesTheFile() throws {
        let url = TemporaryStoreFiles.next()
        let coordinator = try Self.fileCoordinator(url)
        try Self.insert(["Food", "Rent"], into: coordinator)
        let ram = try coordinator.migratePersistentStore(
            coordinator.persistentStores[0], to: URL(fileURLWithPath: "/dev/null"),
            type: InMemoryStore.storeType)
        #expect(ram is InMemoryStore)
        #expect(try Self.categoryNames(coordinator) == ["Food", "Rent"])
        try Self.insert(["Travel"], into: coordinator)  // into RAM only
        // The file store was closed: another writer may open the file, which is unchanged.
        #expect(try Self.categoryNames(try Self.fileCoordinator(url)) == ["Food", "Rent"])
    }

    @Test func migratingOntoAnExistingFileIsRefusedAndChangesNothing() throws {
        let existing = TemporaryStoreFiles.next()
        let other = try Self.fileCoordinator(existing)
        try Self.insert(["Kept"], into: other)
        (other.persistentStores[0] as! JSONLinesStore).close()
        let coordinator = try ExpenseModel.coordinator()
        try Self.insert(["Scratch"], into: coordinator)
        let ram = coordinator.persistentStores[0]
        #expect {
            try coordinator.migratePersistentStore(
                ram, to: existing, type: JSONLinesStore.storeType)
        } throws: { ($0 as NSError).code == 134080 }
        #expect(coordinator.persistentStores[0] === ram)
        #expect(try Self.categoryNames(try Self.fileCoordinator(existing)) == ["Kept"])
    }

    @Test func replacingCopiesTheSourceOverTheDestinationAndCreatesAMissingOne() throws {
        let source = TemporaryStoreFiles.next()
        let writer = try Self.fileCoordinator(source)
        try Self.insert(["Food", "Rent"], into: writer)
        let destination = TemporaryStoreFiles.next()
        let old = try Self.fileCoordinator(destination)
        try Self.insert(["Old"], into: old)
        (old.persistentStores[0] as! JSONLinesStore).close()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: writer.managedObjectModel)
        // The source's writer is still open: the copy reads what it committed.
        try coordinator.replacePersistentStore(
            at: destination, withPersistentStoreFrom: source, type: JSONLinesStore.storeType)
        let missing = TemporaryStoreFiles.next()
        try coordinator.replacePersistentStore(
            at: missing, withPersistentStoreFrom: source, type: JSONLinesStore.storeType)
        #expect(FileManager.default.fileExists(atPath: destination.path + ".lock"))
        #expect(!FileManager.default.fileExists(atPath: destination.path + ".tmp"))
        let copy = try Self.fileCoordinator(destination)
        #expect(try Self.categoryNames(copy) == ["Food", "Rent"])
        #expect(copy.persistentStores[0].identifier == writer.persistentStores[0].identifier)
        #expect(copy.persistentStores[0].recoveryNotices.isEmpty)
        try Self.insert(["Travel"], into: copy)  // the copy is a working store
        #expect(try Self.categoryNames(try Self.fileCoordinator(missing)) == ["Food", "Rent"])
    }

    @Test func replacingADestinationAWriterHasOpenIsRefused() throws {
        let source = TemporaryStoreFiles.next()
        let writer = try Self.fileCoordinator(source)
        try Self.insert(["New"], into: writer)
        let destination = TemporaryStoreFiles.next()
        let busy = try Self.fileCoordinator(destination)
        try Self.insert(["Busy"], into: busy)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: writer.managedObjectModel)
        #expect {
            try coordinator.replacePersistentStore(
                at: destination, withPersistentStoreFrom: source, type: JSONLinesStore.storeType)
        } throws: { ($0 as NSError).code == 134090 }
        #expect(try Self.categoryNames(busy) == ["Busy"])
        try Self.insert(["StillWorks"], into: busy)
    }

    @Test func replacingAnInMemoryStoreIsAStoreOperationError() throws {
        let coordinator = try ExpenseModel.coordinator()
        #expect {
            try coordinator.replacePersistentStore(
                at: URL(fileURLWithPath: "/dev/null"),
                withPersistentStoreFrom: URL(fileURLWithPath: "/dev/null"),
                type: InMemoryStore.storeType)
        } throws: { ($0 as NSError).code == 134070 }
    }

    @Test func destroyingRemovesTheFileButNeverTheLockFile() throws {
        let url = TemporaryStoreFiles.next()
        let coordinator = try Self.fileCoordinator(url)
        try Self.insert(["Food"], into: coordinator)
        #expect {
            try coordinator.destroyPersistentStore(at: url, type: JSONLinesStore.storeType)
        } throws: { ($0 as NSError).code == 134090 }
        #expect(FileManager.default.fileExists(atPath: url.path))
        let store = coordinator.persistentStores[0] as! JSONLinesStore
        try coordinator.remove(store)
        store.close()
        try coordinator.destroyPersistentStore(at: url, type: JSONLinesStore.storeType)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(FileManager.default.fileExists(atPath: url.path + ".lock"))
        // Again: a missing store is not an error; nor is a RAM store, which has no file.
        try coordinator.destroyPersistentStore(at: url, type: JSONLinesStore.storeType)
        try coordinator.destroyPersistentStore(
            at: URL(fileURLWithPath: "/dev/null"), type: InMemoryStore.storeType)
        #expect(try Self.categoryNames(try Self.fileCoordinator(url)).isEmpty)
    }

    // Refusing a path that is not a regular file changes nothing there: no `FILE.lock` appears
    // beside it (found by QA: the refusal said "nothing was read or locked" after creating one).
    @Test func destroyingADirectoryIsRefusedAndCreatesNoLockFile() throws {
        let url = TemporaryStoreFiles.next()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let coordinator = try ExpenseModel.coordinator()
        #expect {
            try coordinator.destroyPersistentStore(at: url, type: JSONLinesStore.storeType)
        } throws: { ($0 as NSError).code == 134080 }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
    }

    // Regression (QA round 2): destroying a path where no store exists created `FILE.lock`.
    // Destroying a missing store is not an error, and it writes nothing.
    @Test func destroyingAMissingStoreWritesNothing() throws {
        let url = TemporaryStoreFiles.next()
        let coordinator = try ExpenseModel.coordinator()
        try coordinator.destroyPersistentStore(at: url, type: JSONLinesStore.storeType)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
    }

    @Test func anUnknownStoreTypeIsAnInvalidTypeError() throws {
        let coordinator = try ExpenseModel.coordinator()
        #expect {
            try coordinator.destroyPersistentStore(
                at: TemporaryStoreFiles.next(), type: "SQLite")
        } throws: { ($0 as NSError).code == 134000 }
    }
}
