import Foundation
import ObjectGraph
import ObjectGraphTesting

// Cases on managed objects in a context: inserting, reading and writing properties.

extension MicroFixture {
    func cases() -> [MicroCase] {
        let groups: [[MicroCase]] = [
            objectCases(), saveCases(), queryCases(), storeCases(), fileCases(),
            compactionCases(), migrationCases(), controllerCases(), queueCases(),
            generationCases(), remoteChangeCases(), fileBatchCases(),
        ]
        return groups.flatMap { $0 }
    }

    func objectCases() -> [MicroCase] {
        let n = count
        return [
            MicroCase(
                name: "context.insert", unit: "objects", explains: "W1: Expense(context:) only"
            ) { [self] in
                try inContext { context in
                    try timed(n) { for _ in 0..<n { _ = Expense(context: context) } }
                }
            },
            MicroCase(
                name: "context.insert+set", unit: "objects",
                explains: "W1: insert, 5 attributes and the category through wrappers"
            ) { [self] in
                try inContext { context in
                    let categories = (0..<20).map { _ in Category(context: context) }
                    var random = SeededRandomNumberGenerator(seed: 7)
                    return try timed(n) {
                        for i in 0..<n {
                            SyntheticExpense.fill(
                                Expense(context: context), index: i, random: &random,
                                category: categories[i % 20])
                        }
                    }
                }
            },
            MicroCase(
                name: "wrapper.read.first", unit: "reads",
                explains: "W4b/W5: first read of 5 attributes on fetched objects (fires each fault)"
            ) { [self] in
                try withFetched { expenses in try timed(5 * n) { readAll(expenses) } }
            },
            MicroCase(
                name: "wrapper.read", unit: "reads",
                explains: "the same reads again (key already resolved)"
            ) { [self] in
                try withFetched { expenses in
                    readAll(expenses)
                    return try timed(5 * n) { readAll(expenses) }
                }
            },
            MicroCase(
                name: "kvc.read", unit: "reads",
                explains: "value(forKey:) for the same 5 attributes (faults already fired)"
            ) { [self] in
                try withFetched { expenses in
                    readAll(expenses)
                    let keys = ["id", "title", "amount", "date", "note"]
                    return try timed(5 * n) {
                        var present = 0
                        for expense in expenses {
                            for key in keys where expense.value(forKey: key) != nil { present += 1 }
                        }
                        blackHole(present)
                    }
                }
            },
            MicroCase(
                name: "wrapper.write.double", unit: "writes",
                explains: "W4b: amount = x (Double) on fetched objects, key already resolved"
            ) { [self] in
                try withFetched { expenses in
                    readAll(expenses)
                    let values = expenses.indices.map { Double($0) + 0.25 }
                    return try timed(n) {
                        for (expense, value) in zip(expenses, values) { expense.amount = value }
                    }
                }
            },
            MicroCase(
                name: "kvc.write.double", unit: "writes",
                explains: "setValue(_:forKey: \"amount\") on the same objects"
            ) { [self] in
                try withFetched { expenses in
                    readAll(expenses)
                    let values = expenses.indices.map { Double($0) + 0.25 }
                    return try timed(n) {
                        for (expense, value) in zip(expenses, values) {
                            expense.setValue(value, forKey: "amount")
                        }
                    }
                }
            },
            MicroCase(
                name: "wrapper.write.decimal", unit: "writes",
                explains: "the same write with a Decimal attribute (Tally.amount)"
            ) { [self] in
                try inContext { context in
                    let tallies = try context.fetch(FetchRequest<Tally>(entityName: "Tally"))
                    blackHole(tallies.reduce(Decimal(0)) { $0 + $1.amount })
                    let values = tallies.indices.map { Decimal($0) / 100 + 1 }
                    return try timed(tallies.count) {
                        for (tally, value) in zip(tallies, values) { tally.amount = value }
                    }
                }
            },
        ]
    }

    // MARK: Helpers shared by the cases

    /// Runs `body` in a fresh context over a copy of the seeded rows, then lets the objects go.
    func inContext(_ body: (ManagedObjectContext) throws -> (Int, Double)) throws -> (
        operations: Int, seconds: Double
    ) {
        let context = self.context()
        return try context.performAndWait {
            defer { context.reset() }
            let (operations, seconds) = try body(context)
            return (operations, seconds)
        }
    }

    /// Runs `body` with every seeded expense fetched (not timed) into a fresh context.
    func withFetched(_ body: ([Expense]) throws -> (Int, Double)) throws -> (
        operations: Int, seconds: Double
    ) {
        try inContext { context in
            try body(try context.fetch(FetchRequest<Expense>(entityName: "Expense")))
        }
    }

    /// Reads five attributes of every expense through the wrappers.
    func readAll(_ expenses: [Expense]) {
        var checksum = 0.0
        for expense in expenses {
            if expense.id != nil { checksum += 1 }
            checksum += Double(expense.title?.utf8.count ?? 0)
            checksum += expense.amount
            checksum += expense.date?.timeIntervalSince1970 ?? 0
            if expense.note != nil { checksum += 1 }
        }
        blackHole(checksum)
    }
}

/// Times `body` and returns it with its operation count.
func timed(_ operations: Int, _ body: () throws -> Void) throws -> (Int, Double) {
    var failure: (any Error)?
    let start = Measurement.now()
    timedRegion {
        do { try body() } catch { failure = error }
    }
    let seconds = Measurement.seconds(since: start)
    if let failure { throw failure }
    return (operations, seconds)
}

/// The timed work of every case runs inside this function, never inlined, so that a profiler
/// can collect the timed regions alone (`valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='*timedRegion*'`).
@inline(never)
func timedRegion(_ body: () -> Void) {
    body()
}

/// Keeps a computed value alive so the optimiser cannot drop the loop that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
