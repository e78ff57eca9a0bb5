import Foundation
import Testing

/// The built `ledger` executable in a real process: its async `main` runs the tool and
/// exits with the tool's code.
@Suite struct LedgerProcessTests {
    /// The `ledger` binary built beside the test runner.
    static let binary: URL? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("ledger"),
            Bundle.main.bundleURL.appendingPathComponent("ledger"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("ledger"),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        if found == nil {
            print("Skipping process tests: no built ledger binary beside the test runner")
        }
        return found
    }()

    static func run(_ arguments: [String], in directory: URL) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ["PATH": "/usr/bin:/bin"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self),
            String(decoding: stderr, as: UTF8.self)
        )
    }

    @Test(.enabled(if: binary != nil, "the ledger binary is not built"))
    func theExecutableExitsWithTheToolsCode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try Self.run(["demo"], in: directory)
        #expect(demo.0 == 0)
        #expect(demo.1.hasPrefix("Expense Tracker demo (RAM store)"))
        #expect(demo.2 == "")
        let usage = try Self.run(["nope"], in: directory)
        #expect(usage.0 == 64)
        #expect(usage.2.hasPrefix("ledger: unknown command 'nope'"))
        let failure = try Self.run(["list"], in: directory)
        #expect(failure.0 == 1)
        #expect(
            failure.2
                == "ledger: no ledger at ledger.jsonl; create one with `ledger init` (or pass --file PATH)\n"
        )
    }

    @Test(.enabled(if: binary != nil, "the ledger binary is not built"))
    func rulesBudgetsAndChartsThroughTheExecutable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [
            ["init"], ["category", "add", "Transport"], ["rule", "add", "metro", "Transport"],
            ["add", "2.80", "--payee", "City Metro", "--date", "2026-11-03"],
            ["categorize"], ["budget", "set", "Transport", "1"],
        ] {
            let result = try Self.run(arguments, in: directory)
            #expect(result.0 == 0, "\(arguments): \(result.2)")
        }
        let report = try Self.run(["report", "--by", "month", "--chart", "c.svg"], in: directory)
        #expect(report.0 == 0)
        // Not a terminal: the marker without colour.
        #expect(report.1.contains("2026-11  Transport        1.00        2.80       -1.80  OVER\n"))
        #expect(!report.1.contains("\u{1B}"))
        #expect(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("c.svg").path))
        let ledger = directory.appendingPathComponent("ledger.jsonl")
        let before = try Data(contentsOf: ledger)
        let bad = try Self.run(["rule", "add", "(", "Transport", "--regex"], in: directory)
        #expect(bad.0 == 1)
        #expect(bad.2.hasPrefix("ledger: bad PATTERN \"(\": expected a regular expression"))
        let usage = try Self.run(["budget", "set", "Transport"], in: directory)
        #expect(usage.0 == 64)
        #expect(try Data(contentsOf: ledger) == before)
    }
}

/// `ledger undo` through the built executable: exit codes and a refused undo's file.
@Suite struct LedgerUndoProcessTests {
    @Test(.enabled(if: LedgerProcessTests.binary != nil, "the ledger binary is not built"))
    func undoExitsZeroThenOneLeavingTheFileByteForByteAndSixtyFourForUsage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-undo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ arguments: [String]) throws -> (Int32, String, String) {
            try LedgerProcessTests.run(arguments, in: directory)
        }
        #expect(try run(["init"]).0 == 0)
        #expect(try run(["category", "add", "Food"]).0 == 0)
        #expect(try run(["add", "4.50", "--category", "Food", "--note", "tea"]).0 == 0)
        let undone = try run(["undo"])
        #expect(undone.0 == 0)
        #expect(undone.1.hasPrefix("undid `ledger add`"))
        #expect(try run(["list"]).1 == "no transactions\n")
        #expect(try run(["undo"]).0 == 0)
        let file = directory.appendingPathComponent("ledger.jsonl")
        let before = try Data(contentsOf: file)
        let refused = try run(["undo"])
        #expect(refused.0 == 1)
        #expect(refused.2.hasPrefix("ledger: undo: nothing to undo"))
        #expect(try Data(contentsOf: file) == before)
        #expect(try run(["undo", "extra"]).0 == 64)
        let help = try run(["undo", "--help"])
        #expect(help.0 == 0)
        #expect(help.1.hasPrefix("usage: ledger undo"))
    }
}
