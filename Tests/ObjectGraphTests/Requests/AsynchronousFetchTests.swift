import Foundation
import ObjectGraph
import Testing

// Core Data: `NSAsynchronousFetchRequest` "retrieves results asynchronously and supports
// progress notification"; its result has `finalResult`, `operationError`, `progress` and
// `cancel()`; `completionBlock` "is executed when the fetch request has completed"
// (developer.apple.com/documentation/coredata/nsasynchronousfetchrequest,
// .../nspersistentstoreasynchronousresult).
@Suite struct AsynchronousFetchTests {
    private static func filledContext(_ kind: StoreKind, count: Int) throws
        -> ManagedObjectContext
    {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
        try context.performAndWait {
            for i in 0..<count {
                let category = Category(context: context)
                category.id = UUID()
                category.name = String(format: "c%05d", i)
            }
            try context.save()
        }
        return context
    }

    /// Executes `request` on the context's queue and waits for its completion block.
    private static func run(
        _ context: ManagedObjectContext, entityName: String = "Category",
        sortedByName: Bool = false, cancelAtOnce: Bool = false
    ) async -> (names: [String]?, error: NSError?, total: Int64, done: Int64, onQueue: Bool) {
        await withCheckedContinuation { continuation in
            context.perform {
                let request = FetchRequest<Category>(entityName: entityName)
                if sortedByName {
                    request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
                }
                let async = AsynchronousFetchRequest(fetchRequest: request) { result in
                    // The completion runs on the context's queue: the context may be used here.
                    let onQueue = result.managedObjectContext === context && context.hasChanges
                    continuation.resume(
                        returning: (
                            result.finalResult?.compactMap(\.name),
                            result.operationError.map { $0 as NSError },
                            result.progress.totalUnitCount, result.progress.completedUnitCount,
                            onQueue
                        ))
                }
                let unsaved = Category(context: context)  // a pending change the fetch sees
                unsaved.name = "zz-unsaved"
                let result = try! context.execute(async)
                if cancelAtOnce { result.cancel() }
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func deliversEveryResultOnTheContextsQueueWithProgress(_ kind: StoreKind) async throws {
        let context = try Self.filledContext(kind, count: 2500)
        let outcome = await Self.run(context, sortedByName: true)
        #expect(outcome.error == nil)
        #expect(outcome.names?.count == 2501)
        #expect(outcome.names?.first == "c00000")
        #expect(outcome.names?.last == "zz-unsaved")
        #expect(outcome.total == 2501)
        #expect(outcome.done == 2501)
        #expect(outcome.onQueue)
    }

    @Test func aCancelledFetchEndsWithUserCancelledAndNoResult() async throws {
        let context = try Self.filledContext(.inMemory, count: 10)
        let outcome = await Self.run(context, cancelAtOnce: true)
        #expect(outcome.names == nil)
        #expect(outcome.error?.domain == NSCocoaErrorDomain)
        #expect(outcome.error?.code == NSUserCancelledError)
    }

    @Test func aFailingFetchReportsItsErrorInOperationError() async throws {
        let context = try Self.filledContext(.inMemory, count: 1)
        let outcome = await Self.run(context, entityName: "NoSuchEntity")
        #expect(outcome.names == nil)
        #expect(outcome.error?.code == 134060)
    }

    @Test(arguments: StoreKind.all)
    func fetchObjectIDsReturnsSendableIDsOffTheCallersQueue(_ kind: StoreKind) async throws {
        let context = try Self.filledContext(kind, count: 3)
        let request = FetchRequest<Category>(entityName: "Category")
        request.predicate = try FetchPredicate(format: "name != %@", "c00001")
        let ids = try await context.fetchObjectIDs(request)
        #expect(ids.count == 2)
        let names = try await context.perform {
            try ids.map { try (context.existingObject(with: $0) as! Category).name ?? "" }
        }
        #expect(names.sorted() == ["c00000", "c00002"])
    }

    /// `fetch(_:)` has no `async` overload: a plain `try context.fetch(r)` in an `async`
    /// function compiles unchanged (here on the main actor, for a main-queue context).
    @MainActor @Test func aPlainFetchStillCompilesInsideAnAsyncFunction() async throws {
        let context = ManagedObjectContext(
            concurrencyType: .mainQueue, coordinator: try ExpenseModel.coordinator())
        let food = Category(context: context)
        food.id = UUID()
        food.name = "Food"
        try context.save()
        let request = FetchRequest<Category>(entityName: "Category")
        let objects = try context.fetch(request)
        let ids = try await context.fetchObjectIDs(request)
        #expect(objects.map(\.objectID) == ids)
    }
}
