import Foundation
import ObjectGraph

// A batch update on the JSON-lines file store: what W4 costs on the file store, its line
// included (synchronous = off, so the fsync's noise stays out; `jsonl.fsync` measures that).

extension MicroFixture {
    func fileBatchCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "jsonl.batch.update", unit: "rows",
                explains:
                    "W4 on the file store: BatchUpdateRequest amount = amount * 1.2 on N expenses, one line"
            ) { [self] in
                try inDirectory { url in
                    var options = StoreOptions()
                    options.synchronous = .off
                    options.automaticCompaction = false
                    let store = try JSONLinesStore(model: model, url: url, options: options)
                    defer { store.close() }
                    try store.commit(try insertChangeSet(store: store, expenses: n))
                    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
                    try coordinator.addPersistentStore(store)
                    let context = ManagedObjectContext(
                        concurrencyType: .privateQueue, coordinator: coordinator)
                    return try context.performAndWait {
                        try timedAmountUpdate(in: context)
                    }
                }
            },
            openAfterBatchCase(batchLine: true),
            openAfterBatchCase(batchLine: false),
        ]
    }

    /// W2 after W4: open a file of N expenses whose last line is the batch update
    /// `amount = amount * 1.2`, as a batch line (format version 6: the replay evaluates it) or
    /// as partial rows (version 5's form: the replay parses them).
    private func openAfterBatchCase(batchLine: Bool) -> MicroCase {
        let n = count
        return MicroCase(
            name: batchLine ? "jsonl.open.batch" : "jsonl.open.partial", unit: "rows",
            explains: batchLine
                ? "W2 after W4: open a file of N rows and one batch line (amount * 1.2)"
                : "W2 after W4: open a file of N rows and the same update as N partial rows"
        ) { [self] in
            try inDirectory { url in
                var options = StoreOptions()
                options.synchronous = .off
                options.automaticCompaction = false
                let writer = try JSONLinesStore(model: model, url: url, options: options)
                writer.writesBatchLines = batchLine
                try writer.commit(try insertChangeSet(store: writer, expenses: n))
                let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
                try coordinator.addPersistentStore(writer)
                let context = ManagedObjectContext(
                    concurrencyType: .privateQueue, coordinator: coordinator)
                _ = try context.performAndWait { try timedAmountUpdate(in: context) }
                try coordinator.remove(writer)
                writer.close()
                var rows = 0
                let (_, seconds) = try timed(0) {
                    let store = try JSONLinesStore(model: model, url: url, options: options)
                    rows = try store.snapshot().totalRowCount
                    store.close()
                }
                return (rows, seconds)
            }
        }
    }
}
