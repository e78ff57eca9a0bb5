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
