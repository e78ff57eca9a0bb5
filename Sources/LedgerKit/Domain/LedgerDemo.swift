import Foundation
import ObjectGraph

/// The `ledger demo` job: a fresh RAM store, realistic sample data saved through a context,
/// then the report.
public enum LedgerDemo {
    /// Runs the demo and returns the report text. Deterministic: same output every run.
    ///
    /// - Throws: ``ObjectGraphError`` if the sample data fails validation (a bug).
    public static func run() throws -> String {
        let report = try makeReport()
        return report.text(title: "Expense Tracker demo (RAM store) — spending by category")
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
            var ids = SeededUUIDs(seed: 2026)
            var categories: [String: Category] = [:]
            for (name, color) in sampleCategories {
                let c = Category(context: context)
                c.id = ids.next()
                c.name = name
                c.colorHex = color
                categories[name] = c
            }
            for (day, amount, kind, category, payee) in sampleTransactions {
                let t = Transaction(context: context)
                t.id = ids.next()
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

/// UUIDs from a seeded SplitMix64 generator, so demo and fixture data are reproducible.
public struct SeededUUIDs: Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func nextUInt64() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next version-4 UUID.
    public mutating func next() -> UUID {
        let a = nextUInt64()
        let b = nextUInt64()
        var bytes =
            (0..<8).map { UInt8(truncatingIfNeeded: a >> ($0 * 8)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: b >> ($0 * 8)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
