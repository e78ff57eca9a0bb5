import Foundation
import ObjectGraph

// Swift tasks under the scheduler (SE-0417 task executor preference): a task created by
// `runTask` prefers the scheduler as its executor, so its nonisolated code, and every resumption
// after an `await` (the continuation of `context.perform { }` async included), is a job queued
// here and run as a step, in an order the seed chooses.

extension DeterministicScheduler: TaskExecutor {
    /// Queues a job of a task that prefers this scheduler; it runs as a step.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock {
            sequence += 1
            jobs.append((job, sequence))
        }
    }

    /// Runs `body` as a task on the scheduler and drives the scheduler, on the calling thread,
    /// until the task finishes; returns its value.
    ///
    /// The task prefers the scheduler as its executor (SE-0417), so its nonisolated code and
    /// every resumption after an `await` are steps like the contexts' blocks: `try await
    /// context.perform { … }` resumes once the scheduler has run the block. Code isolated to an
    /// actor (the main actor included) runs on that actor's executor, outside the mode; a body
    /// that waits for such code fails with ``ObjectGraphError/Reason/schedulerStepLimit`` when
    /// nothing queued here is left to run.
    ///
    /// ```swift
    /// let names = try scheduler.runTask {
    ///     try await background.perform { try background.fetch(request).map(\.name) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maxSteps: The most steps to run. Default 10,000.
    ///   - body: The task's operation; nonisolated.
    /// - Throws: what `body` throws; ``ObjectGraphError/Reason/schedulerStepLimit`` (134060)
    ///   when the task has not finished after `maxSteps` steps or is waiting for work outside
    ///   the scheduler. Call it from outside any step; blocks the calling thread until done.
    public func runTask<T: Sendable>(
        maxSteps: Int = 10_000, _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let outcome = TaskOutcome<T>()
        let task = Task(executorPreference: self) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.set(result)
        }
        do {
            try runUntil(maxSteps: maxSteps) { outcome.result != nil }
        } catch {
            task.cancel()
            throw error
        }
        return try outcome.result!.get()
    }
}

/// The result of a task `runTask` drives, once it has one.
private final class TaskOutcome<T: Sendable>: @unchecked Sendable {
    // Sendable: `value` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var value: Result<T, any Error>?

    var result: Result<T, any Error>? { lock.withLock { value } }
    func set(_ result: Result<T, any Error>) { lock.withLock { value = result } }
}
