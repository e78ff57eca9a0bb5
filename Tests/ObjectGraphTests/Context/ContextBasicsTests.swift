import Foundation
import ObjectGraph
import Testing

@Suite struct ContextBasicsTests {
    private func newTransaction(
        _ context: ManagedObjectContext, _ amount: Decimal, note: String? = nil,
        category: Category? = nil
    ) -> Transaction {
        let t = Transaction(context: context)
        t.id = UUID()
        t.amount = amount
        t.date = Date(timeIntervalSince1970: 1_700_000_000)
        t.note = note
        t.category = category
        return t
    }

    @Test func insertingThenSavingGivesPermanentIDsAndStoresTheRows() throws {
        let coordinator = try ExpenseModel.coordinator()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            #expect(food.colorHex == "#FFFFFF")
            #expect(food.objectID.isTemporaryID)
            #expect(context.hasChanges)
            #expect(context.insertedObjects.count == 1)
            try context.save()
            #expect(!food.objectID.isTemporaryID)
            #expect(!context.hasChanges)
            #expect(!food.isInserted)
        }
        let other = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let names = try other.performAndWait {
            try other.fetch(FetchRequest<Category>(entityName: "Category")).map { $0.name }
        }
        #expect(names == ["Food"])
    }

    @Test func settingAToOneUpdatesTheInverseToMany() throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        context.performAndWait {
            let food = Category(context: context)
            let rent = Category(context: context)
            let t = newTransaction(context, 12.5, category: food)
            #expect(food.transactions == [t])
            t.category = rent
            #expect(food.transactions.isEmpty)
            #expect(rent.transactions == [t])
            rent.transactions = []
            #expect(t.category == nil)
        }
    }

    @Test func aFailedSaveLeavesContextAndStoreAsTheyWere() throws {
        let coordinator = try ExpenseModel.coordinator()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let t = newTransaction(context, 0)  // below the 0.01 minimum
            #expect(throws: ObjectGraphError.self) { try context.save() }
            do { try context.save() } catch {
                let ns = error as NSError
                #expect(ns.domain == NSCocoaErrorDomain)
                #expect(ns.code == NSValidationNumberTooSmallError)
                #expect(ns.userInfo[NSValidationKeyErrorKey] as? String == "amount")
            }
            #expect(context.hasChanges)
            #expect(t.isInserted)
            let stillThere = try context.count(
                for: FetchRequest<Transaction>(entityName: "Transaction"))
            #expect(stillThere == 1)
        }
        let fresh = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        #expect(
            try fresh.performAndWait {
                try fresh.count(for: FetchRequest<Transaction>(entityName: "Transaction"))
            } == 0)
    }

    @Test func updateDeleteRollbackAndReset() throws {
        let coordinator = try ExpenseModel.coordinator()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let t = newTransaction(context, 5, note: "lunch")
            try context.save()
            t.note = "dinner"
            #expect(t.isUpdated)
            #expect(t.changedValues()["note"] as? String == "dinner")
            #expect(t.committedValues(forKeys: ["note"])["note"] as? String == "lunch")
            context.rollback()
            #expect(t.note == "lunch")
            #expect(!context.hasChanges)
            context.delete(t)
            #expect(t.isDeleted)
            #expect(try context.fetch(FetchRequest<Transaction>(entityName: "Transaction")).isEmpty)
            context.rollback()
            #expect(
                try context.fetch(FetchRequest<Transaction>(entityName: "Transaction")).count == 1)
            let id = t.objectID
            context.reset()
            #expect(context.registeredObject(for: id) == nil)
            let again = try context.existingObject(with: id) as? Transaction
            #expect(again?.note == "lunch")
            #expect(again !== t)
        }
    }

    @Test func existingObjectThrows133000ForADeletedObject() throws {
        let coordinator = try ExpenseModel.coordinator()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let t = newTransaction(context, 5)
            try context.save()
            let id = t.objectID
            context.delete(t)
            try context.save()
            do {
                _ = try context.existingObject(with: id)
                Issue.record("expected an error")
            } catch {
                #expect((error as NSError).code == NSManagedObjectReferentialIntegrityError)
            }
        }
    }

    @Test func childSaveStopsAtItsParent() throws {
        let coordinator = try ExpenseModel.coordinator()
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        try child.performAndWait {
            let c = Category(context: child)
            c.id = UUID()
            c.name = "Food"
            try child.save()
            #expect(c.objectID.isTemporaryID)
        }
        try parent.performAndWait {
            #expect(parent.hasChanges)
            #expect(parent.insertedObjects.count == 1)
            let names = try parent.fetch(FetchRequest<Category>(entityName: "Category")).map(\.name)
            #expect(names == ["Food"])
        }
        let fresh = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        #expect(
            try fresh.performAndWait {
                try fresh.count(for: FetchRequest<Category>(entityName: "Category"))
            } == 0)
        try parent.performAndWait { try parent.save() }
        #expect(
            try fresh.performAndWait {
                try fresh.count(for: FetchRequest<Category>(entityName: "Category"))
            } == 1)
    }

    @Test func deletingACategoryNullifiesItsTransactions() throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        try context.performAndWait {
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            let t = newTransaction(context, 3, category: food)
            try context.save()
            context.delete(food)
            try context.save()
            #expect(t.category == nil)
            #expect(!t.hasChanges)
        }
    }

    @Test func twoMissingValuesGive1560WithBothDetails() throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        context.performAndWait {
            _ = Category(context: context)  // id and name missing
            do {
                try context.save()
                Issue.record("expected an error")
            } catch {
                let ns = error as NSError
                #expect(ns.code == NSValidationMultipleErrorsError)
                let details = ns.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                #expect(details.count == 2)
                #expect(
                    Set(details.compactMap { $0.userInfo[NSValidationKeyErrorKey] as? String }) == [
                        "id", "name",
                    ])
            }
        }
    }
}
