import Foundation
import ObjectGraph

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a ``DeterministicScheduler`` ran out of steps, or of queued
    /// work, before what it was asked to wait for happened; the message lists the last steps.
    public static let schedulerStepLimit = Self("schedulerStepLimit", code: 134060)
    /// 134060 (`NSCoreDataError`): a test body failed under
    /// ``DeterministicScheduler/explore(seeds:_:)``; the message names the seed that replays it
    /// and lists the steps, the failure is under `NSUnderlyingErrorKey`.
    public static let explorationFailed = Self("explorationFailed", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/schedulerStepLimit`` (134060), for `catch` clauses.
    public static var schedulerStepLimit: Reason { .schedulerStepLimit }
    /// ``Reason/explorationFailed`` (134060), for `catch` clauses.
    public static var explorationFailed: Reason { .explorationFailed }
}

/// The userInfo keys of the scheduler's errors.
public enum DeterministicSchedulerErrorKey {
    /// The seed of the failing run (`UInt64`).
    public static let seed = "DeterministicSchedulerSeed"
    /// Every step of the failing run, one line each (`[String]`).
    public static let steps = "DeterministicSchedulerSteps"
}

/// Error factories of ``DeterministicScheduler``.
enum SchedulerErrors {
    /// Steps shown in a message (the whole list is under ``DeterministicSchedulerErrorKey/steps``).
    static let shownSteps = 60

    static func stepLimit(_ scheduler: DeterministicScheduler, _ limit: Int, _ goal: String)
        -> ObjectGraphError
    {
        failure(
            scheduler, "ran \(limit) steps (the limit) waiting for \(goal); blocks keep queueing")
    }

    static func idle(_ scheduler: DeterministicScheduler, after count: Int) -> ObjectGraphError {
        failure(
            scheduler,
            "nothing left to run after \(count) steps and the condition still fails "
                + "(waiting for work outside the scheduler: a real queue, an actor?)")
    }

    private static func failure(_ scheduler: DeterministicScheduler, _ what: String)
        -> ObjectGraphError
    {
        let steps = scheduler.steps
        return ObjectGraphError(
            .schedulerStepLimit,
            "DeterministicScheduler(seed: \(scheduler.seed)) \(what). \(listing(steps))",
            userInfo: [
                DeterministicSchedulerErrorKey.seed: scheduler.seed,
                DeterministicSchedulerErrorKey.steps: steps,
            ])
    }

    static func explorationFailed(
        _ scheduler: DeterministicScheduler, _ error: any Error, seedsTried: Int
    ) -> ObjectGraphError {
        let steps = scheduler.steps
        return ObjectGraphError(
            .explorationFailed,
            """
            seed \(scheduler.seed) fails (the \(ordinal(seedsTried)) seed tried; replay it with \
            DeterministicScheduler(seed: \(scheduler.seed))): \(error). \(listing(steps))
            """,
            userInfo: [
                NSUnderlyingErrorKey: error as NSError,
                DeterministicSchedulerErrorKey.seed: scheduler.seed,
                DeterministicSchedulerErrorKey.steps: steps,
            ])
    }

    /// The last steps, numbered, for a message.
    static func listing(_ steps: [String]) -> String {
        guard !steps.isEmpty else { return "No step ran." }
        let shown = steps.suffix(shownSteps)
        let head =
            steps.count > shown.count ? "Last \(shown.count) of \(steps.count) steps:" : "Steps:"
        return head + "\n" + shown.joined(separator: "\n")
    }

    private static func ordinal(_ n: Int) -> String {
        let suffix =
            (11...13).contains(n % 100)
            ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10, default: "th"]
        return "\(n)\(suffix)"
    }
}
