import Foundation
import Testing

/// Finds the project's executables next to the test bundle and runs them.
enum ToolBinary {
    /// The build products directory (where `swift build` puts executables and the test bundle).
    static let productsDirectory: URL? = {
        let candidates = [
            Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0]),
        ]
        return candidates.compactMap { $0?.deletingLastPathComponent() }.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("objectgraph").path)
        }
    }()

    /// This process's scratch root; creating it removes the roots of finished test runs.
    static let scratchRoot: URL = {
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-tool-tests", isDirectory: true)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for entry in entries where Int32(entry).map({ kill($0, 0) != 0 }) ?? true {
            try? FileManager.default.removeItem(at: base.appendingPathComponent(entry))
        }
        return base.appendingPathComponent(String(getpid()), isDirectory: true)
    }()

    static let objectgraph: URL? = productsDirectory?.appendingPathComponent("objectgraph")

    static let missingReason: Comment = {
        if objectgraph == nil {
            print("ObjectGraphToolTests: skipped, no built objectgraph next to the test bundle")
        }
        return "the objectgraph executable is not built next to the test bundle"
    }()

    static func run(_ executable: URL, _ arguments: [String]) throws -> (
        status: Int32, out: String, err: String
    ) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}
