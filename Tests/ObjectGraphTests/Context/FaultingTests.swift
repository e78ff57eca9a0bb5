import Foundation
import ObjectGraph
import Testing

@Suite struct FaultingTests {
    private func savedCategory(_ coordinator: PersistentStoreCoordinator) throws -> ManagedObjectID
    {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        return try context.performAndWait {
            let c = Category(context: context)
            c.id = UUID()
            c.name = "Food"
            try context.save()
            return c.objectID
        }
    }

    @Test(arguments: StoreKind.all)
    func objectWithIDReturnsAFaultThatFillsOnFirstRead(_ kind: StoreKind) throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let id = try savedCategory(coordinator)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.performAndWait {
            let c = context.object(with: id) as! Category
            #expect(c.isFault)
            #expect(c.name == "Food")
            #expect(!c.isFault)
        }
    }

    @Test(arguments: StoreKind.all)
    func firingAFaultWhoseRowIsGoneMarksTheObjectDeleted(_ kind: StoreKind) throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let id = try savedCategory(coordinator)
        let a = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let loaded = try a.performAndWait { try a.existingObject(with: id) as! Category }
        let b = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try b.performAndWait {
            b.delete(b.object(with: id))
            try b.save()
        }
        a.performAndWait {
            #expect(loaded.name == "Food")  // a loaded copy stays readable
            a.refresh(loaded, mergeChanges: false)
            #expect(loaded.isFault)
            #expect(loaded.name == nil)
            #expect(loaded.isDeleted)
            #expect(throws: ObjectGraphError.self) { _ = try a.existingObject(with: id) }
        }
    }

    @Test(arguments: StoreKind.all)
    func refreshWithoutMergingDropsChangesAndWithMergingKeepsThem(_ kind: StoreKind) throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let id = try savedCategory(coordinator)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.performAndWait {
            let c = context.object(with: id) as! Category
            c.colorHex = "#123456"
            context.refresh(c, mergeChanges: true)
            #expect(c.colorHex == "#123456")
            #expect(c.hasChanges)
            context.refresh(c, mergeChanges: false)
            #expect(c.colorHex == "#FFFFFF")
            #expect(!context.hasChanges)
        }
    }

    @Test func contextSettingsHaveCoreDatasDefaults() {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        #expect(context.shouldDeleteInaccessibleFaults)
        #expect(context.stalenessInterval < 0)
        #expect(context.mergePolicy == .error)
        #expect(!context.automaticallyMergesChangesFromParent)
        context.name = "importer"
        context.transactionAuthor = "csv"
        #expect(context.name == "importer")
        #expect(context.transactionAuthor == "csv")
    }
}
