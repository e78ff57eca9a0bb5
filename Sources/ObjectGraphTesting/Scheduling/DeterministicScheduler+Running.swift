import Foundation
import ObjectGraph

extension DeterministicScheduler {
    /// Runs one queued step (a block of a lane, or a job of a task under ``runTask(maxSteps:_:)``),
    /// chosen by the seed among those that may run now.
    ///
    /// - Returns: `false` when nothing is queued.
    @discardableResult
    public func runOne() -> Bool {
        let choice: Step? = lock.withLock {
            precondition(
                depth == 0, "DeterministicScheduler: runOne()/run() called from inside a step")
            let lanes = readyLanes()
            let count = lanes.count + jobs.count
            guard count > 0 else { return nil }
            let index = random.int(in: 0...count - 1)
            if index < lanes.count { return .lane(lanes[index]) }
            let (job, number) = jobs.remove(at: index - lanes.count)
            history.append("\(history.count + 1). task: job \(number)")
            depth += 1
            return .job(job)
        }
        switch choice {
        case nil: return false
        case .lane(let lane): runStep(on: lane)
        case .job(let job):
            defer { lock.withLock { depth -= 1 } }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
        return true
    }

    /// What ``runOne()`` chose.
    private enum Step {
        case lane(SchedulerLane)
        case job(UnownedJob)
    }

    /// Runs steps until nothing is queued.
    ///
    /// - Parameter maxSteps: The most steps to run. Default 100,000.
    /// - Throws: ``ObjectGraphError/Reason/schedulerStepLimit`` (134060) when steps are still
    ///   queued after `maxSteps` (blocks that keep queueing blocks), with the last steps.
    public func run(maxSteps: Int = 100_000) throws {
        var count = 0
        while !isIdle {
            guard count < maxSteps else {
                throw SchedulerErrors.stepLimit(self, maxSteps, "the scheduler to become idle")
            }
            runOne()
            count += 1
        }
    }

    /// Runs steps until `condition` holds, checking it before each step.
    ///
    /// ```swift
    /// try scheduler.runUntil { model.titles.count == 3 }
    /// ```
    ///
    /// - Parameters:
    ///   - maxSteps: The most steps to run. Default 10,000.
    ///   - condition: Read on the calling thread between steps.
    /// - Throws: ``ObjectGraphError/Reason/schedulerStepLimit`` (134060) when `condition` still
    ///   fails after `maxSteps` steps, or when nothing is left to run and it still fails; the
    ///   message lists the steps run. Rethrows what `condition` throws.
    public func runUntil(maxSteps: Int = 10_000, _ condition: () throws -> Bool) throws {
        var count = 0
        while try !condition() {
            guard count < maxSteps else {
                throw SchedulerErrors.stepLimit(self, maxSteps, "the condition to hold")
            }
            guard runOne() else { throw SchedulerErrors.idle(self, after: count) }
            count += 1
        }
    }
}
