import Foundation
import ObjectGraph
import Testing

@Suite struct BatchRequestTests {
    private func seeded() throws -> (ManagedObjectContext, [Transaction]) {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        let items = try context.performAndWait {
            let items = (1...3).map { i in
                let t = Transaction(context: context)
                t.id = UUID()
                t.amount = Decimal(i * 10)
                t.date = Date(timeIntervalSince1970: 0)
                t.note = "t\(i)"
                return t
            }
            try context.save()
            return items
        }
        return (context, items)
    }

    @Test func aBatchUpdateChangesTheStoreButNotLoadedObjectsUntilMerged() throws {
        let (context, items) = try seeded()
        try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.predicate = try FetchPredicate(format: "amount >= 20")
            update.propertiesToUpdate = [
                "amount": try FetchExpression(format: "amount * 1.5"), "isCleared": true,
            ]
            update.resultType = .updatedObjectIDsResultType
            let ids = try context.execute(update).result as? [ManagedObjectID] ?? []
            #expect(ids.count == 2)
            #expect(items[1].amount == 20)  // stale until merged
            ManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [context])
            #expect(items[1].amount == 30)
            #expect(items[2].amount == 45)
            #expect(items[2].isCleared)
            #expect(items[0].amount == 10)
        }
    }

    @Test func aBatchUpdateRefusesRelationshipsAndBadValues() throws {
        let (context, _) = try seeded()
        context.performAndWait {
            let relationship = BatchUpdateRequest(entityName: "Transaction")
            relationship.propertiesToUpdate = ["category": NSNull()]
            #expect(throws: ObjectGraphError.self) { try context.execute(relationship) }
            let wrongType = BatchUpdateRequest(entityName: "Transaction")
            wrongType.propertiesToUpdate = ["amount": "lots"]
            #expect(throws: ObjectGraphError.self) { try context.execute(wrongType) }
        }
    }

    @Test func aBatchDeleteReportsEveryIDAndLeavesObjectsUntilMerged() throws {
        let (context, items) = try seeded()
        try context.performAndWait {
            let delete = BatchDeleteRequest(
                fetchRequest: FetchRequest<Transaction>(entityName: "Transaction"))
            delete.resultType = .objectIDs
            let ids = try context.execute(delete).result as? [ManagedObjectID] ?? []
            #expect(Set(ids) == Set(items.map(\.objectID)))
            #expect(context.registeredObjects.count == 3)
            #expect(items.allSatisfy { !$0.isDeleted })
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            r.includesPendingChanges = false
            #expect(try context.count(for: r) == 0)
            ManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [context])
            // Merged deletions stay registered while referenced, deleted and out of fetches.
            #expect(items.allSatisfy { $0.isDeleted && !$0.isFault })
            #expect(context.registeredObjects.allSatisfy { $0.isDeleted })
            let remaining = try context.fetch(FetchRequest<Transaction>(entityName: "Transaction"))
            #expect(remaining.isEmpty)
        }
    }

    @Test func aBatchInsertUpsertsOnAUniqueKeyWithoutWipingOtherFields() throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        try context.performAndWait {
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            food.colorHex = "#00FF00"
            try context.save()
            let insert = BatchInsertRequest(
                entityName: "Category",
                objects: [
                    ["name": "Food", "id": UUID()],
                    ["name": "Rent", "id": UUID()],
                ])
            insert.resultType = .count
            #expect(try context.execute(insert).result as? Int == 2)
            context.reset()
            let all = try context.fetch(FetchRequest<Category>(entityName: "Category")).sorted {
                $0.name! < $1.name!
            }
            #expect(all.map(\.name) == ["Food", "Rent"])
            #expect(all[0].colorHex == "#00FF00")  // untouched by the upsert
            #expect(all[1].colorHex == "#FFFFFF")  // default for a new row
            #expect(all[0].objectID == food.objectID)
        }
    }
}
