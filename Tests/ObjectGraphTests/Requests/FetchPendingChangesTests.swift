import Foundation
import ObjectGraph
import Testing

/// A store fetch with a to-one key path, a sort and a limit, merged with unsaved changes.
@Suite struct FetchPendingChangesTests {
    /// Food (5, 20, 40), Rent (900) and one uncategorised (7), all saved.
    private func seeded() throws -> ManagedObjectContext { try FetchSeed.context() }

    @Test func limitedSortedFetchThroughAToOneSeesMovedDeletedAndInsertedObjects() throws {
        let context = try seeded()
        try context.performAndWait { () throws in
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            request.predicate = try FetchPredicate(format: "category.name == 'Food'")
            request.sortDescriptors = [FetchSortDescriptor(key: "amount", ascending: false)]
            request.fetchLimit = 2
            #expect(try context.fetch(request).map(\.amount) == [40, 20])

            let categories = try context.fetch(FetchRequest<Category>(entityName: "Category"))
            let food = try #require(categories.first { $0.name == "Food" })
            let all = try context.fetch(FetchRequest<Transaction>(entityName: "Transaction"))
            try #require(all.count == 5)
            all.first { $0.amount == 900 }?.category = food
            #expect(try context.fetch(request).map(\.amount) == [900, 40])

            if let forty = all.first(where: { $0.amount == 40 }) { context.delete(forty) }
            #expect(try context.fetch(request).map(\.amount) == [900, 20])

            let added = Transaction(context: context)
            added.id = UUID()
            added.amount = 30
            added.date = Date(timeIntervalSince1970: 0)
            added.category = food
            #expect(try context.fetch(request).map(\.amount) == [900, 30])
            request.fetchOffset = 1
            #expect(try context.fetch(request).map(\.amount) == [30, 20])

            request.includesPendingChanges = false
            request.fetchOffset = 0
            #expect(try context.fetch(request).map(\.amount) == [40, 20])
        }
    }
}
