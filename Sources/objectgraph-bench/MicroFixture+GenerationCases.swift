import Foundation
import ObjectGraph

// Cases on query generations: a pinned context reading while others save.

extension MicroFixture {
    func generationCases() -> [MicroCase] {
        [
            MicroCase(
                name: "fetch.pinned", unit: "rows",
                explains:
                    "fetch.all.faults in a context pinned before another context changed 1% of "
                    + "the expenses (the generation keeps those rows only)"
            ) { [self] in
                let pinned = context()
                try pinned.performAndWait {
                    try pinned.setQueryGenerationFrom(.current)
                    _ = try pinned.count(for: FetchRequest<Expense>(entityName: "Expense"))
                }
                try changeOnePercent(by: 1)
                defer { try? changeOnePercent(by: -1) }
                return try pinned.performAndWait {
                    defer { pinned.reset() }
                    let request = FetchRequest<Expense>(entityName: "Expense")
                    var fetched = 0
                    let (_, seconds) = try timed(0) { fetched = try pinned.fetch(request).count }
                    return (fetched, seconds)
                }
            }
        ]
    }

    /// Adds `delta` to the amount of every hundredth expense, from another context.
    private func changeOnePercent(by delta: Double) throws {
        let writer = context()
        try writer.performAndWait {
            defer { writer.reset() }
            let request = FetchRequest<Expense>(entityName: "Expense")
            for (i, expense) in try writer.fetch(request).enumerated() where i % 100 == 0 {
                expense.amount += delta
            }
            try writer.save()
        }
    }
}
