import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite final class StoreJobTests: Sendable {
    private let ram = URL(fileURLWithPath: "/dev/null")
    /// This test's temporary folder, removed with it.
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "objectgraph-jobs-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A path in this test's temporary folder that does not exist yet.
    private func scratchFile(_ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }

    @Test func loadJobWritesTheFixtureWithADeterministicStore() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let job = LoadJob(
            model: model,
            fixtures: [try FixtureSource(contentsOf: ProjectFixtures.fixtureURL("expenses"))],
            seed: 3)
        let first = try job.run(storeURL: ram)
        let second = try job.run(storeURL: ram)
        #expect(first.counts == ["Category": 3, "Transaction": 5, "Receipt": 1])
        #expect(first.totalCount == 9)
        #expect(first.storeIdentifier == DeterministicEnvironment(seed: 3).storeIdentifier)
        let writer = FixtureWriter()
        #expect(
            try writer.fixtureData(from: first.coordinator)
                == writer.fixtureData(from: second.coordinator))
    }

    @Test func anInvalidFixtureIsReportedBeforeTheStoreIsOpened() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let out = try scratchFile("out.jsonl")
        let bad = FixtureSource(
            data: Data(#"{"Category": [{"name": "No id"}]}"#.utf8), name: "bad.json")
        let error = objectGraphError {
            _ = try LoadJob(model: model, fixtures: [bad]).run(storeURL: out)
        }
        #expect(error?.reason == .missingMandatoryProperty)
        #expect(error?.message == "fixture bad.json at Category[0].id: Category.id is required")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is written")
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: out.deletingLastPathComponent().path
            ).isEmpty)
    }

    @Test func seedJobRunsAreIdenticalForOneSeed() throws {
        let model = try ProjectFixtures.model("Library")
        let counts = [
            "Book": 20, "Film": 5, "Author": 6, "Tag": 8, "Shelf": 2, "Member": 5, "LibraryCard": 3,
        ]
        let a = try SeedJob(model: model, counts: counts, seed: 9).run(storeURL: ram)
        let b = try SeedJob(model: model, counts: counts, seed: 9).run(storeURL: ram)
        let c = try SeedJob(model: model, counts: counts, seed: 10).run(storeURL: ram)
        #expect(a.counts == counts)
        let writer = FixtureWriter()
        #expect(
            try writer.fixtureData(from: a.coordinator) == writer.fixtureData(from: b.coordinator))
        #expect(
            try writer.fixtureData(from: a.coordinator) != writer.fixtureData(from: c.coordinator))
        #expect(a.storeIdentifier == DeterministicEnvironment(seed: 9).storeIdentifier)
    }

    @Test func anUnsatisfiableSeedIsReportedBeforeTheStoreIsOpened() throws {
        let model = try ProjectFixtures.model("Library")
        let out = try scratchFile("seed.jsonl")
        let error = objectGraphError {
            _ = try SeedJob(model: model, counts: ["Book": 2], seed: 1).run(storeURL: out)
        }
        #expect(error?.message.hasPrefix("PreviewSeeder: cannot satisfy") == true)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
