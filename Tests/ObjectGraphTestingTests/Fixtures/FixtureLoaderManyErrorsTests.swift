import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// Thousands of bad objects: every failure kept under the error, the message's list capped
/// and counted, and the work linear (N = 1,000 bad objects took 11–19 s, 4,000 took 204 s:
/// each message was rewritten once per loaded object).
@Suite(.timeLimit(.minutes(1)))
struct FixtureLoaderManyErrorsTests {
    @Test func thousandsOfFailuresAreCountedAndTheListIsCapped() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let count = 4_000
        let categories = (0..<count).map { #"{"_ref": "c\#($0)", "name": ""}"# }
        let json = #"{"Category": [\#(categories.joined(separator: ","))]}"#
        let e = try #require(
            objectGraphError {
                try FixtureLoader(model: model).load(
                    FixtureSource(data: Data(json.utf8), name: "many.json"), into: coordinator)
            })
        #expect(e.reason == .multipleValidationErrors)
        // Each category lacks an id and has an empty name: two failures each, all kept.
        #expect(e.underlying.count == 2 * count)
        #expect(e.underlying.allSatisfy { $0.message.hasPrefix("fixture many.json at Category[") })
        #expect(e.underlying.contains { $0.message.contains("at Category[3999].name") })
        #expect(e.message.hasPrefix("fixture many.json: \(2 * count) validation errors: "))
        #expect(e.message.contains("; and \(2 * count - 20) more"), "\(e.message.suffix(200))")
        #expect(e.message.count < 4_000, "\(e.message.count) characters")
    }
}
