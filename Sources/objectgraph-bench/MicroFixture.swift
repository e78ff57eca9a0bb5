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
        coordinator.addPersistentStore(InMemoryStore(model: model, table: table))
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
        coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            var random = SplitMix64(seed: 42)
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
    static func fill(_ expense: Expense, index i: Int, random: inout SplitMix64, category: Category)
    {
        expense.id = random.uuid()
        expense.title = "item #\(i)"
        expense.amount = Double(random.next() % 100_000) / 100
        expense.date = Date(
            timeIntervalSince1970: 1_700_000_000 - Double(random.next() % 63_072_000))
        expense.note = i % 3 == 0 ? "note \(i)" : nil
        expense.category = category
    }
}

/// A small seeded generator (SplitMix64), so the micro world is the same on every run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uuid() -> UUID {
        let a = next()
        let b = next()
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
