import Foundation
import ObjectGraph

extension DeterministicScheduler {
    /// Runs `body` once per seed, each time on a new scheduler with that seed, so each run
    /// takes another legal order of the queued blocks; stops at the first seed whose run throws.
    ///
    /// ```swift
    /// try DeterministicScheduler.explore(seeds: 0..<200) { scheduler in
    ///     let container = fixtures.makeContainer(scheduler: scheduler)
    ///     let model = ExpenseListModel(container: container)
    ///     model.addInBackground(amount: 5)
    ///     model.refresh()
    ///     try scheduler.run()
    ///     guard try model.total() == 15 else { throw TotalMismatch() }
    /// }
    /// ```
    ///
    /// The body signals failure by throwing (in Swift Testing, `try #require(…)`): a failed
    /// `#expect` records an issue but does not stop the exploration. Replay a failing seed with
    /// the same body on `DeterministicScheduler(seed: N)`: its steps are the same, step for step.
    ///
    /// Set `OBJECTGRAPH_EXPLORE_SEEDS` to run another range where a test reads it with
    /// ``seeds(default:)``.
    ///
    /// - Parameters:
    ///   - seeds: The seeds to try, in order.
    ///   - start: The virtual clock's first reading in every run. Default 2024-01-01.
    ///   - body: The test; it installs the scheduler it is given and drives it.
    /// - Throws: ``ObjectGraphError/Reason/explorationFailed`` (134060) naming the seed, with
    ///   the body's error under `NSUnderlyingErrorKey` and every step under
    ///   ``DeterministicSchedulerErrorKey/steps``.
    /// - Complexity: one run of `body` per seed until the first failure.
    public static func explore<Seeds: Sequence<UInt64>>(
        seeds: Seeds, start: Date = DeterministicEnvironment.defaultStartDate,
        _ body: (DeterministicScheduler) throws -> Void
    ) throws {
        var tried = 0
        for seed in seeds {
            tried += 1
            let scheduler = DeterministicScheduler(seed: seed, start: start)
            do {
                try body(scheduler)
            } catch {
                throw SchedulerErrors.explorationFailed(scheduler, error, seedsTried: tried)
            }
        }
    }

    /// The seeds an exploration runs: `OBJECTGRAPH_EXPLORE_SEEDS` when set (`N..<M`, `N...M`
    /// or a count `M` meaning `0..<M`), else `defaultSeeds`.
    ///
    /// ```swift
    /// // OBJECTGRAPH_EXPLORE_SEEDS=0..<10000 swift test --filter ExploredConcurrency
    /// try DeterministicScheduler.explore(seeds: DeterministicScheduler.seeds(default: 0..<20)) { … }
    /// ```
    ///
    /// - Precondition: the variable, when set, is one of those forms.
    public static func seeds(default defaultSeeds: Range<UInt64>) -> Range<UInt64> {
        guard let text = ProcessInfo.processInfo.environment["OBJECTGRAPH_EXPLORE_SEEDS"] else {
            return defaultSeeds
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (separator, closed) in [("..<", false), ("...", true)] {
            let parts = trimmed.components(separatedBy: separator)
            if parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]),
                low <= high, !(closed && high == .max)
            {
                return low..<(closed ? high + 1 : high)
            }
        }
        guard let count = UInt64(trimmed) else {
            preconditionFailure(
                "OBJECTGRAPH_EXPLORE_SEEDS=\(text): expected N..<M, N...M or a count")
        }
        return 0..<count
    }
}
