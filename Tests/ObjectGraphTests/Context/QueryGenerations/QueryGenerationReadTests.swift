import Foundation
import Testing

@testable import ObjectGraph

/// A pinned context reads the stores as they were at its generation while others save.
///
/// Core Data: "Whenever you read from a context, you see the same generation, or snapshot, of
/// data until you choose to advance it to a later generation"; "The context updates to the
/// specified generation lazily on the next read (fetching or faulting) operation"
/// (developer.apple.com/documentation/coredata/accessing-data-when-the-store-changes).
@Suite struct QueryGenerationReadTests {
    typealias G = GenerationStack

    @Test(arguments: StoreKind.all)
    func fetchesAndCountsSeeThePinnedGenerationWhileOthersSave(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = stack.context()
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            #expect(try G.names(pinned) == ["Food", "Rent"])  // pins here
        }
        try stack.save { other in
            G.category("Travel", in: other)
            try G.first(Category.self, "name", "Rent", in: other).name = "Housing"
            other.delete(try G.first(Transaction.self, "note", "bread", in: other))
        }
        try pinned.performAndWait {
            #expect(try G.names(pinned) == ["Food", "Rent"])
            #expect(try G.notes(pinned) == ["bread", "may", "milk"])
            #expect(try pinned.count(for: Category.fetchRequest()) == 2)
            let filtered = Category.fetchRequest()
            filtered.predicate = try FetchPredicate(format: "ANY transactions.note == 'bread'")
            #expect(try pinned.fetch(filtered).compactMap(\.name) == ["Food"])
        }
        let fresh = stack.context()
        try fresh.performAndWait { () throws in
            #expect(try G.names(fresh) == ["Food", "Housing", "Travel"])
        }
    }

    @Test(arguments: StoreKind.all)
    func faultsBatchFaultsAndToManysReadThePinnedGeneration(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = stack.context()
        let breadID = try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            _ = try pinned.count(for: Category.fetchRequest())  // a count pins too
            return try G.first(Transaction.self, "note", "bread", in: pinned).objectID
        }
        pinned.performAndWait { pinned.reset() }  // reset moves it: pin again
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            _ = try pinned.count(for: Category.fetchRequest())
        }
        try stack.save { other in
            let bread = try G.first(Transaction.self, "note", "bread", in: other)
            bread.note = "rye"
            bread.category = try G.first(Category.self, "name", "Rent", in: other)
        }
        try pinned.performAndWait {
            // A fault filled on its own.
            let bread = try #require(pinned.object(with: breadID) as? Transaction)
            #expect(bread.note == "bread")
            // Batch faulting.
            let request = Transaction.fetchRequest()
            request.fetchBatchSize = 2
            request.includesPropertyValues = false
            request.sortDescriptors = [FetchSortDescriptor(key: "amount", ascending: true)]
            #expect(try pinned.fetch(request).map(\.note) == ["bread", "milk", "may"])
            // A to-many derived from its inverse.
            let food = try G.first(Category.self, "name", "Food", in: pinned)
            #expect(food.transactions.compactMap(\.note).sorted() == ["bread", "milk"])
            let rent = try G.first(Category.self, "name", "Rent", in: pinned)
            #expect(rent.transactions.compactMap(\.note) == ["may"])
        }
    }

    @Test(arguments: StoreKind.all)
    func refreshReadsThePinnedGenerationUntilTheContextMoves(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = stack.context()
        let food = try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            return try G.first(Category.self, "name", "Food", in: pinned)
        }
        try stack.save { try G.first(Category.self, "name", "Food", in: $0).name = "Groceries" }
        try pinned.performAndWait {
            pinned.refresh(food, mergeChanges: false)
            #expect(food.name == "Food")
            // Core Data: "Refresh any managed objects registered to the context after you change
            // the context's query generation" (accessing-data-when-the-store-changes).
            try pinned.setQueryGenerationFrom(.current)
            pinned.refreshAllObjects()
            #expect(food.name == "Groceries")
        }
    }

    @Test(arguments: StoreKind.all)
    func dictionaryFetchesAndChildContextsReadTheParentsGeneration(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = try stack.pinnedContext()
        try stack.save { G.category("Travel", in: $0) }
        // "Nested contexts inherit their parent's generation" (accessing-data-when-the-store-
        // changes); "All child contexts will return nil" (NSManagedObjectContext.h,
        // queryGenerationToken).
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = pinned
        try child.performAndWait {
            #expect(child.queryGenerationToken == nil)
            #expect(try G.names(child) == ["Food", "Rent"])
            let names = FetchRequest<[String: Any]>(entityName: "Category")
            names.resultType = .dictionaryResultType
            names.propertiesToFetch = ["name"]
            let values = try child.fetch(names).compactMap { $0["name"] as? String }.sorted()
            #expect(values == ["Food", "Rent"])
        }
        try pinned.performAndWait { () throws in
            let names = FetchRequest<[String: Any]>(entityName: "Category")
            names.resultType = .dictionaryResultType
            names.propertiesToFetch = ["name"]
            #expect(try pinned.fetch(names).count == 2)
        }
    }

    @Test func settingAGenerationOnAChildContextTraps() async {
        // "It is a programmer error to try to set the queryGenerationToken on a child
        // context" (NSManagedObjectContext.h, setQueryGenerationFromToken:error:).
        await #expect(processExitsWith: .failure) {
            let coordinator = try ExpenseModel.coordinator()
            let parent = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            try child.performAndWait { try child.setQueryGenerationFrom(.current) }
        }
    }

    /// Regression (the lead's review of `ftc`): deleting, in a pinned context, an object that
    /// another context has since deleted must still take it out of its target's unloaded
    /// to-many as the pinned context reads it. The check that a deleted member is still
    /// listed read the store's current rows, found none, and left the target unmarked, so
    /// the deleted transaction came back in `Food.transactions`.
    @Test(arguments: StoreKind.all)
    func aPinnedContextsDeletionLeavesTheTargetsToManyAtItsGeneration(_ kind: StoreKind) throws {
        let stack = try GenerationStack(kind)
        let pinned = try stack.pinnedContext()
        try pinned.performAndWait {
            // Registers the category as a fault through the transaction's to-one.
            _ = try G.first(Transaction.self, "note", "bread", in: pinned).category
        }
        try stack.save { other in
            other.delete(try G.first(Transaction.self, "note", "bread", in: other))
        }
        try pinned.performAndWait {
            let bread = try G.first(Transaction.self, "note", "bread", in: pinned)
            let food = try #require(bread.category)
            pinned.delete(bread)
            pinned.processPendingChanges()
            #expect(food.isUpdated)
            #expect(food.transactions.compactMap(\.note).sorted() == ["milk"])
        }
    }
}
