import Foundation
import ObjectGraph

// Compaction of the JSON-lines file store: W6's work alone, without the context.

extension MicroFixture {
    func compactionCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "jsonl.compact", unit: "rows",
                explains:
                    "W6: compact a file of N rows after deleting every second one (snapshot of N/2 rows, synchronous = off)"
            ) { [self] in
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("objectgraph-bench-micro-\(UUID().uuidString)")
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                var options = StoreOptions()
                options.synchronous = .off
                options.automaticCompaction = false
                let store = try JSONLinesStore(
                    model: model, url: directory.appendingPathComponent("micro.jsonl"),
                    options: options)
                defer { store.close() }
                let changes = try insertChangeSet(store: store, expenses: n)
                try store.commit(changes)
                let doomed = changes.inserted.enumerated().filter { $0.offset % 2 == 0 }
                    .map { ($0.element.objectID, $0.element.version) }
                try store.commit(StoreChangeSet(deleted: doomed, timestamp: Date()))
                let live = changes.inserted.count - doomed.count
                return try timed(live) { try store.compact() }
            }
        ]
    }
}
