import Foundation
import ObjectGraph

// Cases on the fetched results controller: its first fetch against a plain fetch of the same
// request, and what one change costs it once it holds N objects.

/// A delegate that takes the per-change calls and does nothing with them.
private final class QuietDelegate: FetchedResultsControllerDelegate {
    var calls = 0
    func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) { calls += 1 }
}

extension MicroFixture {
    /// Expenses by date, newest first.
    private func byDate() -> FetchRequest<Expense> {
        let request = FetchRequest<Expense>(entityName: "Expense")
        request.sortDescriptors = [FetchSortDescriptor(key: "date", ascending: false)]
        return request
    }

    /// Expenses by category name, then newest first: the sections' order.
    private func byCategory() -> FetchRequest<Expense> {
        let request = FetchRequest<Expense>(entityName: "Expense")
        request.sortDescriptors = [
            FetchSortDescriptor(key: "category.name", ascending: true),
            FetchSortDescriptor(key: "date", ascending: false),
        ]
        return request
    }

    func controllerCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "frc.fetch.plain", unit: "objects",
                explains: "the request frc.performFetch runs, as a plain fetch of N expenses"
            ) { [self] in
                try inContext { context in
                    try timed(n) { blackHole(try context.fetch(byDate()).count) }
                }
            },
            MicroCase(
                name: "frc.performFetch", unit: "objects",
                explains: "a controller's first fetch of N expenses (goal: ≤ 1.2× frc.fetch.plain)"
            ) { [self] in
                try firstFetch(byDate(), sectionNameKeyPath: nil, withDelegate: false)
            },
            MicroCase(
                name: "frc.performFetch.delegate", unit: "objects",
                explains:
                    "a controller's first fetch of N expenses with a no-op delegate set first "
                    + "(goal: ≤ 1.2× frc.fetch.plain)"
            ) { [self] in
                try firstFetch(byDate(), sectionNameKeyPath: nil, withDelegate: true)
            },
            MicroCase(
                name: "frc.fetch.plain.sectioned", unit: "objects",
                explains: "the request frc.performFetch.sectioned runs, as a plain fetch"
            ) { [self] in
                try inContext { context in
                    try timed(n) { blackHole(try context.fetch(byCategory()).count) }
                }
            },
            MicroCase(
                name: "frc.performFetch.sectioned", unit: "objects",
                explains:
                    "a controller's first fetch of N expenses in sections by category.name, "
                    + "with a delegate (goal: ≤ 1.2× frc.fetch.plain.sectioned)"
            ) { [self] in
                try firstFetch(
                    byCategory(), sectionNameKeyPath: "category.name", withDelegate: true)
            },
            changeCase("frc.insert", "insert one expense, end the event (goal: ≤ 1 ms)") {
                context, _, i in
                let expense = Expense(context: context)
                expense.date = Date(timeIntervalSinceReferenceDate: Double(i * 7919 % 100_000))
            },
            changeCase("frc.update", "edit a non-sort attribute, end the event (goal: ≤ 1 ms)") {
                _, objects, i in
                objects[(i * 7919) % objects.count].note = "edited \(i)"
            },
            changeCase("frc.move", "change a sort key, end the event (goal: ≤ 1 ms)") {
                _, objects, i in
                let expense = objects[(i * 7919) % objects.count]
                expense.date = Date(
                    timeIntervalSinceReferenceDate: Double((i * 104_729) % 1_000_000))
            },
        ]
    }

    /// Times a controller's first `performFetch()` of `request` over the N expenses, with a
    /// no-op delegate set first when `withDelegate`.
    private func firstFetch(
        _ request: FetchRequest<Expense>, sectionNameKeyPath: String?, withDelegate: Bool
    ) throws -> (operations: Int, seconds: Double) {
        try inContext { context in
            let controller = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
            let delegate = withDelegate ? QuietDelegate() : nil
            controller.delegate = delegate
            let outcome = try timed(count) { try controller.performFetch() }
            blackHole(delegate?.calls ?? 0)
            return outcome
        }
    }

    /// 100 events of one change each against a controller holding the N expenses; the figure
    /// is per change.
    private func changeCase(
        _ name: String, _ explains: String,
        _ change: @escaping (ManagedObjectContext, [Expense], Int) -> Void
    ) -> MicroCase {
        MicroCase(name: name, unit: "changes", explains: explains) { [self] in
            try inContext { context in
                let controller = FetchedResultsController(
                    fetchRequest: byDate(), managedObjectContext: context,
                    sectionNameKeyPath: nil, cacheName: nil)
                let delegate = QuietDelegate()
                controller.delegate = delegate
                try controller.performFetch()
                let objects = controller.fetchedObjects ?? []
                let events = 100
                let outcome = try timed(events) {
                    for i in 0..<events {
                        change(context, objects, i)
                        context.processPendingChanges()
                    }
                }
                guard delegate.calls == events else {
                    throw BenchError(
                        "\(name): \(delegate.calls) delegate calls for \(events) changes")
                }
                return outcome
            }
        }
    }
}
