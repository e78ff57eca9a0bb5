import Foundation
import ObjectGraph
import Testing

/// `BatchInsertRequest` with a handler that fills one row per call: Apple's
/// `init(entityName:dictionaryHandler:)` and `init(entityName:managedObjectHandler:)` ("Core
/// Data repeatedly calls the provided closure until it returns true, then finishes the
/// request and saves the data"); FreeCoreData's Apple-run `testBatchInsertDictionaryHandler`
/// (`Tests/NSBatchRequestTests.m`): the dictionary of the call that returns `true` is not
/// inserted.
@Suite struct BatchInsertHandlerTests {
    private func context(_ kind: StoreKind) throws -> ManagedObjectContext {
        ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
    }

    private func notes(_ context: ManagedObjectContext) throws -> [String] {
        let r = FetchRequest<Transaction>(entityName: "Transaction")
        r.sortDescriptors = [FetchSortDescriptor(key: "note")]
        return try context.fetch(r).compactMap(\.note)
    }

    @Test(arguments: StoreKind.all)
    func aDictionaryHandlerFillsRowsUntilItReturnsTrue(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait { () throws in
            var calls = 0
            let insert = BatchInsertRequest(entityName: "Transaction") {
                (row: NSMutableDictionary) in
                calls += 1
                if calls == 3 {
                    row["note"] = "never"
                    return true
                }
                row["id"] = UUID()
                row["amount"] = Decimal(calls * 10)
                row["date"] = Date(timeIntervalSince1970: 0)
                row["note"] = "row-\(calls)"
                return false
            }
            insert.resultType = .count
            #expect(try context.execute(insert).result as? Int == 2)
            #expect(calls == 3)
            #expect(!context.hasChanges)
            #expect(try notes(context) == ["row-1", "row-2"])
        }
    }

    @Test(arguments: StoreKind.all)
    func aManagedObjectHandlerFillsObjectsOfTheEntitysClass(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait { () throws in
            var made = 0
            let insert = BatchInsertRequest(
                entityName: "Transaction",
                managedObjectHandler: { object in
                    guard let t = object as? Transaction, made < 2 else { return true }
                    made += 1
                    t.id = UUID()
                    t.amount = Decimal(made)
                    t.date = Date(timeIntervalSince1970: 0)
                    t.note = "object-\(made)"
                    return false
                })
            insert.resultType = .objectIDs
            let ids = try #require(context.execute(insert).result as? [ManagedObjectID])
            #expect(ids.count == 2)
            #expect(ids.allSatisfy { !$0.isTemporaryID })
            let first = try #require(try context.existingObject(with: ids[0]) as? Transaction)
            #expect(first.note == "object-1")
            #expect(first.isCleared == false)  // the model's default
            #expect(try notes(context) == ["object-1", "object-2"])
        }
    }

    @Test(arguments: StoreKind.all)
    func aBadRowFromAHandlerInsertsNothing(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait { () throws in
            var calls = 0
            let wrongType = BatchInsertRequest(entityName: "Transaction") {
                (row: NSMutableDictionary) in
                calls += 1
                row["note"] = calls == 2 ? 42 as Any : "ok"
                return calls > 2
            }
            #expect(throws: ObjectGraphError.self) { try context.execute(wrongType) }

            let category = Category(context: context)
            category.id = UUID()
            category.name = "Food"
            try context.save()
            let relationship = BatchInsertRequest(
                entityName: "Transaction",
                managedObjectHandler: { object in
                    (object as? Transaction)?.note = "with a category"
                    object.setValue(category, forKey: "category")
                    return false
                })
            let error = expectNSError { _ = try context.execute(relationship) }
            #expect(error?.code == 134060)
            #expect(try notes(context).isEmpty)
        }
    }
}
