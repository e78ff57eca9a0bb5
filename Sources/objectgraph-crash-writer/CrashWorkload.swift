import Foundation
import ObjectGraph
import ObjectGraphTesting

/// The writer's workload and the invariants a crashed file must still satisfy.
enum CrashWorkload {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Counter",
                    properties: [AttributeDescription(name: "value", type: .integer64)]),
                EntityDescription(
                    name: "Item",
                    properties: [
                        AttributeDescription(name: "txn", type: .integer64),
                        AttributeDescription(name: "size", type: .integer64),
                        AttributeDescription(name: "payload", type: .string),
                    ]),
            ])
        } catch {
            fatalError("the crash model does not build: \(error)")
        }
    }()

    /// Commits transactions until killed, printing `committed N` after each returns.
    static func write(file: String, seed: UInt64, synchronous: SynchronousMode) throws {
        var options = StoreOptions()
        options.synchronous = synchronous
        options.compactionMinimumBytes = 32 * 1024
        let store = try JSONLinesStore(
            model: model, url: URL(fileURLWithPath: file), options: options)
        let counter = model[entityName: "Counter"]!
        let item = model[entityName: "Item"]!
        let counterID = ManagedObjectID(
            entity: counter, storeIdentifier: store.identifier, primaryKey: 1)
        var n =
            try store.row(for: counterID).map { $0.values[0].attributeValue }.flatMap {
                value -> Int64? in
                if case .integer(let v) = value { v } else { nil }
            } ?? 0
        var random = SeededRandomNumberGenerator(seed: seed)
        while true {
            n += 1
            let size = Int64(1 + random.next() % 20)
            let keys = try store.allocatePrimaryKeys(for: item, count: Int(size))
            let inserted = keys.map { key in
                StoreRow(
                    objectID: ManagedObjectID(
                        entity: item, storeIdentifier: store.identifier, primaryKey: key),
                    version: 1,
                    values: [
                        .attribute(.integer(n)), .attribute(.integer(size)),
                        .attribute(
                            .string(String(repeating: "x", count: Int(random.next() % 2000)))),
                    ])
            }
            let old = try store.row(for: counterID)
            let counterRow = StoreRow(
                objectID: counterID, version: (old?.version ?? 0) + 1,
                values: [.attribute(.integer(n))])
            let stale = try store.fetch(StoreFetchRequest(entity: item)).filter {
                $0.values[0].attributeValue == .integer(n - 3)
            }
            try store.commit(
                StoreChangeSet(
                    inserted: inserted + (old == nil ? [counterRow] : []),
                    updated: old == nil ? [] : [counterRow],
                    deleted: stale.map { ($0.objectID, $0.version) }, timestamp: Date()))
            FileHandle.standardOutput.write(Data("committed \(n)\n".utf8))
            if n % 7 == 0 { try store.compact() }
        }
    }

    /// Checks the invariants; returns the counter. Throws a description of any violation.
    static func check(file: String, reported: Int64) throws -> Int64 {
        let url = URL(fileURLWithPath: file)
        let stored = try JSONLinesStore.metadata(at: url).model
        let store = try JSONLinesStore(model: stored, url: url)
        defer { store.close() }
        let counter = try store.fetch(StoreFetchRequest(entity: stored[entityName: "Counter"]!))
        let n: Int64 =
            counter.first.map { row in
                if case .integer(let v) = row.values[0].attributeValue { v } else { -1 }
            } ?? 0
        guard n >= reported else {
            throw CrashViolation("counter \(n) is below the reported commit \(reported)")
        }
        let last = try store.statistics().lastTransactionNumber
        guard last == n else { throw CrashViolation("last transaction \(last) but counter \(n)") }
        var groups: [Int64: (count: Int64, size: Int64)] = [:]
        for row in try store.fetch(StoreFetchRequest(entity: stored[entityName: "Item"]!)) {
            guard case .integer(let t) = row.values[0].attributeValue,
                case .integer(let size) = row.values[1].attributeValue
            else {
                throw CrashViolation("item \(row.objectID) lacks txn or size")
            }
            groups[t, default: (0, size)].count += 1
        }
        let expected = Set(max(1, n - 2)...max(1, n)).filter { $0 <= n }
        guard Set(groups.keys) == expected else {
            throw CrashViolation(
                "items of transactions \(groups.keys.sorted()) but expected \(expected.sorted())")
        }
        for (t, g) in groups where g.count != g.size {
            throw CrashViolation("transaction \(t) has \(g.count) of its \(g.size) items")
        }
        return n
    }
}

/// An invariant a crashed file broke.
struct CrashViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
