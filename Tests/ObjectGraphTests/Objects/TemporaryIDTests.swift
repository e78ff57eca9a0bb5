import Dispatch
import Foundation
import Testing

@testable import ObjectGraph

/// A context draws its inserts' temporary IDs from the process-wide key counter with the
/// entity's temporary scope, which it keeps from one object to the next: the IDs stay
/// distinct across contexts, entities and threads, each of its own entity and sharing the
/// scope `ManagedObjectID.temporary(for:)` uses, until the save or `obtainPermanentIDs`
/// replaces them.
@Suite struct TemporaryIDTests {
    /// Two contexts over one store of `kind`.
    private func contexts(_ kind: StoreKind) throws -> (
        ManagedObjectContext, ManagedObjectContext, ManagedObjectModel
    ) {
        let model = try ExpenseModel.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return (
            ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator),
            ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator),
            model
        )
    }

    @Test(arguments: StoreKind.all)
    func insertsAlternatingEntitiesAndContextsGetDistinctIDsOfTheirOwnEntity(_ kind: StoreKind)
        throws
    {
        let (first, second, model) = try contexts(kind)
        let names = ["Category", "Transaction", "Transaction", "Category", "Transaction"]
        var objects: [ManagedObject] = []
        for name in names {
            for context in [first, second] {
                objects.append(
                    context.performAndWait { context.insertNewObject(forEntityName: name) })
            }
        }
        let ids = objects.map(\.objectID)
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map(\.primaryKey)).count == ids.count)
        for (object, id) in zip(objects, ids) {
            #expect(id.isTemporaryID)
            #expect(id.entity === object.entity)
            // The entity's shared temporary scope, as the public initializer's.
            #expect(id.scope === ManagedObjectID.temporary(for: object.entity).scope)
        }
        // Keys are drawn in order, process-wide.
        #expect(ids.map(\.primaryKey) == ids.map(\.primaryKey).sorted())
        #expect(model[entityName: "Category"] === objects[0].entity)
        // `obtainPermanentIDs` still replaces every one, each with a permanent ID of its entity.
        for context in [first, second] {
            try context.performAndWait {
                let mine = objects.filter { $0.managedObjectContext === context }
                try context.obtainPermanentIDs(for: mine)
                #expect(mine.allSatisfy { !$0.objectID.isTemporaryID })
                #expect(Set(mine.map(\.objectID)).count == mine.count)
                #expect(mine.allSatisfy { $0.objectID.entity === $0.entity })
            }
        }
    }

    @Test func contextsInsertingOnManyThreadsAtOnceNeverShareAKey() throws {
        let model = try ExpenseModel.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try StoreKind.inMemory.open(model))
        let contexts = (0..<4).map { _ in
            ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        }
        let keys = Keys()
        DispatchQueue.concurrentPerform(iterations: contexts.count) { n in
            let context = contexts[n]
            let drawn = context.performAndWait {
                (0..<500).map { i in
                    context.insertNewObject(
                        forEntityName: i % 2 == 0 ? "Category" : "Transaction"
                    ).objectID.primaryKey
                }
            }
            keys.add(drawn)
        }
        #expect(keys.all.count == 2_000)
        #expect(Set(keys.all).count == 2_000)
    }

    /// Keys gathered from several threads.
    private final class Keys: @unchecked Sendable {
        // Sendable: `drawn` is guarded by `lock`.
        private let lock = NSLock()
        private var drawn: [Int64] = []
        func add(_ keys: [Int64]) {
            lock.lock()
            defer { lock.unlock() }
            drawn += keys
        }
        var all: [Int64] {
            lock.lock()
            defer { lock.unlock() }
            return drawn
        }
    }
}
