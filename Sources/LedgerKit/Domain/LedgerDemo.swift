import Foundation
import ObjectGraph
import ObjectGraphTesting

/// The `ledger demo` job: a fresh RAM store, realistic sample data saved through a context,
/// then the report.
public enum LedgerDemo {
    /// Runs the demo and returns the report text, then the rule, the categories it and
    /// learning gave new transactions, and the budget lines (see ``learn()``).
    /// Deterministic: same output every run.
    ///
    /// - Throws: ``ObjectGraphError`` if the sample data fails validation (a bug).
    public static func run() throws -> String {
        let report = try makeReport()
        return
            ([report.text(title: "Expense Tracker demo (RAM store) — spending by category")]
            + (try learn()).lines).joined(separator: "\n")
    }

    /// Builds the demo ledger and its report by category.
    ///
    /// - Throws: ``ObjectGraphError`` if the sample data fails validation (a bug).
    public static func makeReport() throws -> LedgerReport {
        let container = PersistentContainer(
            name: "ExpenseTracker", managedObjectModel: try LedgerModel.make())
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        ]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var ids = SeededRandomNumberGenerator(seed: 2026)
            var categories: [String: Category] = [:]
            for (name, color) in sampleCategories {
                let c = Category(context: context)
                c.id = ids.uuid()
                c.name = name
                c.colorHex = color
                categories[name] = c
            }
            for (day, amount, kind, category, payee) in sampleTransactions {
                let t = Transaction(context: context)
                t.id = ids.uuid()
                t.amount = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))!
                t.kind = kind.rawValue
                t.date = LedgerDates.parse(day)
                t.payee = payee
                t.category = category.flatMap { categories[$0] }
            }
            try context.save()
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            let all = try context.fetch(request)
            return LedgerReport(all, by: .category)
        }
    }

    static let sampleCategories: [(String, String)] = [
        ("Groceries", "#4CAF50"), ("Rent", "#3F51B5"), ("Transport", "#FF9800"),
        ("Eating out", "#E91E63"), ("Salary", "#009688"),
    ]

    static let sampleTransactions: [(String, String, TransactionKind, String?, String)] = [
        ("2026-11-01", "950.00", .expense, "Rent", "Landlord"),
        ("2026-11-02", "64.35", .expense, "Groceries", "Market Hall"),
        ("2026-11-03", "2.80", .expense, "Transport", "City Metro"),
        ("2026-11-05", "18.90", .expense, "Eating out", "Noodle Bar"),
        ("2026-11-09", "41.12", .expense, "Groceries", "Corner Shop"),
        ("2026-11-12", "55.00", .expense, "Transport", "Rail Pass"),
        ("2026-11-15", "2400.00", .income, "Salary", "Employer"),
        ("2026-11-18", "32.40", .expense, "Eating out", "Pizzeria"),
        ("2026-11-21", "77.60", .expense, "Groceries", "Market Hall"),
        ("2026-11-25", "12.00", .expense, nil, "Bookshop"),
    ]
}
