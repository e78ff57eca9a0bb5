import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Real crashes: a writer child process (`objectgraph-crash-writer`) is killed with SIGKILL at
/// seeded moments; the reopened file must hold every transaction it reported and none half
/// applied. `objectgraph-crash-writer stress DIR TRIALS SEED` runs many more.
@Suite(.enabled(if: CrashWriterBinary.url != nil, CrashWriterBinary.missingReason))
struct JSONLinesKillTests {
    @Test func killedWritersLoseNothingTheyReportedAndHalfApplyNothing() async throws {
        let directory = try FileStoreFixtures.temporaryDirectory()
        // Two workers of 25 trials each, on their own files; every file is reopened (and
        // written on) by later trials, so recovery after a kill is exercised too.
        let trials = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<2 {
                group.addTask { try Self.trials(25, worker: worker, directory: directory) }
            }
            return try await group.reduce(0, +)
        }
        #expect(trials == 50)
    }

    private static func trials(_ count: Int, worker: Int, directory: URL) throws -> Int {
        var random = SeededRandomNumberGenerator(seed: 20_240_601 + UInt64(worker))
        for trial in 1...count {
            let file = directory.appendingPathComponent("kill-\(worker)-\(trial % 3).jsonl").path
            let sync = [SynchronousMode.normal, .off, .normal, .full][trial % 4]
            let killAfter = Int.random(in: 1...8, using: &random)
            let child = try CrashWriterBinary.start([
                "write", file, String(random.next()), sync.rawValue,
            ])
            var reported: Int64 = 0
            var seen = 0
            while seen < killAfter, let line = child.nextLine() {
                if line.hasPrefix("committed "), let n = Int64(line.dropFirst(10)) {
                    reported = n
                    seen += 1
                }
            }
            kill(child.process.processIdentifier, SIGKILL)
            child.process.waitUntilExit()
            while let line = child.nextLine() {
                if line.hasPrefix("committed "), let n = Int64(line.dropFirst(10)) {
                    reported = max(reported, n)
                }
            }
            try CrashInvariants.check(file: file, reported: reported)
        }
        return count
    }

    @Test func aWriterInAnotherProcessIsNamedByItsPid() throws {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("held.jsonl")
        let child = try CrashWriterBinary.start(["hold", url.path])
        let ready = child.nextLine()
        let pid = child.process.processIdentifier
        #expect(ready == "ready \(pid)")
        #expect { try JSONLinesStore(model: CrashInvariants.model(at: url), url: url) } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .storeLocked && e.message.contains("process \(pid)")
        }
        var readOnly = StoreOptions()
        readOnly.isReadOnly = true
        _ = try JSONLinesStore(model: CrashInvariants.model(at: url), url: url, options: readOnly)
        try child.input.fileHandleForWriting.close()
        child.process.waitUntilExit()
        let store = try JSONLinesStore(model: CrashInvariants.model(at: url), url: url)
        store.close()
    }
}
