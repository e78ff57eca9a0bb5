import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// What `SeedJob` and `LoadJob` report as they make objects (for `objectgraph seed` and
/// `load`'s progress bars): counts that never fall, on one total (each object is made twice,
/// checked on a scratch RAM store then written), reaching it; the same data as without.
@Suite struct StoreJobProgressTests {
    private let ram = URL(fileURLWithPath: "/dev/null")

    private func expectRising(
        _ reports: [(done: Int, total: Int)], to total: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!reports.isEmpty, sourceLocation: sourceLocation)
        #expect(reports.last?.done == total, "\(reports)", sourceLocation: sourceLocation)
        #expect(
            reports.allSatisfy { $0.total == total }, "\(reports)", sourceLocation: sourceLocation)
        #expect(
            zip(reports, reports.dropFirst()).allSatisfy { $0.done <= $1.done }, "\(reports)",
            sourceLocation: sourceLocation)
    }

    @Test func seedJobCountsEachObjectMadeInBothPasses() throws {
        let model = try ProjectFixtures.model("Library")
        let counts = [
            "Book": 4_500, "Film": 5, "Author": 6, "Tag": 8, "Shelf": 100, "Member": 5,
            "LibraryCard": 3,
        ]
        let job = SeedJob(model: model, counts: counts, seed: 4)
        var reports: [(done: Int, total: Int)] = []
        let result = try job.run(storeURL: ram) { reports.append(($0, $1)) }
        let objects = result.totalCount
        expectRising(reports, to: 2 * objects)
        #expect(reports.first?.done == 0)
        // Reports within an entity (every 4,096 values), not only at its end.
        #expect(reports.contains { $0.done > 0 && $0.done < 4_500 })
        #expect(reports.contains { $0.done == objects })
        let plain = try job.run(storeURL: ram)
        let writer = FixtureWriter()
        #expect(
            try writer.fixtureData(from: result.coordinator)
                == writer.fixtureData(from: plain.coordinator))
    }

    @Test func loadJobCountsEachFixtureObjectMadeInBothPasses() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let job = LoadJob(
            model: model,
            fixtures: [try FixtureSource(contentsOf: ProjectFixtures.fixtureURL("expenses"))],
            seed: 3)
        var reports: [(done: Int, total: Int)] = []
        let result = try job.run(storeURL: ram) { reports.append(($0, $1)) }
        #expect(result.totalCount == 9)
        expectRising(reports, to: 18)
        #expect(reports.contains { $0.done == 9 })
    }
}
