import Foundation
import Testing

/// `ledger watch` as a real process beside another `ledger` process: the change appears on
/// the watcher's output as it happens (read line by line, no sleeping), and SIGINT ends it
/// with exit code 0.
@Suite struct LedgerWatchProcessTests {
    @Test func watchPrintsAnotherProcessesAddAsItHappensAndExitsZeroOnSIGINT() throws {
        guard let binary = LedgerProcessTests.binary else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-watch-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (created, _, createErrors) = try LedgerProcessTests.run(["init"], in: directory)
        try #require(created == 0, "\(createErrors)")

        let watch = Process()
        watch.executableURL = binary
        watch.arguments = ["watch", "--json"]
        watch.currentDirectoryURL = directory
        watch.environment = ["PATH": "/usr/bin:/bin"]
        let out = LineReader()
        let err = LineReader()
        watch.standardOutput = out.pipe
        watch.standardError = err.pipe
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let ready = err.next(timeout: PausableProcess.patience)
        try #require(ready?.contains("watching") == true, "watch did not start: \(ready ?? "EOF")")

        let (added, _, addErrors) = try LedgerProcessTests.run(
            ["add", "7.25", "--payee", "Kiosk", "--date", "2026-11-04"], in: directory)
        try #require(added == 0, "\(addErrors)")
        let line = try #require(out.next(timeout: PausableProcess.patience))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["author"] as? String == "ledger add")
        #expect(object["change"] as? String == "added")
        #expect((object["transaction"] as? [String: Any])?["payee"] as? String == "Kiosk")

        kill(watch.processIdentifier, SIGINT)
        watch.waitUntilExit()
        #expect(watch.terminationReason == .exit)
        #expect(watch.terminationStatus == 0)
        #expect(out.next(timeout: PausableProcess.patience) == nil, "nothing more after the add")
    }
}

/// The lines a child writes to a pipe, collected by a background reader; a test waits for
/// the next one on a condition (with a deadline), never by sleeping.
final class LineReader: @unchecked Sendable {
    // Sendable: `lines`, `buffer` and `ended` are guarded by `condition`.
    let pipe = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var buffer = Data()
    private var ended = false

    init() {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty {
                    ended = true
                } else {
                    buffer += chunk
                    while let newline = buffer.firstIndex(of: 0x0A) {
                        lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
                        buffer.removeSubrange(...newline)
                    }
                }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    /// The next line, or `nil` at the end of the output or after `timeout` seconds.
    func next(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty, !ended, condition.wait(until: deadline) {}
        return lines.isEmpty ? nil : lines.removeFirst()
    }
}
