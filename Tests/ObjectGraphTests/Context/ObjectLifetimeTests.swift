import Foundation
import ObjectGraph
import Testing

/// How long a context keeps its objects. Apple, Core Data Programming Guide, "Managed Objects
/// and References": "By default, the references between a managed object and its context are
/// weak … The exception to this rule is that a managed object context maintains a strong
/// reference to any changed (inserted, deleted, and updated) objects until the pending
/// transaction is committed (with a save:) or discarded (with a reset or rollback)"; and
/// `retainsRegisteredObjects` ("If true, the receiver keeps strong references to all
/// registered managed objects", NSManagedObjectContext documentation).
@Suite struct ObjectLifetimeTests {
    /// A context on a store of `kind` holding one saved category; its ID.
    static func seeded(_ kind: StoreKind) throws -> (ManagedObjectContext, ManagedObjectID) {
        let coordinator = try ExpenseModel.coordinator(kind)
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let id = try writer.performAndWait {
            let food = Category(context: writer)
            food.id = UUID()
            food.name = "Food"
            try writer.save()
            return food.objectID
        }
        return (ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator), id)
    }

    @Test(arguments: StoreKind.all)
    func anUnchangedObjectLeavesTheContextWhenNothingReferencesIt(_ kind: StoreKind) throws {
        let (context, id) = try Self.seeded(kind)
        weak var food: ManagedObject?
        try context.performAndWait {
            let fetched = try context.existingObject(with: id)
            food = fetched
            #expect(context.registeredObject(for: id) === fetched)
        }
        #expect(food == nil, "nothing kept it")
        context.performAndWait {
            #expect(context.registeredObject(for: id) == nil)
            #expect(context.registeredObjects.isEmpty)
        }
        let name = try context.performAndWait {
            (try context.fetch(FetchRequest<Category>(entityName: "Category")).first)?.name
        }
        #expect(name == "Food", "a later fetch makes a new instance")
    }

    @Test(arguments: StoreKind.all)
    func objectsWithPendingChangesStayUntilSavedOrRolledBack(_ kind: StoreKind) throws {
        let (context, id) = try Self.seeded(kind)
        weak var updated: ManagedObject?
        weak var inserted: ManagedObject?
        context.performAndWait {
            let food = context.object(with: id) as! Category
            food.name = "Groceries"
            updated = food
            let travel = Category(context: context)
            travel.id = UUID()
            travel.name = "Travel"
            inserted = travel
        }
        #expect(updated != nil && inserted != nil, "the context holds changed objects")
        try context.performAndWait {
            #expect((context.registeredObject(for: id) as? Category)?.name == "Groceries")
            try context.save()
        }
        #expect(updated == nil && inserted == nil, "saved: held no more")

        weak var deleted: ManagedObject?
        context.performAndWait {
            let food = context.object(with: id)
            context.delete(food)
            deleted = food
        }
        #expect(deleted != nil)
        context.performAndWait { context.rollback() }
        #expect(deleted == nil, "rolled back: held no more")
    }

    @Test(arguments: StoreKind.all)
    func retainsRegisteredObjectsKeepsEveryRegisteredObject(_ kind: StoreKind) throws {
        let (context, id) = try Self.seeded(kind)
        weak var food: ManagedObject?
        try context.performAndWait {
            context.retainsRegisteredObjects = true
            food = try context.existingObject(with: id)
        }
        #expect(food != nil)
        context.performAndWait {
            #expect(context.registeredObject(for: id) === food)
            context.reset()
            #expect(context.retainsRegisteredObjects, "reset keeps the setting")
        }
        #expect(food == nil, "reset forgets every object")
        try context.performAndWait { food = try context.existingObject(with: id) }
        #expect(food != nil)
        context.performAndWait { context.retainsRegisteredObjects = false }
        #expect(food == nil)
    }

    // Core Data's perform wraps an autorelease pool (perform(_:) documentation): what the
    // context hands out lives at least until the end of the block even if the caller drops it.
    @Test(arguments: StoreKind.all)
    func objectsHandedOutLiveUntilTheEndOfTheEvent(_ kind: StoreKind) async throws {
        let (context, id) = try Self.seeded(kind)
        try context.performAndWait {
            _ = context.object(with: id)
            #expect(context.registeredObject(for: id) != nil)
            _ = try context.fetch(FetchRequest<Category>(entityName: "Category"))
            #expect(context.registeredObjects.count == 1)
        }
        context.performAndWait { #expect(context.registeredObject(for: id) == nil) }
        let alive = try await context.perform {
            _ = try context.fetch(FetchRequest<Category>(entityName: "Category"))
            return context.registeredObject(for: id) != nil
        }
        #expect(alive)
        context.performAndWait { #expect(context.registeredObject(for: id) == nil) }
    }

    @MainActor
    @Test(arguments: StoreKind.all)
    func aMainQueueContextKeepsWhatItHandsOutUntilTheEndOfTheTurn(_ kind: StoreKind) async throws {
        let (background, id) = try Self.seeded(kind)
        let view = ManagedObjectContext(
            concurrencyType: .mainQueue, coordinator: background.persistentStoreCoordinator!)
        _ = try view.existingObject(with: id)
        #expect(view.registeredObject(for: id) != nil)
        await drainMainQueue()
        #expect(view.registeredObject(for: id) == nil)
    }
}
