import Foundation
import Testing

@testable import ObjectGraph

@Suite struct JSONLinesContextSaveTests {
    @Test func aContextWhoseSaveFailsKeepsItsChangesAndARetrySucceeds() throws {
        let model = try ExpenseModel.make()
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("context.jsonl")
        let fs = FaultInjectingFileSystem()
        let store = try JSONLinesStore(
            model: model, url: url, options: StoreOptions(), fileSystem: fs)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let before = try Data(contentsOf: url)
        try context.performAndWait {
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            fs.failNext(.write, .partialThenFail(50, ENOSPC))
            #expect { try context.save() } throws: {
                ($0 as? ObjectGraphError)?.reason == .storeWriteFailed
            }
            #expect(context.hasChanges && context.insertedObjects.count == 1)
            #expect(food.name == "Food")
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(try Data(contentsOf: url).count > before.count)
        store.close()
        let reopened = try JSONLinesStore(model: model, url: url)
        let names = try reopened.fetch(StoreFetchRequest(entity: model[entityName: "Category"]!))
            .map { $0["name"]?.attributeValue }
        #expect(names == [.string("Food")])
    }
}
