import Foundation
import ObjectGraph

// Helpers the workloads share.

extension MacroRun {
    func expenseRequest() -> FetchRequest<Expense> { FetchRequest<Expense>(entityName: "Expense") }

    /// Resets the peak-RSS mark, then times `body`, run inside `timedRegion` so that a
    /// profiler can collect the workloads' timed regions alone (each workload's closure is
    /// then its own inclusive cost in `callgrind_annotate --inclusive=yes`).
    func measured<T>(_ body: () throws -> T) throws -> (T, Double) {
        Measurement.resetPeak()
        return try Measurement.time {
            var result: Result<T, any Error>?
            timedRegion { result = Result { try body() } }
            return try result.unsafelyUnwrapped.get()
        }
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
