import Foundation
import ObjectGraph
import Testing

/// Collections reached through a nil to-one are empty, in a store's fetch and in a context's
/// evaluation of its unsaved objects alike (issue: `SUBQUERY(category.transactions, …)`
/// matched transactions without a category by testing its condition on them).
@Suite struct FetchThroughNilToOneTests {
    @Test(arguments: StoreKind.all)
    func aSubqueryThroughANilCategoryIsEmptyOnBothStoresAndInMemory(_ kind: StoreKind) throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
        try context.performAndWait { () throws in
            let food = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            for (amount, category, note) in [
                (5, food, "a"), (120, food, "b"), (500, nil, "uncategorised"),
            ] as [(Int, Category?, String)] {
                let t = Transaction(context: context)
                t.id = UUID()
                t.amount = Decimal(amount)
                t.date = Date(timeIntervalSince1970: 0)
                t.note = note
                t.category = category
            }
            try context.save()
            context.reset()
            let cases: [(String, [String])] = [
                ("SUBQUERY(category.transactions, $t, $t.amount > 80).@count > 0", ["a", "b"]),
                (
                    "SUBQUERY(category.transactions, $t, $t.amount > 80).@count == 0",
                    ["uncategorised"]
                ),
                ("ANY category.transactions.amount > 80", ["a", "b"]),
                ("ALL category.transactions.amount > 80", ["uncategorised"]),
                ("NONE category.transactions.amount > 80", ["uncategorised"]),
                ("category.transactions.@count == 0", ["uncategorised"]),
                ("category.transactions.@sum.amount == 0", ["uncategorised"]),
                ("category.transactions.@max.amount == nil", ["uncategorised"]),
            ]
            func notes(_ format: String, pending: Bool) throws -> [String] {
                let request = FetchRequest<Transaction>(entityName: "Transaction")
                request.predicate = try FetchPredicate(format: format)
                request.includesPendingChanges = pending
                return try context.fetch(request).compactMap(\.note).sorted()
            }
            for (format, expected) in cases {
                #expect(try notes(format, pending: false) == expected, "store: \(format)")
            }
            // The same, evaluated by the context on unsaved objects.
            let pending = Transaction(context: context)
            pending.id = UUID()
            pending.amount = 900
            pending.date = Date(timeIntervalSince1970: 0)
            pending.note = "unsaved"
            for (format, expected) in cases {
                let withPending =
                    expected.contains("uncategorised") ? expected + ["unsaved"] : expected
                #expect(
                    try notes(format, pending: true) == withPending.sorted(), "context: \(format)")
            }
        }
    }
}
