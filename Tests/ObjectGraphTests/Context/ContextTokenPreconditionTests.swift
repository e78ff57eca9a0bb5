import Foundation
import Testing

@testable import ObjectGraph

/// The preconditions that ask whether an object is in a context by comparing context tokens
/// (`ManagedObject.isIn(_:)`) answer as they did when they compared contexts: an object of
/// another live context, or one held past its freed context, is refused by `delete(_:)`,
/// `insert(_:)` (live contexts only) and `assign(_:to:)`; an object whose context was freed
/// can be inserted into a new one; `refresh(_:mergeChanges:)` of a foreign object does
/// nothing; and an object freed with its context reads no context in its own `deinit`.
@Suite struct ContextTokenPreconditionTests {
    /// A coordinator on a fresh store of `kind` with the staff model.
    private static func coordinator(_ kind: StoreKind) throws -> PersistentStoreCoordinator {
        let model = try StaffModel.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return coordinator
    }

    /// A private-queue context on `coordinator`.
    private static func context(_ coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    /// Seeds a store of `kind`, fetches alpha in a context, frees that context and returns
    /// alpha (held past it) with a new context on the same coordinator.
    private static func alphaPastItsFreedContext(_ kind: StoreKind) throws -> (
        alpha: ManagedObject, next: ManagedObjectContext
    ) {
        let coordinator = try Self.coordinator(kind)
        var old: ManagedObjectContext? = Self.context(coordinator)
        weak var freed: ManagedObjectContext?
        let alpha = try old!.performAndWait { () throws in
            try StaffModel.seedRnD(in: old!)
            let request = FetchRequest<ManagedObject>(entityName: "Employee")
            request.predicate = try FetchPredicate(format: "name == 'alpha'")
            return try #require(try old!.fetch(request).first)
        }
        freed = old
        old = nil
        #expect(freed == nil, "the context is freed")
        #expect(alpha.managedObjectContext == nil)
        return (alpha, Self.context(coordinator))
    }

    /// Deletes alpha, held past its freed context, in a new context (an exit test's body).
    private static func deleteAlphaPastItsFreedContext(_ kind: StoreKind) throws {
        let (alpha, next) = try Self.alphaPastItsFreedContext(kind)
        next.performAndWait { next.delete(alpha) }
    }

    /// Inserts alpha into one context and runs `use` on the queue of another live context of
    /// the same coordinator with alpha and the coordinator's store (an exit test's body).
    private static func inAnotherLiveContext(
        _ use: (ManagedObjectContext, ManagedObject, any PersistentStore) -> Void
    ) throws {
        let coordinator = try Self.coordinator(.inMemory)
        let one = Self.context(coordinator)
        let two = Self.context(coordinator)
        let alpha = one.performAndWait { StaffModel.employee("alpha", salary: 1, in: one) }
        two.performAndWait { use(two, alpha, coordinator.persistentStores[0]) }
    }

    /// The message `precondition` printed in an exit test's standard error.
    private static func message(_ result: ExitTest.Result?) throws -> String {
        String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
    }

    @Test func deletingAnObjectOfAnotherLiveContextTraps() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            try Self.inAnotherLiveContext { two, alpha, _ in two.delete(alpha) }
        }
        #expect(try Self.message(result).contains("which belongs to another context"))
    }

    @Test func insertingAnObjectOfAnotherLiveContextTraps() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            try Self.inAnotherLiveContext { two, alpha, _ in two.insert(alpha) }
        }
        #expect(try Self.message(result).contains("already belongs to another context"))
    }

    @Test func assigningAnObjectOfAnotherLiveContextToAStoreTraps() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            try Self.inAnotherLiveContext { two, alpha, store in two.assign(alpha, to: store) }
        }
        #expect(try Self.message(result).contains("which belongs to another context"))
    }

    @Test func deletingAnObjectHeldPastItsFreedContextInANewContextTrapsInMemory() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            try Self.deleteAlphaPastItsFreedContext(.inMemory)
        }
        #expect(try Self.message(result).contains("which belongs to another context"))
    }

    @Test func deletingAnObjectHeldPastItsFreedContextInANewContextTrapsInJSONLines()
        async throws
    {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            try Self.deleteAlphaPastItsFreedContext(.jsonLines)
        }
        #expect(try Self.message(result).contains("which belongs to another context"))
    }

    // Inserting a fetched object again made it an insert of a row the store already holds.
    @Test func insertingAnObjectOfAStoreHeldPastItsFreedContextTraps() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let (alpha, next) = try Self.alphaPastItsFreedContext(.jsonLines)
            next.performAndWait { next.insert(alpha) }
        }
        #expect(try Self.message(result).contains("which is in a store (its ID is permanent)"))
    }

    @Test(arguments: StoreKind.all)
    func anUnsavedInsertHeldPastItsFreedContextCanBeInsertedIntoANewOne(_ kind: StoreKind)
        throws
    {
        let coordinator = try Self.coordinator(kind)
        var old: ManagedObjectContext? = Self.context(coordinator)
        weak var freed: ManagedObjectContext?
        let charlie = old!.performAndWait {
            StaffModel.employee("charlie", salary: 30, in: old!)
        }
        freed = old
        old = nil
        #expect(freed == nil, "the context is freed")
        #expect(charlie.managedObjectContext == nil)
        let next = Self.context(coordinator)
        next.performAndWait {
            next.insert(charlie)
            #expect(charlie.managedObjectContext === next)
            #expect(charlie.isIn(next))
            #expect(next.registeredObject(for: charlie.objectID) === charlie)
            #expect(charlie.value(forKey: "name") as? String == "charlie")
            // A regression test: the old context's pending flag kept it off this context's
            // lists, so it was registered and never saved.
            #expect(next.insertedObjects.contains(charlie))
            #expect(charlie.isInserted)
        }
        try next.performAndWait { try next.save() }
        let reader = Self.context(coordinator)
        let saved = try reader.performAndWait { () throws in
            let request = FetchRequest<ManagedObject>(entityName: "Employee")
            request.predicate = try FetchPredicate(format: "name == 'charlie'")
            return try reader.count(for: request)
        }
        #expect(saved == 1, "the insert is saved once")
    }

    @Test(arguments: StoreKind.all)
    func refreshingAnObjectOfAnotherContextDoesNothing(_ kind: StoreKind) throws {
        let (alpha, next) = try Self.alphaPastItsFreedContext(kind)
        next.performAndWait {
            let wasFault = alpha.isFault
            next.refresh(alpha, mergeChanges: false)
            #expect(alpha.isFault == wasFault, "an object of a freed context is not refreshed")
            #expect(alpha.managedObjectContext == nil)
        }
        let live = Self.context(next.persistentStoreCoordinator!)
        let fetched = try next.performAndWait { () throws in
            let request = FetchRequest<ManagedObject>(entityName: "Employee")
            request.predicate = try FetchPredicate(format: "name == 'bravo'")
            let bravo = try #require(try next.fetch(request).first)
            bravo.setValue(21, forKey: "salary")
            return bravo
        }
        live.performAndWait { live.refresh(fetched, mergeChanges: false) }
        next.performAndWait {
            #expect(!fetched.isFault, "an object of another live context is not refreshed")
            #expect(fetched.value(forKey: "salary") as? Int32 == 21)
            #expect(fetched.changedValues().keys.contains("salary"))
        }
    }
}
