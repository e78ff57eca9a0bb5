import Foundation
import ObjectGraph

/// The saved expenses the fetch-request suites query.
enum FetchSeed {
    /// Food (3 transactions: 5, 20, 40), Rent (1: 900), and one uncategorised (7), all saved
    /// in a store of `kind` (default the RAM store). Notes are `n0`…`n4`, except nil for 40.
    static func context(on kind: StoreKind = .inMemory) throws -> ManagedObjectContext {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
        try context.performAndWait { () throws in
            let food = Category(context: context)
            let rent = Category(context: context)
            food.id = UUID()
            food.name = "Food"
            rent.id = UUID()
            rent.name = "Rent"
            for (i, (amount, category)) in [
                (5, food), (20, food), (40, food), (900, rent), (7, nil),
            ].enumerated() {
                let t = Transaction(context: context)
                t.id = UUID()
                t.amount = Decimal(amount)
                t.date = Date(timeIntervalSince1970: Double(i) * 86_400)
                t.note = i == 2 ? nil : "n\(i)"
                t.category = category
            }
            try context.save()
            context.reset()
        }
        return context
    }
}
