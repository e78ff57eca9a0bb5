import Foundation
import ObjectGraph

// Cases on predicates and fetching with them: W3's predicate evaluated alone, in a store
// scan, and as the whole fetch a user makes.

extension MicroFixture {
    /// W3's predicate and order, as the macro run uses them.
    static let w3Format = "amount > 500 AND category.name == 'category 0'"

    func queryCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "predicate.evaluate", unit: "records",
                explains: "W3: the compiled predicate alone, over N plain records"
            ) { [self] in
                let expense = try entity("Expense")
                let compiled = try FetchPredicate(format: Self.w3Format).compile(for: expense)
                let records = try benchRecords()
                var matches = 0
                let (_, seconds) = try timed(0) {
                    for record in records where compiled.evaluate(record) { matches += 1 }
                }
                blackHole(matches)
                return (records.count, seconds)
            },
            MicroCase(
                name: "store.fetch.predicate", unit: "rows",
                explains: "W3 in the RAM store: scan N rows with the predicate, sort, limit 100"
            ) { [self] in
                let store = InMemoryStore(table: table)
                let request = StoreFetchRequest(
                    entity: try entity("Expense"),
                    predicate: try FetchPredicate(format: Self.w3Format),
                    sortDescriptors: [FetchSortDescriptor(key: "date", ascending: false)],
                    fetchLimit: 100)
                var fetched = 0
                let (_, seconds) = try timed(0) { fetched = try store.fetch(request).count }
                guard fetched <= 100 else {
                    throw BenchError("store fetch returned \(fetched) rows")
                }
                return (n, seconds)
            },
            MicroCase(
                name: "context.fetch.W3", unit: "fetches",
                explains: "W3 as a user writes it: 10 fetches, each in a fresh context"
            ) { [self] in
                let coordinator = coordinator()
                return try timed(10) {
                    for _ in 0..<10 {
                        let context = ManagedObjectContext(
                            concurrencyType: .privateQueue, coordinator: coordinator)
                        try context.performAndWait {
                            let request = FetchRequest<Expense>(entityName: "Expense")
                            request.predicate = try FetchPredicate(format: Self.w3Format)
                            request.sortDescriptors = [
                                FetchSortDescriptor(key: "date", ascending: false)
                            ]
                            request.fetchLimit = 100
                            blackHole(try context.fetch(request).compactMap(\.id))
                        }
                    }
                }
            },
        ]
    }

    func entity(_ name: String) throws -> EntityDescription {
        guard let entity = model.entitiesByName[name] else {
            throw BenchError("micro: the model has no entity \(name)")
        }
        return entity
    }

    /// Every seeded expense as a plain record whose category is a record too.
    private func benchRecords() throws -> [BenchRecord] {
        let category = try entity("Category")
        let expense = try entity("Expense")
        var categories: [ManagedObjectID: BenchRecord] = [:]
        for row in table.rows(of: category) {
            categories[row.objectID] = BenchRecord(row: row, toOne: [:])
        }
        return table.rows(of: expense).map { row in
            var toOne: [Int: BenchRecord] = [:]
            for (slot, value) in row.values.enumerated() {
                if case .toOne(let id?) = value { toOne[slot] = categories[id] }
            }
            return BenchRecord(row: row, toOne: toOne)
        }
    }
}

/// A record the predicate evaluator reads without any store or context around it.
final class BenchRecord: PredicateRecord {
    let recordEntity: EntityDescription
    let recordObjectID: ManagedObjectID
    private let values: [AttributeValue]
    private let toOne: [BenchRecord?]

    init(row: StoreRow, toOne: [Int: BenchRecord]) {
        recordEntity = row.objectID.entity
        recordObjectID = row.objectID
        values = row.values.map(\.attributeValue)
        self.toOne = row.values.indices.map { toOne[$0] }
    }

    func attributeValue(at index: Int) -> AttributeValue { values[index] }
    func toOneRecord(at index: Int) -> BenchRecord? { toOne[index] }
    func toManyRecords(at index: Int) -> [BenchRecord] { [] }
}
