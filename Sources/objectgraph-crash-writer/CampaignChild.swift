import Foundation

/// A program of the campaign run as a child process, optionally stopped at a pause point
/// (`OBJECTGRAPH_PAUSE_AT`, see StoreFileFormat.md §11) so that it can be killed there.
final class CampaignChild: @unchecked Sendable {
    // Sendable: `outData` and `errData` are written once each by the reader threads and read
    // only after `readers.wait()`; everything else is immutable after `init`.
    /// How a run ended.
    struct Outcome {
        /// The exit status, or `nil` when the campaign killed the process.
        var status: Int32?
        var out: String
        var err: String
        var killed: Bool { status == nil }
    }

    private let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private let pauseDirectory: String
    private var outData = Data()
    private var errData = Data()
    private let readers = DispatchGroup()

    /// Starts `executable` with `arguments` in `directory`, pausing at `step` when given.
    init(_ executable: URL, _ arguments: [String], in directory: String, pauseAt step: String?)
        throws
    {
        pauseDirectory = (directory as NSString).appendingPathComponent(
            ".pause-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            atPath: pauseDirectory, withIntermediateDirectories: true)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ["PATH": "/usr/bin:/bin"]
        if let step {
            environment["OBJECTGRAPH_PAUSE_AT"] = step
            environment["OBJECTGRAPH_PAUSE_DIR"] = pauseDirectory
        }
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes as the child writes, so a chatty child never blocks.
        for (pipe, isOut) in [(out, true), (err, false)] {
            readers.enter()
            DispatchQueue.global().async { [self] in
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                if isOut { outData = data } else { errData = data }
                readers.leave()
            }
        }
    }

    /// Waits until the child stops at its pause point (`true`) or exits (`false`).
    func waitForPause(timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let markers = { () -> Bool in
            let entries =
                (try? FileManager.default.contentsOfDirectory(atPath: self.pauseDirectory)) ?? []
            return entries.contains { $0.hasSuffix(".paused") }
        }
        while Date() < deadline {
            if markers() { return true }
            if !process.isRunning { return markers() }
            usleep(500)
        }
        return false
    }

    /// Kills the child with SIGKILL.
    func kill9() { kill(process.processIdentifier, SIGKILL) }

    /// Waits for the child to end and collects what it printed.
    func finish() -> Outcome {
        process.waitUntilExit()
        readers.wait()
        try? FileManager.default.removeItem(atPath: pauseDirectory)
        let killed = process.terminationReason == .uncaughtSignal
        return Outcome(
            status: killed ? nil : process.terminationStatus,
            out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData, as: UTF8.self))
    }

    /// Runs to the end with no pause and returns the outcome.
    static func run(_ executable: URL, _ arguments: [String], in directory: String) throws
        -> Outcome
    {
        try CampaignChild(executable, arguments, in: directory, pauseAt: nil).finish()
    }
}
