import Foundation
import Testing

/// The long `objectgraph` commands (`seed`, `load`, `compact`, `verify`; `migrate` in
/// MigrateCommandTests) draw a progress bar only when standard error is a terminal: run as a
/// program with standard error a pipe, they write nothing there, with or without `--quiet`,
/// and every one lists `--quiet` in its help.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
struct ToolProgressTests {
    let directory: URL
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    init() throws {
        directory = ToolBinary.scratchRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try ToolBinary.run(ToolBinary.objectgraph!, arguments)
    }

    private var model: String {
        Self.fixtures.appendingPathComponent("models/ExpenseTracker.json").path
    }

    @Test func seedLoadCompactAndVerifyWriteNothingToAPipedStandardError() throws {
        for quiet in [[], ["--quiet"]] {
            let seeded = directory.appendingPathComponent("seeded\(quiet.count).jsonl").path
            let loaded = directory.appendingPathComponent("loaded\(quiet.count).jsonl").path
            for arguments in [
                [
                    "seed", "--model", model, "--count", "Category=4", "--count",
                    "Transaction=5000", "--out", seeded,
                ],
                [
                    "load", "--model", model, "--fixtures",
                    Self.fixtures.appendingPathComponent("fixtures/expenses.json").path, "--out",
                    loaded,
                ],
                ["compact", seeded], ["verify", seeded], ["compact", loaded], ["verify", loaded],
            ] {
                let result = try run(arguments + quiet)
                #expect(result.status == 0, "\(arguments + quiet): \(result.err)")
                #expect(result.err == "", "\(arguments + quiet)")
                #expect(!result.out.isEmpty)
            }
        }
    }

    @Test func theLongCommandsListQuietInTheirHelp() throws {
        for command in ["seed", "load", "compact", "verify", "migrate"] {
            let help = try run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.out.contains("--quiet"), "\(command)")
            #expect(help.out.contains("progress bar"), "\(command)")
        }
    }
}
