import Foundation
import Testing

@testable import ObjectGraph

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
