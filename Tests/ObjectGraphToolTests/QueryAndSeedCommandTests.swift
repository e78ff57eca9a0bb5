import Foundation
import ObjectGraph
import Testing

/// End to end: `objectgraph seed`, `load`, `fetch`, `count` and `model` on real files.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
final class QueryAndSeedCommandTests: Sendable {
    let directory: URL
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "objectgraph-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Each test's folder goes with it.
    deinit { try? FileManager.default.removeItem(at: directory) }

    private func run(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try ToolBinary.run(ToolBinary.objectgraph!, arguments)
    }

    private var model: String {
        Self.fixtures.appendingPathComponent("models/ExpenseTracker.json").path
    }

    @Test func seedingTwiceWithOneSeedWritesIdenticalBytes() throws {
        let a = directory.appendingPathComponent("a.jsonl").path
        let b = directory.appendingPathComponent("b.jsonl").path
        for out in [a, b] {
            let r = try run(
                "seed", "--model", model, "--count", "Category=4", "--count", "Transaction=30",
                "--seed", "11", "--out", out)
            #expect(r.status == 0)
            #expect(r.out.contains("34 objects"))
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: a))
                == Data(contentsOf: URL(fileURLWithPath: b)))
        let again = try run("seed", "--model", model, "--out", a)
        #expect(again.status == 1)
        #expect(again.err.contains("already exists"))
    }

    // A regression test: the summary printed "1004 objects (…, Transaction 1000)", where every
    // other count the tool prints groups thousands.
    @Test func seedsSummaryGroupsThousands() throws {
        let out = directory.appendingPathComponent("k.jsonl").path
        let r = try run(
            "seed", "--model", model, "--count", "Category=4", "--count", "Transaction=1000",
            "--out", out)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("\(out): 1,004 objects ("), "\(r.out)")
        #expect(r.out.contains("Transaction 1,000"), "\(r.out)")
    }

    @Test func fetchAndCountQueryAFileLikeASQLShell() throws {
        let file = directory.appendingPathComponent("s.jsonl").path
        #expect(
            try run(
                "seed", "--model", model, "--count", "Category=3", "--count", "Transaction=40",
                "--seed", "3", "--out", file
            ).status == 0)
        let all = try run("count", file, "--entity", "Transaction")
        #expect(all.status == 0 && all.out == "40\n")
        let big = try run("count", file, "--entity", "Transaction", "--where", "amount > 250")
        let bigCount = Int(big.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(big.status == 0 && bigCount >= 0 && bigCount <= 40)
        let top = try run(
            "fetch", file, "--entity", "Transaction", "--sort", "amount:desc", "--limit", "2",
            "--json")
        #expect(top.status == 0)
        let amounts = top.out.split(separator: "\n").compactMap { line -> Decimal? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return ((object?["values"] as? [String: Any])?["amount"] as? String).flatMap {
                Decimal(string: $0)
            }
        }
        #expect(amounts.count == 2)
        #expect(amounts[0] >= amounts[1])
        let bad = try run("fetch", file, "--entity", "Transaction", "--where", "amount >> 3")
        #expect(bad.status == 1)
        #expect(bad.err.contains("column 9"))
        let usage = try run("fetch", file)
        #expect(usage.status == 64)
        #expect(usage.err.contains("--entity NAME is required"))
        // Regressions from the bad-input session: loose numbers and single-dash options.
        let signed = try run("fetch", file, "--entity", "Transaction", "--limit", "+3")
        #expect(
            signed.status == 1
                && signed.err == "objectgraph: --limit takes a whole number ≥ 0, not '+3'\n")
        let shortOption = try run("fetch", file, "--entity", "Transaction", "-l", "3")
        #expect(shortOption.status == 64 && shortOption.err.contains("unknown option -l"))
        let looseCount = try run(
            "seed", "--model", model, "--count", "Category=+4", "--out", file + ".x")
        #expect(looseCount.status == 1 && looseCount.err.contains("--count takes Entity=N"))
        let looseSeed = try run("seed", "--model", model, "--seed", "+4", "--out", file + ".x")
        #expect(looseSeed.status == 1 && looseSeed.err.contains("--seed takes a whole number"))
        #expect(!FileManager.default.fileExists(atPath: file + ".x"))
    }

    @Test func loadWritesNothingForAnInvalidFixture() throws {
        let good = directory.appendingPathComponent("good.jsonl").path
        let loaded = try run(
            "load", "--model", model, "--fixtures",
            Self.fixtures.appendingPathComponent("fixtures/expenses.json").path, "--out", good)
        #expect(loaded.status == 0)
        #expect(try run("count", good, "--entity", "Category").out == "3\n")
        let badFixture = directory.appendingPathComponent("bad.json")
        try Data(#"{"Category": [{"_ref": "x", "name": 42}]}"#.utf8).write(to: badFixture)
        let out = directory.appendingPathComponent("bad.jsonl").path
        let failed = try run("load", "--model", model, "--fixtures", badFixture.path, "--out", out)
        #expect(failed.status == 1)
        #expect(failed.err.contains("Category[0].name"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func modelSummarisesAnXcodeModelAndConvertsItToJSON() throws {
        let path = Self.fixtures.appendingPathComponent("ExpenseTracker.xcdatamodeld").path
        let text = try run("model", path)
        #expect(text.status == 0)
        #expect(text.out.contains("Transaction"))
        #expect(text.out.contains("min 0.01"))
        let json = try run("model", path, "--json")
        let back = try ManagedObjectModel(jsonData: Data(json.out.utf8))
        #expect(Set(back.entitiesByName.keys) == ["Category", "Transaction"])
    }
}
