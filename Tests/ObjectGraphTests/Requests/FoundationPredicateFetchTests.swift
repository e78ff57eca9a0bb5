import Foundation
import ObjectGraph
import Testing

/// A Foundation predicate in a fetch, on both stores: translated ones (`request.predicate =
/// FetchPredicate(#Predicate …)`, filtered by the store) and the in-memory path
/// (`request.swiftPredicate`) give the same objects, with sorts and limits applied after
/// filtering; what does not translate still works in memory.
@Suite struct FoundationPredicateFetchTests {
    /// A Foundation predicate over the seed's transactions and the amounts it matches,
    /// largest first (seed: Food 5, 20, 40; Rent 900; uncategorised 7; notes n0…n4, nil for 40).
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let predicate: Predicate<Transaction>
        let amounts: [Decimal]
        var testDescription: String { name }
    }

    static let translated: [Case] = [
        Case(
            name: "amount > 10", predicate: #Predicate { $0.amount > 10 }, amounts: [900, 40, 20]),
        Case(
            name: "category?.name", predicate: #Predicate { $0.category?.name == "Food" },
            amounts: [40, 20, 5]),
        Case(
            name: "and, or, not",
            predicate: #Predicate { ($0.amount >= 5 && !($0.amount > 20)) || $0.note == "n3" },
            amounts: [900, 20, 7, 5]),
        Case(name: "nil", predicate: #Predicate { $0.note == nil }, amounts: [40]),
        Case(name: "no category", predicate: #Predicate { $0.category == nil }, amounts: [7]),
        Case(
            name: "optional contains",
            predicate: #Predicate { $0.note?.contains("3") == true }, amounts: [900]),
        Case(
            name: "optional starts(with:) ?? false",
            predicate: #Predicate { $0.note?.starts(with: "n") ?? false },
            amounts: [900, 20, 7, 5]),
        Case(
            name: "optional contains == false",
            predicate: #Predicate { $0.note?.contains("3") == false }, amounts: [20, 7, 5]),
        Case(
            name: "closed range", predicate: #Predicate { (7...40).contains($0.amount) },
            amounts: [40, 20, 7]),
        Case(
            name: "half-open range", predicate: #Predicate { (7..<40).contains($0.amount) },
            amounts: [20, 7]),
        Case(
            name: "arithmetic", predicate: #Predicate { $0.amount * 2 - 1 > 50 },
            amounts: [900, 40]),
        Case(
            name: "captured list", predicate: #Predicate { ["n1", "n4"].contains($0.note ?? "") },
            amounts: [20, 7]),
        Case(
            name: "?? with a fallback",
            predicate: #Predicate { ($0.category?.name ?? "None") == "None" }, amounts: [7]),
    ]

    static let inMemoryOnly: [Case] = [
        Case(name: "computed Bool", predicate: #Predicate { $0.isLarge }, amounts: [900]),
        Case(
            name: "computed value", predicate: #Predicate { $0.doubledAmount > 50 },
            amounts: [900, 40]),
        Case(
            name: "String.count", predicate: #Predicate { ($0.note?.count ?? 0) > 1 },
            amounts: [900, 20, 7, 5]),
    ]

    /// The amounts `configure` fetches, largest first, at most `limit`.
    private func amounts(
        on kind: StoreKind, limit: Int = 0,
        _ configure: (FetchRequest<Transaction>) throws -> Void
    ) throws -> [Decimal] {
        let context = try FetchSeed.context(on: kind)
        return try context.performAndWait { () throws -> [Decimal] in
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            request.fetchLimit = limit
            try configure(request)
            return try context.fetch(request).map(\.amount)
        }
    }

    @Test(arguments: StoreKind.all, translated)
    func translatedPredicatesFilterInTheStoreLikeInMemory(kind: StoreKind, c: Case) throws {
        let predicate = try #require(FetchPredicate(c.predicate))
        let byStore = try amounts(on: kind) { request in
            request.predicate = predicate
            request.sortDescriptors = [
                try FetchSortDescriptor(SortDescriptor(\Transaction.amount, order: .reverse))
            ]
        }
        let inMemory = try amounts(on: kind) { request in
            request.swiftPredicate = c.predicate
            request.swiftSortDescriptors = [SortDescriptor(\Transaction.amount, order: .reverse)]
        }
        #expect(byStore == c.amounts, "\(predicate)")
        #expect(inMemory == c.amounts)
        let firstTwo = try amounts(on: kind, limit: 2) { request in
            request.predicate = predicate
            request.sortDescriptors = [FetchSortDescriptor(key: "amount", ascending: false)]
        }
        #expect(firstTwo == Array(c.amounts.prefix(2)))
    }

    @Test(arguments: StoreKind.all, inMemoryOnly)
    func whatDoesNotTranslateStillFiltersInMemory(kind: StoreKind, c: Case) throws {
        #expect(FetchPredicate(c.predicate) == nil)
        let firstTwo = try amounts(on: kind, limit: 2) { request in
            request.swiftPredicate = c.predicate
            request.swiftSortDescriptors = [SortDescriptor(\Transaction.amount, order: .reverse)]
        }
        #expect(firstTwo == Array(c.amounts.prefix(2)))
    }

    @Test(arguments: StoreKind.all)
    func aTranslatedPredicateAndAnInMemoryOneCombine(kind: StoreKind) throws {
        // The store keeps Food (5, 20, 40); memory keeps those whose double exceeds 20; then
        // the sort and the limit apply to what both kept.
        let found = try amounts(on: kind, limit: 1) { request in
            request.predicate = FetchPredicate(
                #Predicate<Transaction> { $0.category?.name == "Food" })
            request.swiftPredicate = #Predicate { $0.doubledAmount > 20 }
            request.sortDescriptors = [
                try FetchSortDescriptor(SortDescriptor(\Transaction.amount))
            ]
        }
        #expect(found == [20])
    }

    @Test(arguments: StoreKind.all)
    func translatedPredicatesSeeUnsavedObjects(kind: StoreKind) throws {
        let context = try FetchSeed.context(on: kind)
        let found = try context.performAndWait { () throws -> [Decimal] in
            let draft = Transaction(context: context)
            draft.amount = 500
            draft.note = "n3 again"
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            request.predicate = FetchPredicate(
                #Predicate<Transaction> { $0.note?.contains("3") == true })
            request.sortDescriptors = [FetchSortDescriptor(key: "amount")]
            return try context.fetch(request).map(\.amount)
        }
        #expect(found == [500, 900])
    }

    @Test(arguments: StoreKind.all)
    func toManyPredicatesFilterCategories(kind: StoreKind) throws {
        let context = try FetchSeed.context(on: kind)
        let cases: [(Predicate<Category>, [String])] = [
            (#Predicate { $0.transactions.count > 1 }, ["Food"]),
            (#Predicate { $0.transactions.isEmpty }, []),
            (#Predicate { $0.transactions.contains { $0.amount > 100 } }, ["Rent"]),
            (#Predicate { $0.transactions.allSatisfy { $0.amount < 100 } }, ["Food"]),
            (#Predicate { $0.transactions.filter { $0.amount > 10 }.count == 2 }, ["Food"]),
            (#Predicate { $0.transactions.contains { $0.note == nil } }, ["Food"]),
        ]
        for (predicate, names) in cases {
            let translated = try #require(FetchPredicate(predicate))
            let found = try context.performAndWait { () throws -> [String?] in
                let request = FetchRequest<Category>(entityName: "Category")
                request.predicate = translated
                request.sortDescriptors = [FetchSortDescriptor(key: "name")]
                return try context.fetch(request).map(\.name)
            }
            #expect(found == names, "\(translated)")
        }
    }

    @Test(arguments: StoreKind.all)
    func sortDescriptorsThroughToOnesSortInTheStore(kind: StoreKind) throws {
        let found = try amounts(on: kind, limit: 3) { request in
            request.sortDescriptors = [
                try FetchSortDescriptor(
                    SortDescriptor(\Transaction.category?.name, order: .reverse)),
                try FetchSortDescriptor(SortDescriptor(\Transaction.amount)),
            ]
        }
        #expect(found == [900, 5, 20])  // Rent, then Food by amount; uncategorised (nil) last
    }
}
