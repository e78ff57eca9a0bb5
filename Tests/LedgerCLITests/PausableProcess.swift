import Foundation
import Testing

/// A built executable run as a child process that can be stopped at named steps (the
/// `OBJECTGRAPH_PAUSE_AT` pause points), resumed, or killed: the way race tests make one
/// process's window meet another's on purpose, every time.
final class PausableProcess {
    let process = Process()
    let pauseDirectory: URL
    private let out = Pipe()
    private let err = Pipe()
    private var collected: (out: Data, err: Data)?

    /// How long a test waits for a pause or an exit before it gives up (a hang is a failure,
    /// never a pass).
    static let patience: TimeInterval = 120

    /// Starts `binary` with `arguments` in `directory`, pausing at `steps`.
    init(_ binary: URL, _ arguments: [String], in directory: URL, pauseAt steps: [String] = [])
        throws
    {
        pauseDirectory = directory.appendingPathComponent(
            "pause-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: pauseDirectory, withIntermediateDirectories: true)
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ["PATH": "/usr/bin:/bin"]
        if !steps.isEmpty {
            environment["OBJECTGRAPH_PAUSE_AT"] = steps.joined(separator: ",")
            environment["OBJECTGRAPH_PAUSE_DIR"] = pauseDirectory.path
        }
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// Waits until the process stops at `step` (`true`) or exits without reaching it (`false`).
    func waitUntilPaused(at step: String) -> Bool {
        let marker = pauseDirectory.appendingPathComponent(step + ".paused").path
        let deadline = Date().addingTimeInterval(Self.patience)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: marker) { return true }
            if !process.isRunning { return FileManager.default.fileExists(atPath: marker) }
            usleep(1000)
        }
        kill(process.processIdentifier, SIGKILL)
        Issue.record("\(process.arguments ?? []) neither paused at \(step) nor exited")
        return false
    }

    /// Lets a process stopped at `step` go on.
    func resume(_ step: String) {
        let go = pauseDirectory.appendingPathComponent(step + ".go")
        _ = FileManager.default.createFile(atPath: go.path, contents: nil)
    }

    /// Kills the process with SIGKILL and waits for it.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the exit; returns the status and what was printed.
    @discardableResult
    func finish() -> (code: Int32, out: String, err: String) {
        if collected == nil {
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            collected = (o, e)
        }
        return (
            process.terminationStatus, String(decoding: collected!.out, as: UTF8.self),
            String(decoding: collected!.err, as: UTF8.self)
        )
    }
}
