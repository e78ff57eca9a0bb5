import Foundation
import ObjectGraph
import ObjectGraphTesting

/// The micro-benchmarks' world: N saved expenses (and N tallies) in a RAM store, built once
/// and handed to every case as an O(1) copy of the store's rows, so cases that write never
/// see each other's changes. Values are synthetic and seeded; no dataset file is needed.
final class MicroFixture {
    let count: Int
    let model: ManagedObjectModel
    private var seeded: RowTable?
    /// Expenses in the fixture-container case's snapshot (plus 20 categories: 1,000 objects).
    static let fixtureExpenses = 980

    init(count: Int) throws {
        self.count = count
        self.model = try BenchModel.make()
    }

    /// Seeds the stores the cases copy (once; not timed).
    func prepare() throws {
        guard seeded == nil else { return }
        seeded = try Self.seed(model: model, expenses: count, tallies: count)
    }

    /// The seeded rows: 20 categories, `count` expenses, `count` tallies.
    var table: RowTable {
        guard let seeded else { preconditionFailure("MicroFixture: prepare() was not called") }
        return seeded
    }

    /// A fixture provider holding 1,000 objects made by `PreviewSeeder` (seed 42), as a test
    /// suite would build it once.
    func fixtureProvider() throws -> FixtureProvider {
        try FixtureProvider(model: model) { coordinator in
            try PreviewSeeder(model: model, seed: 42)
                .generate(
                    counts: ["Category": 20, "Expense": Self.fixtureExpenses], into: coordinator)
            return FixtureReferences()
        }
    }

    /// A coordinator over a private copy of `rows` (O(1) until written).
    func coordinator() -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.addPersistentStore(ofSameModel: InMemoryStore(table: table))
        return coordinator
    }

    /// A private-queue context over a private copy of the seeded rows.
    func context() -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator())
    }

    /// Fills a RAM store through the public API (one save) and returns a copy of its rows.
    private static func seed(model: ManagedObjectModel, expenses: Int, tallies: Int) throws
        -> RowTable
    {
        let store = InMemoryStore(model: model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.addPersistentStore(ofSameModel: store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            var random = SeededRandomNumberGenerator(seed: 42)
            let categories = (0..<20).map { i in
                let category = Category(context: context)
                category.name = "category \(i)"
                return category
            }
            for i in 0..<expenses {
                let expense = Expense(context: context)
                SyntheticExpense.fill(
                    expense, index: i, random: &random, category: categories[i % 20])
            }
            for i in 0..<tallies {
                let tally = Tally(context: context)
                tally.amount = Decimal(i) / 100
                tally.count = Int64(i)
            }
            try context.save()
            context.reset()
        }
        return store.snapshot()
    }
}

/// Deterministic expense values.
enum SyntheticExpense {
    static func fill(
        _ expense: Expense, index i: Int, random: inout SeededRandomNumberGenerator,
        category: Category
    ) {
        expense.id = random.uuid()
        expense.title = "item #\(i)"
        expense.amount = Double(random.next() % 100_000) / 100
        expense.date = Date(
            timeIntervalSince1970: 1_700_000_000 - Double(random.next() % 63_072_000))
        expense.note = i % 3 == 0 ? "note \(i)" : nil
        expense.category = category
    }
}
