import CLISupport
import Foundation
import LedgerKit
import ObjectGraphTesting

/// What one run of the `ledger` command line produced.
struct CLIResult: Sendable {
    let code: Int32
    let stdout: String
    let stderr: String
}

/// A sandbox directory and an environment for running `ledger` in-process.
struct CLISandbox {
    let directory: URL
    let ids = SeededUUIDGenerator(seed: 2026)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The environment: the sandbox as current directory, no LEDGER_FILE, seeded IDs and
    /// a fixed today (2026-11-30).
    var environment: LedgerEnvironment {
        var environment = LedgerEnvironment(variables: [:], currentDirectory: directory)
        let ids = self.ids
        environment.newID = { ids.next() }
        environment.today = { Date(timeIntervalSince1970: 1_795_996_800 + 43_200) }
        return environment
    }

    /// Runs `ledger` with `arguments` in-process.
    func run(_ arguments: [String], environment: LedgerEnvironment? = nil) async -> CLIResult {
        let output = CLIOutput.capturing()
        let code = await LedgerTool.make(environment: environment ?? self.environment).run(
            arguments, output: output)
        return CLIResult(code: code, stdout: output.stdout, stderr: output.stderr)
    }

    /// Runs `ledger` and returns its standard output parsed as JSON.
    func json(_ arguments: [String]) async throws -> Any {
        let result = await run(arguments + ["--json"])
        guard result.code == 0 else {
            throw CLIError.failure("exit \(result.code): \(result.stderr)")
        }
        return try JSONSerialization.jsonObject(
            with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    }

    /// A path in the sandbox.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `text` to a sandbox file and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        return path(name)
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The package root: three levels up from this file (Tests/LedgerCLITests/).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
