import Foundation
import ObjectGraph
import Testing

@Suite struct ConcurrencyCheckTests {
    @Test func usingAPrivateContextOutsideItsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let coordinator = try ExpenseModel.coordinator()
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            _ = context.hasChanges
        }
    }

    @Test func touchingAnObjectOutsideItsContextsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let coordinator = try ExpenseModel.coordinator()
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            let object = context.performAndWait {
                context.insertNewObject(forEntityName: "Category")
            }
            _ = object.value(forKey: "name")
        }
    }

    @Test func usingTheMainQueueContextFromABackgroundQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let coordinator = try ExpenseModel.coordinator()
            let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
            DispatchQueue.global().sync { _ = view.insertedObjects }
        }
    }

    @Test func firingAFaultForAMissingRowTrapsWhenInaccessibleFaultsAreNotDeleted() async {
        await #expect(processExitsWith: .failure) {
            let coordinator = try ExpenseModel.coordinator()
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            context.shouldDeleteInaccessibleFaults = false
            let entity = coordinator.managedObjectModel.entitiesByName["Category"]!
            let store = coordinator.persistentStores[0]
            let missing = ManagedObjectID(
                entity: entity, storeIdentifier: store.identifier, primaryKey: 99)
            context.performAndWait { _ = context.object(with: missing).value(forKey: "name") }
        }
    }

    @Test func theCheckIsOnInTests() {
        #expect(ConcurrencyCheck.isEnabled)
    }
}

@Suite struct ConcurrencyStressTests {
    @MainActor
    @Test func concurrentBackgroundSavesAllReachTheStoreAndTheMergingViewContext() async throws {
        let coordinator = try ExpenseModel.coordinator()
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        view.automaticallyMergesChangesFromParent = true
        let shared = Category(context: view)
        shared.id = UUID()
        shared.name = "Shared"
        try view.save()
        let sharedID = shared.objectID
        let workers = 4
        let rounds = 10
        let perRound = 20
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<workers {
                group.addTask {
                    let context = ManagedObjectContext(
                        concurrencyType: .privateQueue, coordinator: coordinator)
                    context.mergePolicy = .mergeByPropertyObjectTrump
                    for r in 0..<rounds {
                        try await context.perform {
                            let category = context.object(with: sharedID) as! Category
                            for i in 0..<perRound {
                                let t = Transaction(context: context)
                                t.id = UUID()
                                t.amount = Decimal(w * 1000 + r * 100 + i + 1)
                                t.date = Date(timeIntervalSince1970: Double(i))
                                t.note = "w\(w)"
                                t.category = category
                            }
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await view.perform {}
        let total = try view.count(for: FetchRequest<Transaction>(entityName: "Transaction"))
        #expect(total == workers * rounds * perRound)
        view.refresh(shared, mergeChanges: false)
        #expect(shared.transactions.count == workers * rounds * perRound)
    }
}
