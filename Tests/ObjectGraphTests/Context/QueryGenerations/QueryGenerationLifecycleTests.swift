import Foundation
import Testing

@testable import ObjectGraph

/// When a pinned context moves, what its token says, and the errors of pinning.
@Suite struct QueryGenerationLifecycleTests {
    typealias G = GenerationStack

    @Test(arguments: StoreKind.all)
    func theTokenIsNilUnpinnedAndUntilTheFirstReadThenAlignsAnotherContext(_ kind: StoreKind)
        throws
    {
        let stack = try GenerationStack(kind)
        let first = stack.context()
        let token = try first.performAndWait { () throws -> QueryGenerationToken? in
            // "nil, default value => this context is not using generational querying";
            // .current "will pin itself to the generation of the database when it first loads
            // data" (NSManagedObjectContext.h).
            #expect(first.queryGenerationToken == nil)
            try first.setQueryGenerationFrom(.current)
            #expect(first.queryGenerationToken == nil)
            _ = try G.names(first)
            return first.queryGenerationToken
        }
        let pinned = try #require(token)
        #expect(pinned != .current)
        try stack.save { G.category("Travel", in: $0) }
        let second = stack.context()
        try second.performAndWait {
            try second.setQueryGenerationFrom(pinned)
            #expect(second.queryGenerationToken == pinned)
            #expect(try G.names(second) == ["Food", "Rent"])
            try second.setQueryGenerationFrom(nil)
            #expect(second.queryGenerationToken == nil)
            #expect(try G.names(second) == ["Food", "Rent", "Travel"])
        }
    }

    @Test(arguments: StoreKind.all)
    func savingMovesAPinnedContextToTheCurrentGenerationEvenWithNothingToSave(
        _ kind: StoreKind
    ) throws {
        let stack = try GenerationStack(kind)
        let pinned = try stack.pinnedContext()
        try stack.save { G.category("Travel", in: $0) }
        try pinned.performAndWait {
            #expect(try G.names(pinned) == ["Food", "Rent"])
            // "If a pinned context saves, its query generation will be updated after the save"
            // (NSManagedObjectContext.h); a context that only fetched and saved reads nil at
            // once (dduraz.com/2016/09/16/query-generations).
            try pinned.save()
            #expect(pinned.queryGenerationToken == nil)
            #expect(try G.names(pinned) == ["Food", "Rent", "Travel"])
            #expect(pinned.queryGenerationToken != nil)  // still pinned, at the new generation
        }
        try stack.save { G.category("Books", in: $0) }
        try pinned.performAndWait {
            #expect(try G.names(pinned) == ["Food", "Rent", "Travel"])
            G.category("Gifts", in: pinned)
            try pinned.save()
            #expect(try G.names(pinned) == ["Books", "Food", "Gifts", "Rent", "Travel"])
        }
    }

    @Test(arguments: StoreKind.all)
    func resetAndMergesMoveAPinnedContextButBatchRequestsDoNot(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = try stack.pinnedContext()
        // "Executing a NSBatchUpdateRequest or NSBatchDeleteRequest will not cause the query
        // generation to advance" (NSManagedObjectContext.h).
        try pinned.performAndWait {
            let update = BatchUpdateRequest(entityName: "Category")
            update.predicate = try FetchPredicate(format: "name == 'Rent'")
            update.propertiesToUpdate = ["colorHex": "#000000"]
            _ = try pinned.execute(update)
            let rent = try G.first(Category.self, "name", "Rent", in: pinned)
            #expect(rent.colorHex == "#FFFFFF")
            // reset: "update a context's generation by calling … reset"
            // (accessing-data-when-the-store-changes).
            pinned.reset()
            #expect(pinned.queryGenerationToken == nil)
            #expect(try G.first(Category.self, "name", "Rent", in: pinned).colorHex == "#000000")
        }
        // … and mergeChanges(fromContextDidSave:).
        let other = stack.context()
        final class Box { var note: Notification? }
        let box = UncheckedSendable(Box())
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil
        ) { box.value.note = $0 }
        defer { NotificationCenter.default.removeObserver(observer) }
        try other.performAndWait {
            G.category("Travel", in: other)
            try other.save()
        }
        let saved = try #require(box.value.note)
        try pinned.performAndWait { () throws in
            #expect(try G.names(pinned) == ["Food", "Rent"])
            pinned.mergeChanges(fromContextDidSave: saved)
            #expect(try G.names(pinned) == ["Food", "Rent", "Travel"])
        }
    }

    @Test func aTokenOfAnotherCoordinatorIsRefusedAndThePinKept() throws {
        let a = try GenerationStack(.inMemory)
        let b = try GenerationStack(.inMemory)
        let source = a.context()
        let token = try source.performAndWait { () throws -> QueryGenerationToken in
            try source.setQueryGenerationFrom(.current)
            _ = try G.names(source)
            return try #require(source.queryGenerationToken)
        }
        let target = b.context()
        try target.performAndWait { () throws in
            #expect { try target.setQueryGenerationFrom(token) } throws: {
                ObjectGraphError.queryGenerationMismatch ~= $0
            }
            #expect(code(target, token) == 134070)
            #expect(target.queryGenerationToken == nil)
        }
    }

    private func code(_ context: ManagedObjectContext, _ token: QueryGenerationToken) -> Int {
        do { try context.setQueryGenerationFrom(token) } catch { return (error as NSError).code }
        return 0
    }

    @Test func aStoreWithoutGenerationsRefusesToPinWithCoreDatasUnsupportedError() throws {
        let model = try ExpenseModel.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(FailingStore(InMemoryStore(model: model)))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            do {
                try context.setQueryGenerationFrom(.current)
                Issue.record("pinned a store without generations")
            } catch {
                #expect((error as NSError).code == 134091)
                #expect(ObjectGraphError.queryGenerationsUnsupported ~= error)
            }
            #expect(context.queryGenerationToken == nil)
            try context.setQueryGenerationFrom(nil)
        }
    }

    @Test(arguments: StoreKind.all)
    func aRemovedStoreIsNoLongerReadAndATokenTrackingItPinsTheRest(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = stack.context()
        let token = try pinned.performAndWait { () throws -> QueryGenerationToken in
            try pinned.setQueryGenerationFrom(.current)
            _ = try G.names(pinned)
            return try #require(pinned.queryGenerationToken)
        }
        let extra = InMemoryStore(model: stack.stack.model)
        try stack.coordinator.addPersistentStore(extra)
        try stack.coordinator.remove(stack.stack.store)
        try pinned.performAndWait { () throws in
            // "if you remove a store from the coordinator, don't try to load data from the
            // deleted store" (accessing-data-when-the-store-changes): it is not read.
            #expect(try G.names(pinned) == [])
        }
        let other = stack.context()
        try other.performAndWait {
            // "May partially fail if one or more stores being tracked by the token are removed
            // from the persistent store coordinator" (NSManagedObjectContext.h).
            #expect { try other.setQueryGenerationFrom(token) } throws: {
                ObjectGraphError.queryGenerationMismatch ~= $0
            }
            #expect(other.queryGenerationToken == token)
            // "Additions to the persistent store coordinator's persistent stores will be
            // ignored until the context's query generation is updated" (same header).
            G.category("Elsewhere", in: other)
            try other.save()
            #expect { try other.setQueryGenerationFrom(token) } throws: {
                ObjectGraphError.queryGenerationMismatch ~= $0
            }
        }
        try other.performAndWait {
            #expect(try G.names(other) == [])
            try other.setQueryGenerationFrom(.current)
            #expect(try G.names(other) == ["Elsewhere"])
        }
    }

    @Test(arguments: StoreKind.all)
    func automaticMergingIsRefusedWhilePinnedToAnOlderGeneration(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = stack.context()
        let token = try pinned.performAndWait { () throws -> QueryGenerationToken in
            try pinned.setQueryGenerationFrom(.current)
            _ = try G.names(pinned)
            // While its generation is still current, automatic merging may be turned on.
            pinned.automaticallyMergesChangesFromParent = true
            pinned.automaticallyMergesChangesFromParent = false
            return try #require(pinned.queryGenerationToken)
        }
        try stack.save { G.category("Travel", in: $0) }
        let merging = stack.context()
        try merging.performAndWait { () throws in
            merging.automaticallyMergesChangesFromParent = true
            #expect { try merging.setQueryGenerationFrom(token) } throws: {
                ObjectGraphError.queryGenerationsUnsupported ~= $0
            }
            #expect(merging.queryGenerationToken == nil)
        }
    }

    @Test func turningOnAutomaticMergingWhilePinnedToAnOlderGenerationTraps() async {
        // "Setting this property to YES when the context is pinned to a non-current query
        // generation is not supported" (NSManagedObjectContext.h).
        await #expect(processExitsWith: .failure) {
            let stack = try GenerationStack(.inMemory)
            let pinned = stack.context()
            try pinned.performAndWait {
                try pinned.setQueryGenerationFrom(.current)
                _ = try G.names(pinned)
            }
            try stack.save { G.category("Travel", in: $0) }
            pinned.performAndWait { pinned.automaticallyMergesChangesFromParent = true }
        }
    }
}
