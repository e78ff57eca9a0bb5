import Foundation
import ObjectGraph

// Cases on the JSON-lines file store and its value codec: values encoded and decoded in the
// line format, rows appended in one transaction, a file replayed when opened.

extension MicroFixture {
    func fileCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "codec.encode", unit: "values",
                explains: "AttributeValue.canonicalJSON(as:): one expense's 5 values, N times"
            ) { [self] in
                let values = try sampleValues()
                var bytes = 0
                let (_, seconds) = try timed(0) {
                    for _ in 0..<n {
                        for (value, type) in values {
                            bytes += try value.canonicalJSON(as: type).utf8.count
                        }
                    }
                }
                blackHole(bytes)
                return (n * values.count, seconds)
            },
            MicroCase(
                name: "codec.decode", unit: "values",
                explains: "AttributeValue(canonicalJSON:as:): the same 5 texts, N times"
            ) { [self] in
                let texts = try sampleValues().map { (try $0.0.canonicalJSON(as: $0.1), $0.1) }
                var decoded = 0
                let (_, seconds) = try timed(0) {
                    for _ in 0..<n {
                        for (text, type) in texts
                        where try !AttributeValue(canonicalJSON: text, as: type).isNull {
                            decoded += 1
                        }
                    }
                }
                blackHole(decoded)
                return (n * texts.count, seconds)
            },
            MicroCase(
                name: "jsonl.commit.insert", unit: "rows",
                explains:
                    "W1's store part: N rows appended as one transaction line, synchronous = off"
            ) { [self] in
                try inDirectory { url in
                    let store = try JSONLinesStore(
                        model: model, url: url, options: fileOptions(.off))
                    defer { store.close() }
                    let changes = try insertChangeSet(store: store, expenses: n)
                    return try timed(changes.inserted.count) { try store.commit(changes) }
                }
            },
            MicroCase(
                name: "jsonl.fsync", unit: "commits",
                explains:
                    "W1's durability: the same commit with synchronous = full (the difference is fsync)"
            ) { [self] in
                try inDirectory { url in
                    let store = try JSONLinesStore(
                        model: model, url: url, options: fileOptions(.full))
                    defer { store.close() }
                    let changes = try insertChangeSet(store: store, expenses: n)
                    return try timed(1) { try store.commit(changes) }
                }
            },
            MicroCase(
                name: "jsonl.open", unit: "rows",
                explains: "W2: open a file of N rows (replay the log, decode every value)"
            ) { [self] in
                try inDirectory { url in
                    let writer = try JSONLinesStore(
                        model: model, url: url, options: fileOptions(.off))
                    let changes = try insertChangeSet(store: writer, expenses: n)
                    try writer.commit(changes)
                    writer.close()
                    var rows = 0
                    let (_, seconds) = try timed(0) {
                        let store = try JSONLinesStore(
                            model: model, url: url, options: fileOptions(.off))
                        rows = try store.snapshot().totalRowCount
                        store.close()
                    }
                    return (rows, seconds)
                }
            },
        ]
    }

    /// File-store options for a case: automatic compaction off, the given durability.
    private func fileOptions(_ synchronous: SynchronousMode) -> StoreOptions {
        var options = StoreOptions()
        options.synchronous = synchronous
        options.automaticCompaction = false
        return options
    }

    /// Runs `body` with the URL of a store file in a fresh directory, removed afterwards.
    func inDirectory(_ body: (URL) throws -> (Int, Double)) throws -> (
        operations: Int, seconds: Double
    ) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-bench-micro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (operations, seconds) = try body(directory.appendingPathComponent("micro.jsonl"))
        return (operations, seconds)
    }

    /// One seeded expense's attribute values with their types.
    private func sampleValues() throws -> [(AttributeValue, AttributeType)] {
        let expense = try entity("Expense")
        guard let row = table.rows(of: expense).first else {
            throw BenchError("micro: no seeded expense")
        }
        return expense.attributes.map { (row.values[$0.index].attributeValue, $0.type) }
    }
}
