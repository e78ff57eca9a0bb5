import Foundation
import ObjectGraph
import Testing

/// When a context announces its changes and runs delete rules: at the end of each event.
@Suite struct ContextEventTests {
    static func context(_ kind: StoreKind) throws -> ManagedObjectContext {
        ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
    }

    @discardableResult
    static func category(_ context: ManagedObjectContext, _ name: String) -> Category {
        let c = Category(context: context)
        c.id = UUID()
        c.name = name
        return c
    }

    static func lunch(_ context: ManagedObjectContext, in category: Category) -> Transaction {
        let t = Transaction(context: context)
        t.id = UUID()
        t.amount = 12.5
        t.date = Date(timeIntervalSinceReferenceDate: 0)
        t.category = category
        return t
    }

    /// `perform(_:)`, the variant that returns at once (an async caller would get the other).
    static func schedule(_ context: ManagedObjectContext, _ block: @escaping @Sendable () -> Void) {
        context.perform(block)
    }

    // Apple: processPendingChanges() coalesces the changes made since it last ran into one
    // objects-did-change ("invoke it manually to coalesce any pending unprocessed changes",
    // NSManagedObjectContext.processPendingChanges() documentation); the notification's keys
    // are those of coredata-semantics.md (f). An object inserted in one event and edited in a
    // later one is an update of that later event.
    @Test(arguments: StoreKind.all)
    func eachProcessPendingChangesPostsOneNotificationWithEveryChangeSinceTheLast(
        _ kind: StoreKind
    ) throws {
        let context = try Self.context(kind)
        let (kept, dropped) = try context.performAndWait {
            let kept = Self.category(context, "Kept")
            let dropped = Self.category(context, "Dropped")
            try context.save()
            return (kept, dropped)
        }
        let recorder = ChangeRecorder(context)
        context.performAndWait {
            let draft = Self.category(context, "Draft")
            context.processPendingChanges()
            #expect(recorder.all.count == 1)
            #expect(recorder.all.first?.set(NSInsertedObjectsKey) == [draft])

            draft.name = "Draft 2"
            let other = Self.category(context, "Other")
            kept.name = "Kept 2"
            kept.colorHex = "#000000"
            context.delete(dropped)
            context.processPendingChanges()
            #expect(recorder.all.count == 2)
            let second = recorder.all.last
            #expect(second?.set(NSInsertedObjectsKey) == [other])
            #expect(second?.set(NSUpdatedObjectsKey) == [draft, kept])
            #expect(second?.set(NSDeletedObjectsKey) == [dropped])

            context.processPendingChanges()
            #expect(recorder.all.count == 2, "nothing changed: nothing to announce")
        }
    }

    // Apple: perform(_:) "encapsulates an autorelease pool and a call to
    // processPendingChanges()"; performAndWait(_:) documents no such call (Core Data's
    // NSManagedObjectContext.perform(_:) and performAndWait(_:) documentation).
    @Test(arguments: StoreKind.all)
    func performEndsTheEventAndPerformAndWaitDoesNot(_ kind: StoreKind) async throws {
        let context = try Self.context(kind)
        let recorder = ChangeRecorder(context)
        let first = context.performAndWait { Self.category(context, "First").objectID }
        #expect(recorder.all.isEmpty, "performAndWait does not announce")

        try await context.perform { _ = Self.category(context, "Second") }
        #expect(recorder.all.count == 1)
        let inserted = recorder.all.first?.ids(NSInsertedObjectsKey) ?? []
        #expect(inserted.count == 2 && inserted.contains(first))

        Self.schedule(context) { _ = Self.category(context, "Third") }
        context.performAndWait {}  // runs after the block above, and its end of event
        #expect(recorder.all.count == 2)

        context.performAndWait { context.reset() }
        #expect(recorder.all.last?.invalidatedAll == true)
    }

    // Delete rules run when pending changes are processed, at the end of the event, or only at
    // save when propagatesDeletesAtEndOfEvent is false (coredata-semantics.md (b), from
    // NSManagedObjectContext.h).
    @Test(arguments: StoreKind.all)
    func deleteRulesRunAtTheEndOfTheEventNotAtTheEndOfPerformAndWait(_ kind: StoreKind) throws {
        let context = try Self.context(kind)
        let (food, lunch) = try context.performAndWait {
            let food = Self.category(context, "Food")
            let lunch = Self.lunch(context, in: food)
            try context.save()
            return (food, lunch)
        }
        context.performAndWait { context.delete(food) }
        context.performAndWait { #expect(lunch.category === food, "not processed yet") }
        context.perform {}
        context.performAndWait { #expect(lunch.category == nil, "nullified at the end of perform") }
        try context.performAndWait { try context.save() }
    }

    @Test(arguments: StoreKind.all)
    func withoutPropagationAtTheEndOfEventsDeleteRulesWaitForTheSave(_ kind: StoreKind) throws {
        let context = try Self.context(kind)
        context.propagatesDeletesAtEndOfEvent = false
        try context.performAndWait {
            let food = Self.category(context, "Food")
            let lunch = Self.lunch(context, in: food)
            try context.save()
            context.delete(food)
            context.processPendingChanges()
            #expect(lunch.category === food)
            #expect(
                try context.fetch(FetchRequest<Transaction>(entityName: "Transaction")).count == 1)
            try context.save()
            #expect(lunch.category == nil)
            #expect(!lunch.hasChanges)
        }
    }

    /// A context of `kind` whose three saved categories (C0, C1, C2, their IDs returned) it
    /// no longer holds (reset after the save).
    private static func threeSavedCategories(_ kind: StoreKind) throws
        -> (ManagedObjectContext, [ManagedObjectID])
    {
        let context = try Self.context(kind)
        let ids = try context.performAndWait {
            let categories = (0..<3).map { Self.category(context, "C\($0)") }
            try context.save()
            return categories.map(\.objectID)
        }
        context.performAndWait { context.reset() }
        return (context, ids)
    }

    /// A fetch's objects are kept until the caller leaves the queue whatever the caller does
    /// with the array it got (the context keeps the first list of an event by sharing its
    /// buffer): emptied by the caller, then joined by a second fetch's and by an object
    /// inserted one at a time, every object stays registered to the end of the block; after
    /// it, the fetched objects nothing else holds leave the registry and are freed.
    @Test(arguments: StoreKind.all)
    func fetchedObjectsLiveToTheEndOfTheBlockWhateverTheCallerDoesWithItsArray(
        _ kind: StoreKind
    ) throws {
        let (context, ids) = try Self.threeSavedCategories(kind)
        weak var first: Category?
        try context.performAndWait {
            var fetched = try context.fetch(FetchRequest<Category>(entityName: "Category"))
            first = fetched.first
            fetched.removeAll()
            for id in ids { #expect(context.registeredObject(for: id) != nil) }
            #expect(first != nil)
            let again = try context.fetch(FetchRequest<Category>(entityName: "Category"))
            #expect(again.count == 3 && again.contains { $0 === first })
            _ = Self.category(context, "Draft")
            context.rollback()
            for id in ids { #expect(context.registeredObject(for: id) != nil) }
        }
        #expect(first == nil, "let go once the block ended")
        context.performAndWait {
            for id in ids { #expect(context.registeredObject(for: id) == nil) }
        }
    }

    /// A fetch's array returned out of the block (the event's list shared its buffer): its
    /// objects stay registered while the caller holds the array, through the end of that event
    /// and the next one's; a `reset()` meanwhile unregisters them and leaves the caller's
    /// array as it was; once the caller lets the array go, the next event that does work
    /// frees them at its end.
    @Test(arguments: StoreKind.all)
    func aFetchedArrayTheCallerKeepsOutlivesTheEventItWasFetchedIn(_ kind: StoreKind) throws {
        let (context, ids) = try Self.threeSavedCategories(kind)
        var kept: [Category]? = try context.performAndWait {
            try context.fetch(FetchRequest<Category>(entityName: "Category"))
        }
        weak var first = kept?.first
        context.performAndWait {
            for id in ids { #expect(context.registeredObject(for: id) != nil) }
        }
        context.performAndWait {}
        #expect(first != nil)
        context.performAndWait {
            for id in ids { #expect(context.registeredObject(for: id) != nil) }
            context.reset()
            for id in ids { #expect(context.registeredObject(for: id) == nil) }
        }
        #expect(kept?.count == 3 && kept?.first === first)
        // Fetched again, the caller's array and the registry share the new objects.
        kept = try context.performAndWait {
            try context.fetch(FetchRequest<Category>(entityName: "Category"))
        }
        first = kept?.first
        kept = nil
        // An event with work ends with a sweep (an event without any does not look): here a
        // fetch of the same objects, which only that event then holds.
        _ = try context.performAndWait {
            try context.fetch(FetchRequest<Category>(entityName: "Category")).count
        }
        #expect(first == nil, "let go once the caller dropped the array and an event ended")
        context.performAndWait {
            for id in ids { #expect(context.registeredObject(for: id) == nil) }
        }
    }

    // Core Data processes a main-queue context's pending changes at the end of the main run
    // loop's turn ("invoked automatically at least once during the event loop (at the end of
    // the loop)", processPendingChanges() documentation; FreeCoreData
    // NSManagedObjectLifecycleTests.m testPendingChangesProcessOnRunLoopTurn, run against
    // Apple). Here: one block queued on the main queue on the first change of a turn.
    @MainActor
    @Test(arguments: StoreKind.all)
    func aMainQueueContextUsedDirectlyAnnouncesItsChangesAtTheEndOfTheTurn(_ kind: StoreKind)
        async throws
    {
        let view = ManagedObjectContext(
            concurrencyType: .mainQueue, coordinator: try ExpenseModel.coordinator(kind))
        let recorder = ChangeRecorder(view)
        let food = Self.category(view, "Food")
        let travel = Self.category(view, "Travel")
        food.name = "Groceries"
        let lunch = Self.lunch(view, in: food)
        #expect(recorder.all.isEmpty, "the turn has not ended")
        await drainMainQueue()
        #expect(recorder.all.count == 1, "one notification for the whole turn")
        #expect(recorder.all.first?.set(NSInsertedObjectsKey) == [food, travel, lunch])
        #expect(recorder.all.first?.onMainQueue == true)

        view.delete(lunch)
        travel.name = "Trips"
        await drainMainQueue()
        #expect(recorder.all.count == 2)
        #expect(recorder.all.last?.set(NSUpdatedObjectsKey) == [travel, food])
        #expect(recorder.all.last?.set(NSDeletedObjectsKey) == [lunch])
        #expect(!view.insertedObjects.contains(lunch))
        await drainMainQueue()
        #expect(recorder.all.count == 2, "a turn without changes announces nothing")
    }
}
