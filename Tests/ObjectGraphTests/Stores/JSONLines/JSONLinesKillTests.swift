import Foundation
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
        var random = FileStoreRandom(seed: 20_240_601 + UInt64(worker))
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
            return e.code == .storeTimeout && e.message.contains("process \(pid)")
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

/// The invariants of the crash writer's workload (see `objectgraph-crash-writer`): the file
/// holds transactions 1…N exactly — counter N, last transaction N, complete item groups for
/// N−2…N — and N is at least the last commit the writer reported.
enum CrashInvariants {
    static func model(at url: URL) throws -> ManagedObjectModel {
        try JSONLinesStore.metadata(at: url).model
    }

    @discardableResult
    static func check(file: String, reported: Int64) throws -> Int64 {
        let url = URL(fileURLWithPath: file)
        let model = try model(at: url)
        let store = try JSONLinesStore(model: model, url: url)
        defer { store.close() }
        func integer(_ row: StoreRow, _ slot: Int) -> Int64 {
            if case .integer(let v) = row.values[slot].attributeValue { v } else { -1 }
        }
        let counter = try store.fetch(StoreFetchRequest(entity: model[entityName: "Counter"]!))
        let n = counter.first.map { integer($0, 0) } ?? 0
        #expect(n >= reported, "counter \(n) is below the last reported commit \(reported)")
        #expect(try store.statistics().lastTransactionNumber == n)
        var groups: [Int64: (count: Int64, size: Int64)] = [:]
        for row in try store.fetch(StoreFetchRequest(entity: model[entityName: "Item"]!)) {
            groups[integer(row, 0), default: (0, integer(row, 1))].count += 1
        }
        let expected: Set<Int64> = n == 0 ? [] : Set(max(1, n - 2)...n)
        #expect(
            Set(groups.keys) == expected,
            "item groups \(groups.keys.sorted()) after transaction \(n)")
        for (t, g) in groups {
            #expect(g.count == g.size, "transaction \(t) has \(g.count) of \(g.size) items")
        }
        return n
    }
}

/// Locates and starts the built `objectgraph-crash-writer` next to the test bundle.
enum CrashWriterBinary {
    static let url: URL? = {
        let candidates = [
            Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0]),
        ]
        return candidates.compactMap {
            $0?.deletingLastPathComponent().appendingPathComponent("objectgraph-crash-writer")
        }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static let missingReason: Comment = {
        if url == nil {
            print(
                "JSONLinesKillTests: skipped, no built objectgraph-crash-writer next to the test bundle"
            )
        }
        return "objectgraph-crash-writer is not built next to the test bundle"
    }()

    /// A running child with line-by-line access to its standard output.
    final class Child {
        let process = Process()
        let input = Pipe()
        private let output = Pipe()
        private var buffer = Data()

        init(_ arguments: [String]) throws {
            process.executableURL = CrashWriterBinary.url
            process.arguments = arguments
            process.standardOutput = output
            process.standardInput = input
            try process.run()
        }

        /// The next line, or `nil` at the end of the output.
        func nextLine() -> String? {
            while true {
                if let lf = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<lf], as: UTF8.self)
                    buffer.removeSubrange(...lf)
                    return line
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                buffer += chunk
            }
        }
    }

    static func start(_ arguments: [String]) throws -> Child { try Child(arguments) }
}
