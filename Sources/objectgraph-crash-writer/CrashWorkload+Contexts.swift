import Foundation
import ObjectGraph
import ObjectGraphTesting

extension CrashWorkload {
    /// The `write` workload through contexts, as applications save: each transaction is made
    /// in a scratchpad child context, saved into the root context, then from the root to the
    /// store (the ledger's two-step save). Prints `committed N` once both steps returned.
    static func writeThroughContexts(file: String, seed: UInt64, synchronous: SynchronousMode)
        throws
    {
        let container = PersistentContainer(name: "Crash", managedObjectModel: model)
        let description = PersistentStoreDescription(url: URL(fileURLWithPath: file))
        description.storeOptions.synchronous = synchronous
        description.storeOptions.compactionMinimumBytes = 32 * 1024
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        let root = container.newBackgroundContext()
        root.name = "crash root"
        var n = try root.performAndWait { () throws -> Int64 in
            let counter = try root.fetch(FetchRequest<ManagedObject>(entityName: "Counter")).first
            return counter?.value(forKey: "value") as? Int64 ?? 0
        }
        var random = SeededRandomNumberGenerator(seed: seed)
        while true {
            n += 1
            let payloads = (0..<(1 + random.next() % 20)).map { _ in
                String(repeating: "x", count: Int(random.next() % 2000))
            }
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = root
            child.name = "crash draft"
            try child.performAndWait { [n] in
                for payload in payloads {
                    let item = child.insertNewObject(forEntityName: "Item")
                    item.setValue(n, forKey: "txn")
                    item.setValue(Int64(payloads.count), forKey: "size")
                    item.setValue(payload, forKey: "payload")
                }
                let counter =
                    try child.fetch(FetchRequest<ManagedObject>(entityName: "Counter")).first
                    ?? child.insertNewObject(forEntityName: "Counter")
                counter.setValue(n, forKey: "value")
                let stale = FetchRequest<ManagedObject>(entityName: "Item")
                stale.predicate = try FetchPredicate(format: "txn == %@", n - 3)
                for item in try child.fetch(stale) { child.delete(item) }
                try child.save()
            }
            try root.performAndWait { try root.save() }
            FileHandle.standardOutput.write(Data("committed \(n)\n".utf8))
        }
    }
}
