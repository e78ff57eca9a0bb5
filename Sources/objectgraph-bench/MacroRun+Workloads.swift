import Foundation
import ObjectGraph

// The workloads themselves. Each one works in a fresh background context, as a batch job
// would, and ends with `reset()` outside the timed region: objects related both ways hold
// each other (as in Core Data), and `reset()` is how a user lets a context's objects go.

extension MacroRun {
    /// W1: create N expenses and the 20 categories, save once.
    func w1Insert() throws {
        let (context, seconds) = try measured {
            let context = stack.newBackgroundContext()
            try context.performAndWait {
                let categories = dataset.categories.map { name in
                    let category = Category(context: context)
                    category.name = name
                    return category
                }
                for row in dataset.rows {
                    let expense = Expense(context: context)
                    expense.id = row.id
                    expense.title = row.title
                    expense.amount = row.amount
                    expense.date = row.date
                    expense.note = row.note
                    expense.category = categories[row.category]
                }
                try context.save()
            }
            return context
        }
        reporter.emit("W1_insert", seconds: seconds, [
            ("note", .string(mode == .memory ? "RAM store" : "one save, synchronous = full (fsync)")),
        ])
        release(context)
    }

    /// W2: reopen the persisted store cold and count the expenses (null for the RAM store).
    func w2OpenCount() throws {
        guard mode == .jsonl else {
            reporter.emit("W2_open_count", seconds: nil, [("na", .string("the RAM store cannot be reopened"))])
            return
        }
        container = nil
        let cache = dropCaches ? Measurement.dropOSCaches() : "warm"
        let (count, seconds) = try measured {
            let reopened = try openContainer()
            container = reopened
            let context = reopened.newBackgroundContext()
            return try context.performAndWait { try context.count(for: expenseRequest()) }
        }
        try expect(count == dataset.rows.count, "W2 counted \(count) expenses, expected \(dataset.rows.count)")
        reporter.emit("W2_open_count", seconds: seconds, [("count", .integer(count)), ("os_cache", .string(cache))])
    }

    /// W2b: materialise every row as a managed object (values filled), in one context.
    func w2bLoadAll() throws {
        let ((context, expenses, categories), seconds) = try measured {
            let context = stack.newBackgroundContext()
            let (expenses, categories) = try context.performAndWait {
                let expenseRequest = expenseRequest()
                expenseRequest.returnsObjectsAsFaults = false
                let categoryRequest = FetchRequest<Category>(entityName: "Category")
                categoryRequest.returnsObjectsAsFaults = false
                return (try context.fetch(expenseRequest), try context.fetch(categoryRequest))
            }
            return (context, expenses.count, categories.count)
        }
        try expect(expenses == dataset.rows.count && categories == dataset.categories.count,
                   "W2b fetched \(expenses) expenses and \(categories) categories")
        reporter.emit("W2b_load_all", seconds: seconds, [
            ("rows", .integer(expenses)),
            ("note", .string("every row fetched as a managed object with its values (returnsObjectsAsFaults = false)")),
        ])
        release(context)
    }

    /// W3: `amount > 500 AND category.name == 'Food'`, newest first, 100 results.
    func w3Fetch() throws {
        let first: Result<[UUID], any Error>
        var seconds: Double?
        do {
            let (ids, elapsed) = try measured { try w3Once() }
            first = .success(ids)
            seconds = elapsed
        } catch {
            first = .failure(error)
        }
        switch first {
        case .failure(let error):
            reporter.emit("W3_fetch", seconds: nil, [
                ("rows", .integer(0)), ("correct", .bool(false)), ("repeat_median_s", .null),
                ("error", .string("\(error)")),
            ])
        case .success(let ids):
            var repeats: [Double] = []
            for _ in 0..<10 { repeats.append(try Measurement.time { try w3Once() }.1) }
            reporter.emit("W3_fetch", seconds: seconds, [
                ("rows", .integer(ids.count)), ("correct", .bool(ids == dataset.w3Expected)),
                ("repeat_median_s", .number((median(repeats) * 1e6).rounded() / 1e6)),
            ])
        }
    }

    private func w3Once() throws -> [UUID] {
        let context = stack.newBackgroundContext()
        defer { release(context) }
        return try context.performAndWait {
            let request = expenseRequest()
            request.predicate = try FetchPredicate(format: "amount > 500 AND category.name == 'Food'")
            request.sortDescriptors = [FetchSortDescriptor(key: "date", ascending: false)]
            request.fetchLimit = 100
            return try context.fetch(request).compactMap(\.id)
        }
    }

    /// W4: `amount = amount * 1.2` on every expense in the engine's batch form: one
    /// `BatchUpdateRequest`, committed (and, on the file store, synced) as one transaction.
    func w4UpdateAll() throws {
        let context = stack.newBackgroundContext()
        let (count, seconds) = try measured {
            try context.performAndWait {
                let update = BatchUpdateRequest(entityName: "Expense")
                update.propertiesToUpdate = ["amount": try FetchExpression(format: "amount * 1.2")]
                update.resultType = .updatedObjectsCountResultType
                return try context.execute(update).result as? Int ?? 0
            }
        }
        reporter.emit("W4_update_all", seconds: seconds, [
            ("style", .string("batch")),
            ("note", .string("BatchUpdateRequest over \(count) rows, one commit")),
        ])
        release(context)
    }

    /// W4b: the same through managed objects and one save.
    func w4bUpdateObjects() throws {
        let (context, seconds) = try measured { try updateAllThroughObjects() }
        reporter.emit("W4b_update_objects", seconds: seconds, [("note", .string("fetch all, set amount, one save"))])
        release(context)
    }

    private func updateAllThroughObjects() throws -> ManagedObjectContext {
        let context = stack.newBackgroundContext()
        try context.performAndWait {
            for expense in try context.fetch(expenseRequest()) { expense.amount = expense.amount * 1.2 }
            try context.save()
        }
        return context
    }

    /// W5: delete the expenses at even 0-based positions of the dataset, by id, one save.
    func w5DeleteHalf() throws {
        let doomed = dataset.idsToDelete
        let ((context, deleted), seconds) = try measured {
            let context = stack.newBackgroundContext()
            let deleted = try context.performAndWait {
                var deleted = 0
                for expense in try context.fetch(expenseRequest()) {
                    if let id = expense.id, doomed.contains(id) {
                        context.delete(expense)
                        deleted += 1
                    }
                }
                try context.save()
                return deleted
            }
            return (context, deleted)
        }
        release(context)
        let check = stack.newBackgroundContext()
        let remaining = try check.performAndWait { try check.count(for: expenseRequest()) }
        try expect(deleted == doomed.count && remaining == dataset.rows.count - doomed.count,
                   "W5 deleted \(deleted) and left \(remaining) of \(dataset.rows.count)")
        reporter.emit("W5_delete_half", seconds: seconds, [
            ("deleted", .integer(deleted)), ("remaining", .integer(remaining)),
            ("note", .string("fetch all, delete those whose id is at an even position, one save")),
        ])
    }

    /// W6: store size after W5, compaction, size after (the RAM store has neither).
    func w6Compact() throws {
        switch mode {
        case .memory:
            reporter.emit("W6_compact", seconds: nil, [
                ("size_after_w5_bytes", .null), ("size_after_compaction_bytes", .null),
                ("na", .string("the RAM store has no file and no compaction")),
            ])
        case .jsonl:
            guard let store = stack.persistentStoreCoordinator.persistentStores.first as? JSONLinesStore else {
                throw BenchError("jsonl: the container's store is not a JSONLinesStore")
            }
            let before = Measurement.fileSize([storeURL.path])
            let (_, seconds) = try measured { try store.compact() }
            let after = Measurement.fileSize([storeURL.path])
            reporter.emit("W6_compact", seconds: seconds, [
                ("size_after_w5_bytes", .integer(before)), ("size_after_compaction_bytes", .integer(after)),
                ("note", .string("the store file (not its .lock sidecar); compaction = JSONLinesStore.compact()")),
            ])
        }
    }

    // MARK: Helpers

    func expenseRequest() -> FetchRequest<Expense> { FetchRequest<Expense>(entityName: "Expense") }

    /// Resets the peak-RSS mark, then times `body`.
    func measured<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        Measurement.resetPeak()
        return try Measurement.time(body)
    }

    /// Lets a context's objects go (they hold each other through both sides of relationships).
    func release(_ context: ManagedObjectContext) {
        context.performAndWait { context.reset() }
    }

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw BenchError("\(mode.rawValue): \(message())") }
    }
}

/// The median of `values` (the mean of the middle two for an even count); 0 when empty.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
