import Foundation
import ObjectGraph
import Testing

@Suite struct FetchRequestTests {
    /// Food (3 transactions: 5, 20, 40), Rent (1: 900), and one uncategorised (7), all saved.
    private func seeded() throws -> ManagedObjectContext { try FetchSeed.context() }

    @Test func predicatesSortsAndWindowsApplyTogether() throws {
        let context = try seeded()
        let amounts = try context.performAndWait { () throws -> [Decimal] in
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            r.predicate = try FetchPredicate(
                format: "amount > %@ AND category.name ==[c] %@", 6, "food")
            r.sortDescriptors = [FetchSortDescriptor(key: "amount", ascending: false)]
            r.fetchLimit = 1
            r.fetchOffset = 1
            return try context.fetch(r).map(\.amount)
        }
        #expect(amounts == [20])
    }

    @Test func pendingChangesAreSortedTogetherWithStoredObjectsBeforeTheWindow() throws {
        let context = try seeded()
        let amounts = try context.performAndWait { () throws -> [Decimal] in
            let t = Transaction(context: context)
            t.id = UUID()
            t.amount = 30
            t.date = Date(timeIntervalSince1970: 0)
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            r.sortDescriptors = [FetchSortDescriptor(key: "amount")]
            r.fetchOffset = 2
            r.fetchLimit = 2
            let merged = try context.fetch(r).map(\.amount)
            r.includesPendingChanges = false
            r.fetchOffset = 0
            r.fetchLimit = 0
            #expect(try context.fetch(r).count == 5)
            return merged
        }
        #expect(amounts == [20, 30])
    }

    @Test func objectsComeBackAsFaultsUnlessAskedAndFillWithoutAnotherRead() throws {
        let context = try seeded()
        try context.performAndWait { () throws in
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            let faults = try context.fetch(r)
            #expect(faults.allSatisfy { $0.isFault })
            #expect(faults.map(\.amount).reduce(0, +) == 972)
            #expect(!faults[0].isFault)
            context.reset()
            r.returnsObjectsAsFaults = false
            #expect(try context.fetch(r).allSatisfy { !$0.isFault })
        }
    }

    @Test func aBatchSizeFillsFaultsOneBatchAtATime() throws {
        let context = try seeded()
        try context.performAndWait { () throws in
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            r.sortDescriptors = [FetchSortDescriptor(key: "date")]
            r.fetchBatchSize = 2
            let results = try context.fetch(r)
            #expect(results.allSatisfy { $0.isFault })
            _ = results[0].amount
            #expect(!results[1].isFault)
            #expect(results[2].isFault)
            #expect(results.map(\.amount) == [5, 20, 40, 900, 7])
        }
    }

    @Test func prefetchingFillsRelatedObjects() throws {
        let context = try seeded()
        try context.performAndWait { () throws in
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            r.returnsObjectsAsFaults = false
            r.relationshipKeyPathsForPrefetching = ["category"]
            let categories = try context.fetch(r).compactMap { $0.category }
            #expect(categories.count == 4)
            #expect(categories.allSatisfy { !$0.isFault })
            r.relationshipKeyPathsForPrefetching = ["nope"]
            #expect(throws: ObjectGraphError.self) { try context.fetch(r) }
        }
    }

    @Test func dictionaryResultsGroupSumAndFilterByHaving() throws {
        let context = try seeded()
        let rows = try context.performAndWait { () throws -> [[String: Any]] in
            let r = FetchRequest<[String: Any]>(entityName: "Transaction")
            r.resultType = .dictionaryResultType
            let total = ExpressionDescription(
                name: "total", expression: try FetchExpression(format: "sum(amount)"),
                resultType: .decimal)
            let count = ExpressionDescription(
                name: "n", expression: try FetchExpression(format: "count(amount)"),
                resultType: .integer64)
            r.propertiesToFetch = ["category.name", total, count]
            r.propertiesToGroupBy = ["category.name"]
            // Core Data names an aggregate in a having-predicate as a variable (see
            // DictionaryGroupingTests.havingNamesAggregatesAsVariables).
            r.havingPredicate = try FetchPredicate(format: "$n >= 1 AND $total > 10")
            return try context.fetch(r)
        }
        let byName = Dictionary(
            uniqueKeysWithValues: rows.map { (($0["category.name"] as? String) ?? "none", $0) })
        #expect(byName.count == 2)
        #expect(byName["Food"]?["total"] as? Decimal == 65)
        #expect(byName["Food"]?["n"] as? Int64 == 3)
        #expect(byName["Rent"]?["total"] as? Decimal == 900)
    }

    @Test func dictionaryResultsCanBeDistinct() throws {
        let context = try seeded()
        let notes = try context.performAndWait { () throws -> [[String: Any]] in
            let r = FetchRequest<[String: Any]>(entityName: "Transaction")
            r.resultType = .dictionaryResultType
            r.propertiesToFetch = ["isCleared"]
            r.returnsDistinctResults = true
            return try context.fetch(r)
        }
        #expect(notes.count == 1)
        #expect(notes.first?["isCleared"] as? Bool == false)
    }

    @Test func idAndCountResultTypes() throws {
        let context = try seeded()
        try context.performAndWait { () throws in
            let ids = FetchRequest<ManagedObjectID>(entityName: "Category")
            ids.resultType = .managedObjectIDResultType
            #expect(try context.fetch(ids).count == 2)
            let count = FetchRequest<Int>(entityName: "Transaction")
            count.resultType = .countResultType
            #expect(try context.fetch(count) == [5])
            let wrong = FetchRequest<String>(entityName: "Category")
            #expect(throws: ObjectGraphError.self) { try context.fetch(wrong) }
        }
    }

    @Test func foundationPredicatesAndKeyPathSortDescriptorsWorkOnTypedFetches() throws {
        let context = try seeded()
        let amounts = try context.performAndWait { () throws -> [Decimal] in
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            r.swiftPredicate = #Predicate<Transaction> { $0.amount > 6 }
            r.swiftSortDescriptors = [SortDescriptor(\Transaction.amount, order: .reverse)]
            r.fetchLimit = 2
            return try context.fetch(r).map(\.amount)
        }
        #expect(amounts == [900, 40])
    }

    @Test func nilSortsFirstWhenAscending() throws {
        let context = try seeded()
        let notes = try context.performAndWait { () throws -> [String?] in
            let r = FetchRequest<Transaction>(entityName: "Transaction")
            r.sortDescriptors = [FetchSortDescriptor(key: "note")]
            return try context.fetch(r).map(\.note)
        }
        #expect(notes.first == .some(nil))
        #expect(notes.dropFirst().map { $0 ?? "" } == ["n0", "n1", "n3", "n4"])
    }

    @Test func aMalformedPredicatePointsAtTheColumn() {
        do {
            _ = try FetchPredicate(format: "amount >> 5")
            Issue.record("expected a parse error")
        } catch {
            let e = error as! ObjectGraphError
            #expect(e.reason == .predicateSyntax)
            #expect(e.message.contains("amount >> 5"))
            #expect(e.column != nil)
        }
    }
}
