import Foundation
import ObjectGraph

// The workloads that reopen, load, query and compact; see MacroRun+Writes.swift for how
// each uses its context.

extension MacroRun {
    /// W2: reopen the persisted store cold and count the expenses (null for the RAM store).
    func w2OpenCount() throws {
        guard mode == .jsonl else {
            reporter.emit(
                "W2_open_count", seconds: nil, [("na", .string("the RAM store cannot be reopened"))]
            )
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
        try expect(
            count == dataset.rows.count,
            "W2 counted \(count) expenses, expected \(dataset.rows.count)")
        reporter.emit(
            "W2_open_count", seconds: seconds,
            [("count", .integer(count)), ("os_cache", .string(cache))])
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
        try expect(
            expenses == dataset.rows.count && categories == dataset.categories.count,
            "W2b fetched \(expenses) expenses and \(categories) categories")
        reporter.emit(
            "W2b_load_all", seconds: seconds,
            [
                ("rows", .integer(expenses)),
                (
                    "note",
                    .string(
                        "every row fetched as a managed object with its values (returnsObjectsAsFaults = false)"
                    )
                ),
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
            reporter.emit(
                "W3_fetch", seconds: nil,
                [
                    ("rows", .integer(0)), ("correct", .bool(false)), ("repeat_median_s", .null),
                    ("error", .string("\(error)")),
                ])
        case .success(let ids):
            var repeats: [Double] = []
            for _ in 0..<10 { repeats.append(try Measurement.time { try w3Once() }.1) }
            reporter.emit(
                "W3_fetch", seconds: seconds,
                [
                    ("rows", .integer(ids.count)), ("correct", .bool(ids == dataset.w3Expected)),
                    ("repeat_median_s", .double((median(repeats) * 1e6).rounded() / 1e6)),
                ])
        }
    }

    private func w3Once() throws -> [UUID] {
        let context = stack.newBackgroundContext()
        defer { release(context) }
        return try context.performAndWait {
            let request = expenseRequest()
            request.predicate = try FetchPredicate(
                format: "amount > 500 AND category.name == 'Food'")
            request.sortDescriptors = [FetchSortDescriptor(key: "date", ascending: false)]
            request.fetchLimit = 100
            return try context.fetch(request).compactMap(\.id)
        }
    }

    /// W6: store size after W5, compaction, size after (the RAM store has neither).
    func w6Compact() throws {
        switch mode {
        case .memory:
            reporter.emit(
                "W6_compact", seconds: nil,
                [
                    ("size_after_w5_bytes", .null), ("size_after_compaction_bytes", .null),
                    ("na", .string("the RAM store has no file and no compaction")),
                ])
        case .jsonl:
            guard
                let store = stack.persistentStoreCoordinator.persistentStores.first
                    as? JSONLinesStore
            else {
                throw BenchError("jsonl: the container's store is not a JSONLinesStore")
            }
            let before = Measurement.fileSize([storeURL.path])
            let (_, seconds) = try measured { try store.compact() }
            let after = Measurement.fileSize([storeURL.path])
            reporter.emit(
                "W6_compact", seconds: seconds,
                [
                    ("size_after_w5_bytes", .integer(before)),
                    ("size_after_compaction_bytes", .integer(after)),
                    (
                        "note",
                        .string(
                            "the store file (not its .lock sidecar); compaction = JSONLinesStore.compact()"
                        )
                    ),
                ])
        }
    }
}
