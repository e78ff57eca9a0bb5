// The README's fixture example, compiled and run as a test (keep it in step with
// ObjectGraph's FixturesAndSeeding article, "A test that uses a fixture").
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
    @Attribute var note: String?
    @Relationship var category: Category?
}

enum ExpenseFixtures {
    static let folder = URL(fileURLWithPath: #filePath)  // Tests/<Target>/<Folder>/<File>.swift
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    // Loaded and validated once, when the first test asks for it.
    static let provider = try! FixtureProvider(
        model: ManagedObjectModel(
            jsonData: Data(contentsOf: folder.appendingPathComponent("models/ExpenseTracker.json")),
            classResolver: { ["Category": Category.self, "Transaction": Transaction.self][$0] }),
        fixtureFiles: [folder.appendingPathComponent("fixtures/expenses.json")])
}

@Suite struct ExpenseFixtureTests {
    @Test func movingLunchToTravel() throws {
        let fixtures = ExpenseFixtures.provider
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
        let fixtures = ExpenseFixtures.provider
        let context = fixtures.makeContainer().newBackgroundContext()
        try context.performAndWait {
            let travel = try fixtures.references.object("travel", as: Category.self, in: context)
            #expect(travel.transactions.count == 1)
        }
    }
}
