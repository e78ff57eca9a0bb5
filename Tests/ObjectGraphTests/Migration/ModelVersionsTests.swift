import Foundation
import Testing

@testable import ObjectGraph

/// `ManagedObjectModel.versions(ofModelAt:)` on `.xcdatamodeld` bundles built from the real
/// multi-version Xcode models in `../shared/fixtures/xcdatamodels`: every version, oldest first
/// by the versions' names (numbers compared as numbers), whatever `.xccurrentversion` names.
@Suite(.enabled(if: SharedFixtures.available, "../shared/fixtures/xcdatamodels is absent"))
struct ModelVersionsTests {
    private static let sampleModels = [
        "SampleModel": "alemar11__CoreDataPlus__SampleModel.xml",
        "SampleModel2": "alemar11__CoreDataPlus__SampleModel2.xml",
        "SampleModel3": "alemar11__CoreDataPlus__SampleModel3.xml",
    ]

    private func entityNames(_ model: ManagedObjectModel) -> [String] {
        model.entities.map(\.name).sorted()
    }

    @Test func coreDataPlusVersionsComeOldestFirstThoughTheCurrentOneIsTheOldest() throws {
        let bundle = try SharedFixtures.makeBundle(
            named: "SampleModel", versions: Self.sampleModels,
            currentVersion: "alemar11__CoreDataPlus__SampleModel.xccurrentversion.xml")
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let versions = try ManagedObjectModel.versions(ofModelAt: bundle)
        #expect(
            versions.map(entityNames) == [
                ["Car", "ExpensiveSportCar", "Person", "SportCar"],
                ["Car", "LuxuryCar", "Person", "SportCar"],
                ["Car", "LuxuryCar", "Maker", "Person", "SportCar"],
            ])
        for (version, name) in zip(versions, ["SampleModel", "SampleModel2", "SampleModel3"]) {
            #expect(
                version.versionChecksum
                    == (try ManagedObjectModel(contentsOf: bundle, version: name)).versionChecksum,
                "\(name)")
        }
        // The current version (the oldest here) is still what the bundle opens as.
        #expect(
            try ManagedObjectModel(contentsOf: bundle).versionChecksum
                == versions[0].versionChecksum)
    }

    @Test func swiftGenVersionsComeOldestFirstWithTheNewestCurrent() throws {
        let bundle = try SharedFixtures.makeBundle(
            named: "Model",
            versions: [
                "Model": "SwiftGen__SwiftGen__Model.xml",
                "Model 2": "SwiftGen__SwiftGen__Model_2.xml",
            ],
            currentVersion: "SwiftGen__SwiftGen__Model.xccurrentversion.xml")
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let versions = try ManagedObjectModel.versions(ofModelAt: bundle)
        #expect(versions.map(\.entities.count) == [3, 8])
        #expect(
            try ManagedObjectModel(contentsOf: bundle).versionChecksum
                == versions[1].versionChecksum)
    }

    @Test func numbersInVersionNamesCompareAsNumbers() throws {
        // Named "Model", "Model 2", "Model 10": by characters "Model 10" would sort before
        // "Model 2"; Xcode (and this order) puts it last.
        let bundle = try SharedFixtures.makeBundle(
            named: "Model",
            versions: [
                "Model 10": "alemar11__CoreDataPlus__SampleModel3.xml",
                "Model": "SwiftGen__SwiftGen__Model.xml",
                "Model 2": "SwiftGen__SwiftGen__Model_2.xml",
            ], currentVersion: nil)
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let versions = try ManagedObjectModel.versions(ofModelAt: bundle)
        #expect(versions.map(\.entities.count) == [3, 8, 5])
    }

    @Test func theEarlierVersionsOpenAFileOfTheOldestWithTheNewest() throws {
        let bundle = try SharedFixtures.makeBundle(
            named: "SampleModel",
            versions: Self.sampleModels.filter { $0.key != "SampleModel3" },
            currentVersion: "alemar11__CoreDataPlus__SampleModel.xccurrentversion.xml")
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let versions = try ManagedObjectModel.versions(ofModelAt: bundle)
        let url = try MigrationFixtures.previewSeeded(versions[0], count: 4)
        let old = try JSONLinesStore(model: versions[0], url: url)
        let sportCars = try MigrationFixtures.rows(old, "ExpensiveSportCar").map(
            \.objectID.primaryKey)
        old.close()
        #expect(!sportCars.isEmpty)
        let store = try JSONLinesStore(
            model: versions[1], url: url, options: MigrationFixtures.options(versions.dropLast()))
        defer { store.close() }
        #expect(store.recoveryNotices.contains { $0.contains("migrated") })
        #expect(
            try MigrationFixtures.rows(store, "LuxuryCar").map(\.objectID.primaryKey) == sportCars)
    }

    @Test func aMissingBundleIsModelNotFound() throws {
        let missing = ModelFixtures.error {
            _ = try ManagedObjectModel.versions(
                ofModelAt: URL(fileURLWithPath: "/nonexistent/Nothing.xcdatamodeld"))
        }
        #expect(missing?.code == 134060)
        #expect(missing?.reason == .modelNotFound)
    }
}

/// How a migration plan shows the default an added attribute takes.
@Suite struct MigrationPlanTextTests {
    /// Regression: the plan printed defaults in their internal form (`boolean(false)`).
    @Test func defaultsAreShownAsAPersonWritesThem() {
        #expect(InferredMapping.readable(.boolean(false)) == "false")
        #expect(InferredMapping.readable(.integer(-3)) == "-3")
        #expect(InferredMapping.readable(.double(12.5)) == "12.5")
        #expect(InferredMapping.readable(.string("a \"b\"")) == #""a \"b\"""#)
        #expect(InferredMapping.readable(.null) == "nil")
        #expect(
            InferredMapping.readable(.date(Date(timeIntervalSinceReferenceDate: 0)))
                == "2001-01-01T00:00:00.000Z")
        #expect(InferredMapping.readable(.data(Data([1, 2, 3]))) == "3 bytes of data")
    }
}
