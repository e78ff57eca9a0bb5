import Foundation
import ObjectGraph
import Testing

/// Batch updates as the built-in stores run them on their rows, in place (issue 25): the same
/// outcome as a save of the changed rows, on both stores, after a reopen, atomically.
@Suite struct BatchUpdateStoreTests {
    /// Three saved transactions with notes `notes`, amounts 10, 20, 30.
    private func seeded(_ kind: StoreKind, notes: [String] = ["a", "b", "c"]) throws -> (
        PersistentStoreCoordinator, [ManagedObjectID]
    ) {
        let coordinator = try ExpenseModel.coordinator(kind)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let ids = try context.performAndWait {
            let items = notes.enumerated().map { i, note in
                let t = Transaction(context: context)
                t.id = UUID()
                t.amount = Decimal((i + 1) * 10)
                t.date = Date(timeIntervalSince1970: 0)
                t.note = note
                return t
            }
            try context.save()
            return items.map(\.objectID)
        }
        return (coordinator, ids)
    }

    private func rows(_ store: any PersistentStore, _ ids: [ManagedObjectID]) throws -> [StoreRow] {
        try ids.map { try #require(try store.row(for: $0)) }
    }

    @Test(arguments: StoreKind.all)
    func aBatchUpdateChangesOnlyMatchingRowsBumpsTheirVersionAndSurvivesAReopen(kind: StoreKind)
        throws
    {
        let (coordinator, ids) = try seeded(kind)
        let store = coordinator.persistentStores[0]
        let before = try rows(store, ids)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let updated = try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.predicate = try FetchPredicate(format: "amount >= 20")
            update.propertiesToUpdate = [
                "amount": try FetchExpression(format: "amount * 2"), "isCleared": true,
            ]
            update.resultType = .objectIDs
            return try context.execute(update).result as? [ManagedObjectID] ?? []
        }
        #expect(updated == [ids[1], ids[2]])
        let afterUpdate = try rows(store, ids)
        let reopened = try kind.reopen(store, coordinator.managedObjectModel)
        for after in [afterUpdate, try rows(reopened, ids)] {
            #expect(after[0] == before[0])
            for i in 1...2 {
                #expect(after[i].version == before[i].version + 1)
                #expect(after[i]["amount"] == .attribute(.decimal(Decimal((i + 1) * 20))))
                #expect(after[i]["isCleared"] == .attribute(.boolean(true)))
                #expect(after[i]["note"] == before[i]["note"])
                #expect(after[i]["category"] == before[i]["category"])
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func aValueThatDoesNotFitALaterRowLeavesEveryRowAsItWas(kind: StoreKind) throws {
        // "12.5" and "7" read as decimals; the third note does not, so nothing changes.
        let (coordinator, ids) = try seeded(kind, notes: ["12.5", "7", "lots"])
        let store = coordinator.persistentStores[0]
        let before = try rows(store, ids)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.propertiesToUpdate = ["amount": FetchExpression(forKeyPath: "note")]
            let error = #expect(throws: ObjectGraphError.self) { try context.execute(update) }
            #expect(error?.reason == .batchInvalidValue)
            #expect(error?.objectID == ids[2])
        }
        #expect(try rows(store, ids) == before)
        let reopened = try kind.reopen(store, coordinator.managedObjectModel)
        #expect(try rows(reopened, ids) == before)
    }

    @Test func aBatchUpdateOnTheRAMStoreLeavesACopyOfItsRowsAsTheyWere() throws {
        // The update writes the rows in place; a snapshot taken before (as the fixture
        // provider hands to each test) shares them and must not see the change.
        let (coordinator, ids) = try seeded(.inMemory)
        let store = try #require(coordinator.persistentStores[0] as? InMemoryStore)
        let copy = try InMemoryStore(model: store.model, table: store.snapshot())
        let before = try rows(copy, ids)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.propertiesToUpdate = ["note": "changed"]
            _ = try context.execute(update)
        }
        #expect(try rows(copy, ids) == before)
        #expect(try rows(store, ids).allSatisfy { $0["note"] == .attribute(.string("changed")) })
    }

    @Test func aReadOnlyStoreRefusesABatchUpdateOnlyWhenARowMatches() throws {
        let (seededCoordinator, _) = try seeded(.inMemory)
        let seededStore = try #require(seededCoordinator.persistentStores[0] as? InMemoryStore)
        let model = seededStore.model
        var options = StoreOptions()
        options.isReadOnly = true
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            try InMemoryStore(model: model, table: seededStore.snapshot(), options: options))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let none = BatchUpdateRequest(entityName: "Transaction")
            none.predicate = try FetchPredicate(format: "amount > 1000")
            none.propertiesToUpdate = ["note": "x"]
            none.resultType = .count
            #expect(try context.execute(none).result as? Int == 0)
            let some = BatchUpdateRequest(entityName: "Transaction")
            some.propertiesToUpdate = ["note": "x"]
            let error = #expect(throws: ObjectGraphError.self) { try context.execute(some) }
            #expect(error?.reason == .readOnlyStore)
        }
    }

    @Test(arguments: StoreKind.all)
    func aTransientAttributeIsEvaluatedButNoStoreKeepsIt(kind: StoreKind) throws {
        let model = try FileStoreFixtures.model()
        let store = try kind.open(model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let id = try context.performAndWait {
            let category = context.insertNewObject(forEntityName: "Category")
            category.setValue("Food", forKey: "name")
            try context.save()
            return category.objectID
        }
        let count = try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Category")
            update.propertiesToUpdate = ["scratch": "x", "name": "Meals"]
            update.resultType = .count
            return try context.execute(update).result as? Int
        }
        #expect(count == 1)
        let inPlace = try #require(try store.row(for: id))
        let reopened = try #require(try kind.reopen(store, model).row(for: id))
        for row in [inPlace, reopened] {
            #expect(row["name"] == .attribute(.string("Meals")))
            #expect(row["scratch"] == .notStored)
            #expect(row.version == 2)
        }
    }

    @Test(arguments: HistoryStack.Kind.allCases)
    func historyRecordsEachRowsChangedPropertiesExactly(_ kind: HistoryStack.Kind) throws {
        // The rows are written in place and the line carries patches: history still names,
        // per object, the updated attributes whose values changed and no other.
        let stack = try HistoryStack(kind)
        let ids = try stack.insert(["a", "b", "c"])
        let context = stack.context(author: "batch")
        let updated = try context.performAndWait {
            let first = BatchUpdateRequest(entityName: "Item")
            first.predicate = try FetchPredicate(format: "name == 'a'")
            first.propertiesToUpdate = ["note": "a"]
            _ = try context.execute(first)
            let second = BatchUpdateRequest(entityName: "Item")
            second.propertiesToUpdate = [
                "note": FetchExpression(forKeyPath: "name"),
                "count": try FetchExpression(format: "count * 2 + 1"),
            ]
            second.resultType = .objectIDs
            return try context.execute(second).result as? [ManagedObjectID]
        }
        #expect(updated == ids)
        let last = try #require(try stack.transactions(after: nil).last)
        #expect(last.author == "batch")
        let changes = try #require(last.changes)
        #expect(changes.map(\.changedObjectID) == ids)
        #expect(changes.map(\.changeType) == [.update, .update, .update])
        #expect(
            changes.map(\.updatedPropertyNames) == [
                ["count"], ["count", "note"], ["count", "note"],
            ])
    }
}
