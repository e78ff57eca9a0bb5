import Foundation
import Testing

@testable import ObjectGraph

/// Closing and sharing a file store through the container and coordinator: `remove(_:)`
/// closes and can fail (as Core Data's `remove(_:) throws`,
/// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/remove(_:)),
/// releasing the container closes, a second writer in this process is refused, a read-only
/// follower sees the writer's saves.
@Suite struct StoreClosingTests {
    private func container(_ url: URL, readOnly: Bool = false) throws -> PersistentContainer {
        let container = PersistentContainer(
            name: "Expenses", managedObjectModel: try ExpenseModel.make())
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    private func insertCategory(_ name: String, in container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let category = Category(context: context)
            category.id = UUID()
            category.name = name
            try context.save()
        }
    }

    private func categoryNames(in container: PersistentContainer) throws -> [String?] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<Category>(entityName: "Category")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            return try context.fetch(request).map(\.name)
        }
    }

    @Test func removingAFileStoreReleasesItsLockAtOnce() throws {
        let url = TemporaryStoreFiles.next()
        let first = try container(url)
        try insertCategory("Food", in: first)
        let anotherProcess = { () throws -> JSONLinesStore in
            try JSONLinesStore(
                model: try ExpenseModel.make(), url: url, options: StoreOptions(),
                fileSystem: FaultInjectingFileSystem(actingAsAnotherProcess: true))
        }
        let second = #expect(throws: ObjectGraphError.self) { try anotherProcess() }
        #expect(second?.reason == .storeLocked)
        let coordinator = first.persistentStoreCoordinator
        let store = try #require(coordinator.persistentStores.first)
        try coordinator.remove(store)
        #expect(coordinator.persistentStores.isEmpty)
        try anotherProcess().close()  // `first` is still alive: remove released the lock
        let reopened = try container(url)
        #expect(try categoryNames(in: reopened) == ["Food"])
        let closed = #expect(throws: ObjectGraphError.self) {
            try store.fetch(StoreFetchRequest(entity: store.model.entitiesByName["Category"]!))
        }
        #expect(closed?.reason == .storeClosed)
    }

    @Test func removingAStoreTheCoordinatorDoesNotHaveThrows() throws {
        let coordinator = try ExpenseModel.coordinator()
        let store = try #require(coordinator.persistentStores.first)
        try coordinator.remove(store)
        let error = #expect(throws: ObjectGraphError.self) { try coordinator.remove(store) }
        #expect(error?.reason == .storeOperationFailed)
        #expect(error?.message.contains("is not one of this coordinator's stores") == true)
    }

    @Test func aFailedFinalSyncIsReportedAndTheLockStillReleased() throws {
        let url = TemporaryStoreFiles.next()
        let model = try ExpenseModel.make()
        let fileSystem = FaultInjectingFileSystem()
        var options = StoreOptions()
        options.synchronous = .normal
        let store = try JSONLinesStore(
            model: model, url: url, options: options, fileSystem: fileSystem)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        fileSystem.failNext(.sync, .fail(EIO))
        let error = #expect(throws: ObjectGraphError.self) { try coordinator.remove(store) }
        #expect(error?.reason == .storeOperationFailed)
        #expect(error?.message.contains("syncing before closing") == true)
        #expect(coordinator.persistentStores.isEmpty)
        _ = try JSONLinesStore(model: model, url: url)  // the lock is free
    }

    @Test func releasingTheContainerAndItsContextsClosesTheStore() throws {
        let url = TemporaryStoreFiles.next()
        var first: PersistentContainer? = try container(url)
        try insertCategory("Food", in: first!)
        var kept: ManagedObjectContext? = first!.newBackgroundContext()
        first = nil
        // A context keeps its coordinator, and so the store, open: another process is refused.
        let anotherProcess = { () throws -> JSONLinesStore in
            try JSONLinesStore(
                model: try ExpenseModel.make(), url: url, options: StoreOptions(),
                fileSystem: FaultInjectingFileSystem(actingAsAnotherProcess: true))
        }
        #expect(throws: ObjectGraphError.self) { try anotherProcess() }
        kept = nil
        _ = kept
        try anotherProcess().close()
        #expect(try categoryNames(in: try container(url)) == ["Food"])
    }

    @Test func aReadOnlyFollowerSeesTheWritersSavesAndRefusesItsOwn() throws {
        let url = TemporaryStoreFiles.next()
        let writer = try container(url)
        try insertCategory("Food", in: writer)
        let follower = try container(url, readOnly: true)  // no lock: beside the writer
        #expect(try categoryNames(in: follower) == ["Food"])
        try insertCategory("Rent", in: writer)
        #expect(try categoryNames(in: follower) == ["Food", "Rent"])
        #expect(throws: ObjectGraphError.self) { try insertCategory("Travel", in: follower) }
        #expect(try categoryNames(in: writer) == ["Food", "Rent"])
    }
}
