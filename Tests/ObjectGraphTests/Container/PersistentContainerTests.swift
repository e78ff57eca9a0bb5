import Foundation
import ObjectGraph
import Testing

@Suite struct PersistentContainerTests {
    private func container() throws -> PersistentContainer {
        let container = PersistentContainer(
            name: "ExpenseTracker", managedObjectModel: try ExpenseModel.make())
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        ]
        try container.loadPersistentStores()
        return container
    }

    @Test func devNullGivesTheRAMStore() throws {
        let c = try container()
        #expect(c.persistentStoreCoordinator.persistentStores.count == 1)
        #expect(c.persistentStoreCoordinator.persistentStores.first?.type == "InMemory")
    }

    @Test func loadPersistentStoresReportsEachStoreToItsHandler() throws {
        let container = PersistentContainer(name: "T", managedObjectModel: try ExpenseModel.make())
        let description = PersistentStoreDescription()
        description.type = "NoSuchType"
        container.persistentStoreDescriptions = [PersistentStoreDescription(), description]
        let results = UncheckedSendable(ResultsBox())
        container.loadPersistentStores { description, error in
            results.value.items.append((description.type, error))
        }
        #expect(results.value.items.count == 2)
        #expect(results.value.items[0].1 == nil)
        #expect((results.value.items[1].1 as? ObjectGraphError)?.reason == .unknownStoreType)
        #expect((results.value.items[1].1 as NSError?)?.code == 134000)
    }

    final class ResultsBox { var items: [(String, (any Error)?)] = [] }

    @MainActor
    @Test func theViewContextIsUsedDirectlyOnTheMainQueue() throws {
        let c = try container()
        let view = c.viewContext
        #expect(view.concurrencyType == .mainQueue)
        let food = Category(context: view)
        food.id = UUID()
        food.name = "Food"
        try view.save()
        let background = c.newBackgroundContext()
        let names = try background.performAndWait {
            try background.fetch(FetchRequest<Category>(entityName: "Category")).compactMap(\.name)
        }
        #expect(names == ["Food"])
    }

    @MainActor
    @Test func aDraftChildOfTheViewContextSavesInTwoSteps() throws {
        let c = try container()
        let draft = ManagedObjectContext(concurrencyType: .mainQueue)
        draft.parent = c.viewContext
        let food = Category(context: draft)
        food.id = UUID()
        food.name = "Food"
        try draft.save()
        #expect(c.viewContext.hasChanges)
        let categories = try c.viewContext.fetch(FetchRequest<Category>(entityName: "Category"))
        #expect(categories.map(\.name) == ["Food"])
        let editor = ManagedObjectContext(concurrencyType: .mainQueue)
        editor.parent = c.viewContext
        let t = Transaction(context: editor)
        t.id = UUID()
        t.amount = 12.5
        t.date = Date(timeIntervalSince1970: 0)
        t.category = try editor.existingObject(with: categories[0].objectID) as? Category
        try editor.save()
        try c.viewContext.save()
        let fresh = c.newBackgroundContext()
        let saved = try fresh.performAndWait {
            try fresh.fetch(FetchRequest<Transaction>(entityName: "Transaction")).map {
                ($0.amount, $0.category?.name)
            }
        }
        #expect(saved.count == 1)
        #expect(saved.first?.0 == 12.5)
        #expect(saved.first?.1 == "Food")
    }

    @Test func performBackgroundTaskRunsOnAPrivateContext() async throws {
        let c = try container()
        let count = try await c.performBackgroundTask { context in
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            try context.save()
            return try context.count(for: FetchRequest<Category>(entityName: "Category"))
        }
        #expect(count == 1)
    }
}
