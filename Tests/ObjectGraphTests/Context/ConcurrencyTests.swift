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

    /// The wrappers' reads and writes and a to-one's setter check the queue without a message
    /// closure (the message is made only when the check runs): each still traps outside the
    /// queue, naming the entity and the property. (A to-one's setter traps in its read of the
    /// old value, before `prepare(_:)`'s own check, which a change of a to-many without an
    /// inverse reaches first: the last case.)
    @Test func wrappedAccessesOutsideTheQueueTrapNamingTheProperty() async throws {
        let read = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let (_, transaction) = try ConcurrencyCheckTests.objectsOffTheirQueue()
                _ = transaction.amount
            })
        #expect(Self.message(read).contains("concurrency violation: Transaction.amount on"))
        let write = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let (_, transaction) = try ConcurrencyCheckTests.objectsOffTheirQueue()
                transaction.note = "late"
            })
        #expect(Self.message(write).contains("concurrency violation: Transaction.note = … on"))
        let toOne = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let (category, transaction) = try ConcurrencyCheckTests.objectsOffTheirQueue()
                transaction.category = category
            })
        #expect(Self.message(toOne).contains("concurrency violation: Transaction.category"))
        let toMany = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let (category, _) = try ConcurrencyCheckTests.objectsOffTheirQueue()
                _ = category.transactions
            })
        #expect(Self.message(toMany).contains("concurrency violation: Category.transactions"))
        let unlinked = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let (note, other) = try ConcurrencyCheckTests.notesOffTheirQueue()
                note.remove(other, fromRelationship: "links")
            })
        #expect(Self.message(unlinked).contains("concurrency violation: Note.links"))
    }

    /// Two notes inserted in a private-queue context (kept alive), the first linking the
    /// second through `links`, a to-many without an inverse: removing a member goes straight
    /// to `prepare(_:)`.
    static func notesOffTheirQueue() throws -> (ManagedObject, ManagedObject) {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(name: "text", type: .string),
                    RelationshipDescription(name: "links", destination: "Note", isToMany: true),
                ])
        ])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(InMemoryStore(model: model))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        kept = context
        return context.performAndWait {
            let note = context.insertNewObject(forEntityName: "Note")
            let other = context.insertNewObject(forEntityName: "Note")
            note.add(other, toRelationship: "links")
            return (note, other)
        }
    }

    /// A category and a transaction inserted in a private-queue context, handed out of its
    /// queue (the context kept alive: an object whose context is gone is not checked).
    static func objectsOffTheirQueue() throws -> (Category, Transaction) {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        kept = context
        return context.performAndWait {
            (Category(context: context), Transaction(context: context))
        }
    }

    /// The context of ``objectsOffTheirQueue()``, held for the rest of the exit test.
    nonisolated(unsafe) private static var kept: ManagedObjectContext?

    private static func message(_ result: ExitTest.Result) -> String {
        String(decoding: result.standardErrorContent, as: UTF8.self)
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
