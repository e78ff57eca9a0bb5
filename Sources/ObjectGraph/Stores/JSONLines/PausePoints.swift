import Foundation

/// Named steps of the file store (and of the programs built on it) at which a process can be
/// made to stop, so that race and crash tests are deterministic on a busy machine.
///
/// Off unless the environment asks: `OBJECTGRAPH_PAUSE_AT` lists steps, comma-separated
/// (`commit.start,compact.renamed`); `step@N` stops the N-th time the step is reached
/// instead of the first. `OBJECTGRAPH_PAUSE_DIR` names a directory: on reaching a listed step
/// the process writes its pid to `DIR/STEP.paused`, then waits until `DIR/STEP.go` exists
/// (and removes it), and goes on. A test meanwhile starts another process, deletes a file, or
/// sends SIGKILL. <doc:StoreFileFormat#11-How-the-guarantees-are-tested> lists the steps.
package enum PausePoints {
    private struct Plan {
        var directory: String
        /// Step name → the occurrence to stop at (1-based).
        var steps: [String: Int]
    }

    private static let plan: Plan? = {
        let environment = ProcessInfo.processInfo.environment
        guard let list = environment["OBJECTGRAPH_PAUSE_AT"], !list.isEmpty,
            let directory = environment["OBJECTGRAPH_PAUSE_DIR"], !directory.isEmpty
        else { return nil }
        var steps: [String: Int] = [:]
        for item in list.split(separator: ",") {
            let parts = item.split(separator: "@", maxSplits: 1)
            let n = parts.count == 2 ? Int(parts[1]) ?? 1 : 1
            steps[String(parts[0]).trimmingCharacters(in: .whitespaces)] = n
        }
        return Plan(directory: directory, steps: steps)
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var reached: [String: Int] = [:]
    // Sendable: `reached` is read and written only while holding `lock`.

    /// Whether any pause point is armed (so callers can skip work done only for one).
    package static var isArmed: Bool { plan != nil }

    /// Whether `step` would stop this time (without counting it).
    package static func isArmed(_ step: String) -> Bool {
        guard let plan, let n = plan.steps[step] else { return false }
        return lock.withLock { reached[step, default: 0] + 1 == n }
    }

    /// Stops here if the environment lists `step` (see the type's description); returns at
    /// once otherwise.
    package static func reach(_ step: String) {
        guard let plan, let n = plan.steps[step] else { return }
        let count = lock.withLock {
            reached[step, default: 0] += 1
            return reached[step]!
        }
        guard count == n else { return }
        let base = (plan.directory as NSString).appendingPathComponent(step)
        _ = FileManager.default.createFile(
            atPath: base + ".paused", contents: Data("\(getpid())\n".utf8))
        while !FileManager.default.fileExists(atPath: base + ".go") { usleep(1000) }
        try? FileManager.default.removeItem(atPath: base + ".go")
    }
}
