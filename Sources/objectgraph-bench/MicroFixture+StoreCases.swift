import Foundation
import ObjectGraph
import ObjectGraphTesting

// Cases on saving, fetching and the RAM store below the context.

extension MicroFixture {
    func saveCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "fetch.all.faults", unit: "rows",
                explains: "W4b/W5: fetch every expense into a fresh context (faults, the default)"
            ) { [self] in
                try inContext { context in
                    let request = FetchRequest<Expense>(entityName: "Expense")
                    var fetched = 0
                    let (_, seconds) = try timed(0) { fetched = try context.fetch(request).count }
                    return (fetched, seconds)
                }
            },
            MicroCase(
                name: "fetch.all.filled", unit: "rows",
                explains: "W2b: the same with returnsObjectsAsFaults = false"
            ) { [self] in
                try inContext { context in
                    let request = FetchRequest<Expense>(entityName: "Expense")
                    request.returnsObjectsAsFaults = false
                    var fetched = 0
                    let (_, seconds) = try timed(0) { fetched = try context.fetch(request).count }
                    return (fetched, seconds)
                }
            },
            MicroCase(
                name: "save.insert", unit: "objects", explains: "W1: save() of N inserted expenses"
            ) { [self] in
                try inContext { context in
                    let categories = try context.fetch(
                        FetchRequest<Category>(entityName: "Category"))
                    var random = SeededRandomNumberGenerator(seed: 9)
                    for i in 0..<n {
                        SyntheticExpense.fill(
                            Expense(context: context), index: i, random: &random,
                            category: categories[i % categories.count])
                    }
                    return try timed(n) { try context.save() }
                }
            },
            MicroCase(
                name: "import.chunked", unit: "objects",
                explains: "insert and fill N expenses in 200 performAndWait blocks, then one save"
            ) { [self] in
                // Each block ends an event (an objects-did-change posting outside a save), so
                // this is the import shape that pays for what a posting keeps per changed
                // object (`changedValuesForCurrentEvent()`'s baselines); W1 saves in one block.
                let context = self.context()
                defer { context.performAndWait { context.reset() } }
                let categories = try context.performAndWait {
                    try context.fetch(FetchRequest<Category>(entityName: "Category"))
                }
                var random = SeededRandomNumberGenerator(seed: 9)
                let chunk = max(1, n / 200)
                return try timed(n) {
                    for start in stride(from: 0, to: n, by: chunk) {
                        context.performAndWait {
                            for i in start..<min(n, start + chunk) {
                                SyntheticExpense.fill(
                                    Expense(context: context), index: i, random: &random,
                                    category: categories[i % categories.count])
                            }
                        }
                    }
                    try context.performAndWait { try context.save() }
                }
            },
            MicroCase(
                name: "save.update", unit: "objects", explains: "W4b: save() of N changed expenses"
            ) { [self] in
                try withFetched { expenses in
                    for expense in expenses { expense.amount *= 1.2 }
                    let context = expenses[0].managedObjectContext!
                    return try timed(expenses.count) { try context.save() }
                }
            },
            MicroCase(
                name: "save.update.toOne", unit: "objects",
                explains: "save() of N expenses each moved to another category (one-slot patches)"
            ) { [self] in
                try withFetched { expenses in
                    let context = expenses[0].managedObjectContext!
                    let categories = try context.fetch(
                        FetchRequest<Category>(entityName: "Category"))
                    for (i, expense) in expenses.enumerated() {
                        var next = categories[i % categories.count]
                        if next === expense.category {
                            next = categories[(i + 1) % categories.count]
                        }
                        expense.category = next
                    }
                    return try timed(expenses.count) { try context.save() }
                }
            },
            MicroCase(
                name: "context.delete", unit: "objects", explains: "W5: delete(_:) of N/2 expenses"
            ) { [self] in
                try withFetched { expenses in
                    let context = expenses[0].managedObjectContext!
                    return try timed((expenses.count + 1) / 2) {
                        for (i, expense) in expenses.enumerated() where i % 2 == 0 {
                            context.delete(expense)
                        }
                    }
                }
            },
            MicroCase(
                name: "save.delete", unit: "objects",
                explains: "W5: save() of N/2 deletions (delete rules run here)"
            ) { [self] in
                try withFetched { expenses in
                    let context = expenses[0].managedObjectContext!
                    for (i, expense) in expenses.enumerated() where i % 2 == 0 {
                        context.delete(expense)
                    }
                    return try timed((expenses.count + 1) / 2) { try context.save() }
                }
            },
        ]
    }

    func storeCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "batch.update", unit: "rows",
                explains:
                    "W4: BatchUpdateRequest amount = amount * 1.2 on every expense, one commit"
            ) { [self] in
                try inContext { context in
                    try timedAmountUpdate(in: context)
                }
            },
            MicroCase(
                name: "store.commit.insert", unit: "rows",
                explains: "the RAM store alone: commit N new rows"
            ) { [self] in
                let store = InMemoryStore(model: model)
                let changes = try insertChangeSet(store: store, expenses: n)
                return try timed(changes.inserted.count) { try store.commit(changes) }
            },
            MicroCase(
                name: "store.fetch.all", unit: "rows",
                explains: "the RAM store alone: fetch every expense row"
            ) { [self] in
                let store = InMemoryStore(table: table)
                let request = StoreFetchRequest(entity: model.entitiesByName["Expense"]!)
                var fetched = 0
                let (_, seconds) = try timed(0) { fetched = try store.fetch(request).count }
                return (fetched, seconds)
            },
            MicroCase(
                name: "fixture.container.1k", unit: "containers",
                explains:
                    "goal ≤ 100 µs: FixtureProvider.makeContainer() on 1k seeded objects, a context, a count"
            ) { [self] in
                let provider = try fixtureProvider()
                let request = FetchRequest<Expense>(entityName: "Expense")
                var total = 0
                let result = try timed(1_000) {
                    for _ in 0..<1_000 {
                        let context = provider.makeContainer().newBackgroundContext()
                        total += try context.performAndWait { try context.count(for: request) }
                    }
                }
                guard total == 1_000 * MicroFixture.fixtureExpenses else {
                    throw BenchError("fixture containers counted \(total) expenses")
                }
                return result
            },
        ]
    }

    /// N expense rows and 20 category rows, as a store commits them.
    /// Times W4's batch update (`amount = amount * 1.2` on every expense, one commit) in
    /// `context`; throws unless it changed all N rows.
    func timedAmountUpdate(in context: ManagedObjectContext) throws -> (Int, Double) {
        let update = BatchUpdateRequest(entityName: "Expense")
        update.propertiesToUpdate = ["amount": try FetchExpression(format: "amount * 1.2")]
        update.resultType = .updatedObjectsCountResultType
        var updated = 0
        let (_, seconds) = try timed(0) {
            updated = try context.execute(update).result as? Int ?? 0
        }
        guard updated == count else {
            throw BenchError("batch update changed \(updated) rows")
        }
        return (updated, seconds)
    }

    func insertChangeSet(store: any PersistentStore, expenses: Int) throws -> StoreChangeSet {
        guard let expense = model.entitiesByName["Expense"],
            let category = model.entitiesByName["Category"]
        else {
            throw BenchError("micro: the model lacks Expense or Category")
        }
        func slot(_ entity: EntityDescription, _ key: String) -> Int {
            entity.propertiesByName[key]!.index
        }
        let categoryIDs = try store.allocatePrimaryKeys(for: category, count: 20).map {
            ManagedObjectID(entity: category, storeIdentifier: store.identifier, primaryKey: $0)
        }
        var rows = categoryIDs.enumerated().map { i, id in
            var values = [StoreValue](repeating: .notStored, count: category.properties.count)
            values[slot(category, "name")] = .attribute(.string("category \(i)"))
            return StoreRow(objectID: id, version: 1, values: values)
        }
        var random = SeededRandomNumberGenerator(seed: 11)
        for (i, key) in try store.allocatePrimaryKeys(for: expense, count: expenses).enumerated() {
            var values = [StoreValue](repeating: .notStored, count: expense.properties.count)
            values[slot(expense, "id")] = .attribute(.uuid(random.uuid()))
            values[slot(expense, "title")] = .attribute(.string("item #\(i)"))
            values[slot(expense, "amount")] = .attribute(
                .double(Double(random.next() % 100_000) / 100))
            values[slot(expense, "date")] = .attribute(
                .date(Date(timeIntervalSince1970: 1_700_000_000 - Double(i))))
            values[slot(expense, "note")] = .attribute(i % 3 == 0 ? .string("note \(i)") : .null)
            values[slot(expense, "category")] = .toOne(categoryIDs[i % 20])
            rows.append(
                StoreRow(
                    objectID: ManagedObjectID(
                        entity: expense, storeIdentifier: store.identifier,
                        primaryKey: key), version: 1, values: values))
        }
        return StoreChangeSet(inserted: rows, timestamp: Date(timeIntervalSince1970: 0))
    }
}
