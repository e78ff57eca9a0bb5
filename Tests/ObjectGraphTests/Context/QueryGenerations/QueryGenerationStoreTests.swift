import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// What the built-in stores keep for a pinned generation, and for how long.
@Suite struct QueryGenerationStoreTests {
    typealias G = GenerationStack

    @Test func aGenerationKeepsOneRowPerRowChangedSinceAndIsFreedWithItsLastHolder() throws {
        let model = try ExpenseModel.make()
        let store = InMemoryStore(model: model)
        let category = model.entitiesByName["Category"]!
        let keys = try store.allocatePrimaryKeys(for: category, count: 1000)
        let rows = keys.map { key in
            StoreRow(
                objectID: ManagedObjectID(
                    entity: category, storeIdentifier: store.identifier, primaryKey: key),
                version: 1,
                values: [
                    .attribute(.uuid(UUID())), .attribute(.string("c\(key)")),
                    .attribute(.string("#FFFFFF")), .notStored,
                ])
        }
        try store.commit(StoreChangeSet(inserted: rows, timestamp: Date()))
        var generation: RowTableGeneration? =
            try store.currentQueryGeneration() as? RowTableGeneration
        #expect(generation?.keptRows == 0)
        #expect(store.liveGenerationCount == 1)
        // Three rows, each changed five times: three rows kept, whatever the store's size.
        var current = Array(rows[0..<3])
        for round in 1...5 {
            current = current.map { row in
                var next = row
                next.version += 1
                next.values[1] = .attribute(.string("\(row.objectID.primaryKey)-\(round)"))
                return next
            }
            try store.commit(StoreChangeSet(updated: current, timestamp: Date()))
        }
        #expect(generation?.keptRows == 3)
        #expect(try generation?.row(for: rows[0].objectID) == rows[0])
        #expect(try generation?.count(StoreFetchRequest(entity: category)) == 1000)
        // A second pin of the same, unchanged state is the same generation.
        let now = try store.currentQueryGeneration()
        #expect(now === (try store.currentQueryGeneration()))
        #expect(store.liveGenerationCount == 2)
        generation = nil
        #expect(store.liveGenerationCount == 1)
        _ = now
    }

    @Test(arguments: StoreKind.all)
    func aGenerationIsReleasedWhenNoContextOrTokenHoldsIt(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        func live() -> Int {
            (stack.stack.baseStore as? InMemoryStore)?.liveGenerationCount
                ?? (stack.stack.baseStore as? JSONLinesStore)?.liveGenerationCount ?? -1
        }
        var first: ManagedObjectContext? = stack.context()
        var token: QueryGenerationToken? = try first!.performAndWait {
            try first!.setQueryGenerationFrom(.current)
            _ = try G.names(first!)
            return first!.queryGenerationToken
        }
        #expect(live() == 1)
        try stack.save { G.category("Travel", in: $0) }
        first = nil
        #expect(live() == 1)  // the token still holds it
        token = nil
        #expect(live() == 0)
        _ = token
    }

    @Test func aFileStoreContextStaysPinnedWhileAnotherCoordinatorWritesTheSameFile() throws {
        let url = TemporaryStoreFiles.next("generations")
        let model = try ExpenseModel.make()
        let writerA = PersistentStoreCoordinator(managedObjectModel: model)
        try writerA.addPersistentStore(JSONLinesStore(model: model, url: url))
        let writerB = PersistentStoreCoordinator(managedObjectModel: model)
        try writerB.addPersistentStore(JSONLinesStore(model: model, url: url))
        let seed = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: writerA)
        try seed.performAndWait {
            G.category("Food", in: seed)
            try seed.save()
        }
        let pinned = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: writerA)
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            #expect(try G.names(pinned) == ["Food"])
        }
        let other = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: writerB)
        try other.performAndWait {
            G.category("Travel", in: other)
            try G.first(Category.self, "name", "Food", in: other).name = "Groceries"
            try other.save()
        }
        let unpinned = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: writerA)
        try unpinned.performAndWait { () throws in
            #expect(try G.names(unpinned) == ["Groceries", "Travel"])
        }
        try pinned.performAndWait {
            #expect(try G.names(pinned) == ["Food"])
            try pinned.setQueryGenerationFrom(.current)
            #expect(try G.names(pinned) == ["Food", "Travel"])  // registered objects keep values
            pinned.refreshAllObjects()
            #expect(try G.names(pinned) == ["Groceries", "Travel"])
        }
    }

    @Test func aReadOnlyFileStoreReaderStaysPinnedWhileTheWriterAppendsAndCompacts() throws {
        let url = TemporaryStoreFiles.next("generations-reader")
        let model = try ExpenseModel.make()
        let writer = PersistentStoreCoordinator(managedObjectModel: model)
        let writerStore = try JSONLinesStore(model: model, url: url)
        try writer.addPersistentStore(writerStore)
        let seed = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: writer)
        try seed.performAndWait {
            G.category("Food", in: seed)
            try seed.save()
        }
        var options = StoreOptions()
        options.isReadOnly = true
        let reader = PersistentStoreCoordinator(managedObjectModel: model)
        try reader.addPersistentStore(JSONLinesStore(model: model, url: url, options: options))
        let pinned = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: reader)
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            #expect(try G.names(pinned) == ["Food"])
        }
        try seed.performAndWait {
            G.category("Travel", in: seed)
            try seed.save()
        }
        let follower = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: reader)
        try follower.performAndWait { () throws in
            #expect(try G.names(follower) == ["Food", "Travel"])
        }
        try writerStore.compact()
        try seed.performAndWait {
            try G.first(Category.self, "name", "Food", in: seed).name = "Groceries"
            try seed.save()
        }
        try follower.performAndWait { () throws in
            #expect(try G.names(follower) == ["Groceries", "Travel"])
        }
        try pinned.performAndWait { () throws in
            #expect(try G.names(pinned) == ["Food"])
        }
    }

    @Test func aThirdPartyStoreThatDeclaresNoGenerationsPassesTheConformanceCheck() throws {
        // A store built on the protocol alone inherits the default: Core Data's unsupported
        // error (134091), which the conformance suite checks.
        let suite = StoreConformance(name: "Wrapped") { FailingStore(InMemoryStore(model: $0)) }
        try suite.run("aStoreWithoutGenerationsRefusesToPinOne")
        try suite.run("aPinnedGenerationReadsTheStoreAsItWas")
    }
}
