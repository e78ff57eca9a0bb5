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
                        let update = BatchUpdateRequest(entityName: "Expense")
                        update.propertiesToUpdate = [
                            "amount": try FetchExpression(format: "amount * 1.2")
                        ]
                        update.resultType = .updatedObjectsCountResultType
                        var updated = 0
                        let (_, seconds) = try timed(0) {
                            updated = try context.execute(update).result as? Int ?? 0
                        }
                        guard updated == n else {
                            throw BenchError("batch update changed \(updated) rows")
                        }
                        return (updated, seconds)
                    }
                }
            }
        ]
    }
}
