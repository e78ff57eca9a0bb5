import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// A fixture set that names a file the bundle does not have: the static holds the error.
enum MissingFixtures {
    static let provider = Result {
        try FixtureProvider(
            bundle: .module, model: "Fixtures/Expenses.json",
            fixtures: ["Fixtures/expenses.json", "Fixtures/missing.json"])
    }
}

/// Fixtures read from the test target's resources (`resources: [.copy("Fixtures")]`,
/// `Bundle.module`), and what a missing one does: a thrown error naming the path, in the
/// tests that use it, while the rest of the run goes on.
@Suite struct FixtureResourceTests {
    @Test func resourcesAreFoundInTheModuleBundleByTheirPathInTheTarget() throws {
        let fixtures = try FixtureProvider(
            bundle: .module, model: "Fixtures/Expenses.json", fixtures: ["Fixtures/expenses.json"])
        let context = fixtures.makeContainer().newBackgroundContext()
        let names = try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Category")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            return try context.fetch(request).map { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["Food", "Travel"])
    }

    @Test func aMissingFixtureFailsTheTestsThatUseItNamingThePath() throws {
        let error = #expect(throws: ObjectGraphError.self) { try MissingFixtures.provider.get() }
        #expect(error?.reason == .fixtureUnreadable)
        #expect(error?.message.contains("fixture resource Fixtures/missing.json") == true)
        #expect(error?.message.contains(".copy(\"Fixtures\")") == true)
        let expectedPath = try #require(Bundle.module.resourceURL)
            .appendingPathComponent("Fixtures/missing.json").path
        #expect(error?.file == expectedPath)
        // Asking again gives the same error, not a trap: the static keeps the Result.
        #expect(throws: ObjectGraphError.self) { try MissingFixtures.provider.get() }
    }

    @Test func aMissingModelNamesItsPath() {
        let error = #expect(throws: ObjectGraphError.self) {
            try FixtureProvider(
                bundle: .module, model: "Fixtures/Nope.json", fixtures: ["Fixtures/expenses.json"])
        }
        #expect(error?.message.contains("fixture resource Fixtures/Nope.json") == true)
    }

    @Test func fixturesFromTheBundleLoadIntoAModelBuiltInCode() throws {
        let model = try ManagedObjectModel(
            contentsOf: try #require(
                Bundle.module.url(
                    forResource: "Expenses", withExtension: "json", subdirectory: "Fixtures")))
        let fixtures = try FixtureProvider(
            model: model, bundle: .module, fixtures: ["Fixtures/expenses.json"])
        #expect(
            fixtures.references.objectIDsByRef.keys.sorted() == [
                "food", "lunch", "train", "travel",
            ])
    }
}
