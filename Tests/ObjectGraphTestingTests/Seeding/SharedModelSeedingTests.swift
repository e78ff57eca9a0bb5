import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// The seeder on the real Core Data models in ../shared/fixtures/xcdatamodels.
@Suite(.enabled(if: SharedModels.available, "../shared/fixtures/xcdatamodels is absent"))
struct SharedModelSeedingTests {
    /// Counts that differ from 10 per entity, where a model's rules need them.
    static let counts: [String: [String: Int]] = [
        // Each ChildBOfAbstract needs 3 to 10 persons, and a person belongs to one at most.
        "ChristianKienle__Core-Data-Editor__iOS_Example.xml": ["Person": 40]
    ]

    @Test(arguments: SharedModels.files)
    func seedsEverySharedModelValidlyAndRepeatably(_ file: String) throws {
        try seed(file)
    }

    private func seed(_ file: String) throws {
        let model = try ManagedObjectModel(
            contentsOf: SharedModels.folder.appendingPathComponent(file))
        func run(_ seed: UInt64) throws -> Data {
            let coordinator = try DeterministicEnvironment(seed: seed).makeCoordinator(model: model)
            let result = try PreviewSeeder(model: model, seed: seed)
                .generate(counts: Self.counts[file] ?? [:], defaultCount: 10, into: coordinator)
            #expect(
                result.totalCount
                    == model.entities.filter { !$0.isAbstract }
                    .reduce(0) { $0 + (Self.counts[file]?[$1.name] ?? 10) })
            return try FixtureWriter().fixtureData(from: coordinator)
        }
        let first = try run(3)
        #expect(try run(3) == first, "the same seed gives the same bytes")
        _ = try FixtureProvider(model: model, fixtureData: first, file: "\(file)-seeded.json")
    }

    @Test func withTooFewPersonsTheEditorExampleNamesTheRule() throws {
        let file = "ChristianKienle__Core-Data-Editor__iOS_Example.xml"
        let model = try ManagedObjectModel(
            contentsOf: SharedModels.folder.appendingPathComponent(file))
        let coordinator = try DeterministicEnvironment().makeCoordinator(model: model)
        let error = objectGraphError {
            try PreviewSeeder(model: model).generate(objectsPerEntity: 10, into: coordinator)
        }
        #expect(
            error?.message.hasPrefix(
                "PreviewSeeder: cannot satisfy ChildBOfAbstract.persons (to-many Person, minCount 3, "
                    + "maxCount 10, required): ChildBOfAbstract #") == true)
    }
}
