import Foundation
import ObjectGraph

// Lightweight migration of the JSON-lines file store beside compaction of the same file
// (issue 20: migrating 100,000 rows costs at most 1.5× compacting them).

extension MicroFixture {
    func migrationCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "jsonl.migrate", unit: "rows",
                explains:
                    "open a file of N expenses with a model adding Expense.flagged (lightweight migration: read, migrate, rewrite; synchronous = off)"
            ) { [self] in
                try withStoreFile(expenses: n) { url, rows, options in
                    let target = try BenchModel.make(
                        extraExpenseAttributes: [
                            AttributeDescription(
                                name: "flagged", type: .boolean, isOptional: false,
                                defaultValue: .boolean(false))
                        ])
                    var migrating = options
                    migrating.modelVersions = [model]
                    return try timed(rows) {
                        let store = try JSONLinesStore(model: target, url: url, options: migrating)
                        store.close()
                        guard store.recoveryNotices.contains(where: { $0.contains("migrated") })
                        else { throw BenchError("micro: jsonl.migrate did not migrate") }
                    }
                }
            },
            MicroCase(
                name: "jsonl.open+compact", unit: "rows",
                explains:
                    "the same file of N expenses opened with its own model and compacted (the baseline of jsonl.migrate; synchronous = off)"
            ) { [self] in
                try withStoreFile(expenses: n) { url, rows, options in
                    try timed(rows) {
                        let store = try JSONLinesStore(model: model, url: url, options: options)
                        defer { store.close() }
                        try store.compact()
                    }
                }
            },
        ]
    }

    /// Writes a file of `expenses` expenses (and 20 categories) with the fixture's model in a
    /// fresh directory (not timed), runs `body` with its URL, row count and the options it was
    /// written with, and removes the directory.
    private func withStoreFile(
        expenses: Int, _ body: (URL, Int, StoreOptions) throws -> (Int, Double)
    ) throws -> (Int, Double) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-bench-micro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("micro.jsonl")
        var options = StoreOptions()
        options.synchronous = .off
        options.automaticCompaction = false
        let rows: Int
        do {
            let store = try JSONLinesStore(model: model, url: url, options: options)
            defer { store.close() }
            let changes = try insertChangeSet(store: store, expenses: expenses)
            try store.commit(changes)
            rows = changes.inserted.count
        }
        return try body(url, rows, options)
    }
}
