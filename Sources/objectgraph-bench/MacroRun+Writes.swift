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
        reporter.emit(
            "W1_insert", seconds: seconds,
            [
                (
                    "note",
                    .string(mode == .memory ? "RAM store" : "one save, synchronous = full (fsync)")
                )
            ])
        release(context)
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
        try expect(
            count == dataset.rows.count, "W4 updated \(count) rows, expected \(dataset.rows.count)")
        reporter.emit(
            "W4_update_all", seconds: seconds,
            [
                ("style", .string("batch")),
                ("note", .string("BatchUpdateRequest over \(count) rows, one commit")),
            ])
        release(context)
    }

    /// W4b: the same through managed objects and one save.
    func w4bUpdateObjects() throws {
        let (context, seconds) = try measured { try updateAllThroughObjects() }
        reporter.emit(
            "W4b_update_objects", seconds: seconds,
            [("note", .string("fetch all, set amount, one save"))])
        release(context)
    }

    private func updateAllThroughObjects() throws -> ManagedObjectContext {
        let context = stack.newBackgroundContext()
        try context.performAndWait {
            for expense in try context.fetch(expenseRequest()) {
                expense.amount = expense.amount * 1.2
            }
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
        try expect(
            deleted == doomed.count && remaining == dataset.rows.count - doomed.count,
            "W5 deleted \(deleted) and left \(remaining) of \(dataset.rows.count)")
        reporter.emit(
            "W5_delete_half", seconds: seconds,
            [
                ("deleted", .integer(deleted)), ("remaining", .integer(remaining)),
                (
                    "note",
                    .string("fetch all, delete those whose id is at an even position, one save")
                ),
            ])
    }
}
