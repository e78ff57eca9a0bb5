// The fixtures guide's example (ObjectGraph's FixturesAndSeeding article, "A test that uses a
// fixture"), compiled and run as a test: keep the two in step. The README's fixture test is
// the same code with the classes imported from the app's module.
import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

final class Category: ManagedObject {
    @Attribute var name: String?
    @Relationship var transactions: Set<Transaction>
}

final class Transaction: ManagedObject {
    @Attribute var amount: Decimal
    @Relationship var category: Category?
}

enum ExpenseFixtures {
    // Loaded and checked once, when a test first asks for it. A missing or bad file fails
    // each test that asks, with the file's path; the other tests still run.
    static let provider = Result {
        try FixtureProvider(
            bundle: .module, model: "Fixtures/Expenses.json", fixtures: ["Fixtures/expenses.json"],
            classResolver: { ["Category": Category.self, "Transaction": Transaction.self][$0] })
    }
}

@Suite struct ExpenseFixtureTests {
    @Test func movingLunchToTravel() throws {
        let fixtures = try ExpenseFixtures.provider.get()
        let context = fixtures.makeContainer().newBackgroundContext()  // this test's own world
        try context.performAndWait {
            let lunch = try fixtures.references.object("lunch", as: Transaction.self, in: context)
            let travel = try fixtures.references.object("travel", as: Category.self, in: context)
            lunch.category = travel
            try context.save()
            #expect(travel.transactions.count == 2)
            #expect(lunch.amount == Decimal(string: "12.50"))
        }
    }

    @Test func otherTestsStillSeeTheOriginalFixture() throws {
        let fixtures = try ExpenseFixtures.provider.get()
        let context = fixtures.makeContainer().newBackgroundContext()
        try context.performAndWait {
            let travel = try fixtures.references.object("travel", as: Category.self, in: context)
            #expect(travel.transactions.count == 1)
        }
    }
}
