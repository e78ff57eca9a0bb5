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
            }
        ]
    }
}
