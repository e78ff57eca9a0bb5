import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// The concurrency check keeps trapping wrong-queue access under a deterministic scheduler
/// (each case runs in a child process, which must stop).
@Suite struct SchedulerConcurrencyCheckTests {
    @Test func aBackgroundBlockUsingTheViewContextTraps() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = DeterministicScheduler(seed: 0)
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let view = container.viewContext
            let background = container.newBackgroundContext()
            background.perform { _ = view.hasChanges }
            try scheduler.run()
        }
    }

    /// Even on the real main queue: the block stands for the background queue.
    @Test func aBackgroundBlockRunFromTheMainQueueStillTrapsOnTheViewContext() async {
        await #expect(processExitsWith: .failure) {
            try await Self.touchTheViewContextFromABackgroundBlockOnTheMainQueue()
        }
    }

    @MainActor
    private static func touchTheViewContextFromABackgroundBlockOnTheMainQueue() throws {
        let scheduler = DeterministicScheduler(seed: 0)
        let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
        let view = container.viewContext
        _ = view.hasChanges  // allowed: a test on the main queue stands for the main thread
        let background = container.newBackgroundContext()
        background.perform { _ = view.hasChanges }
        try scheduler.run()
    }

    @Test func theTestUsingAPrivateQueueContextDirectlyTraps() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = DeterministicScheduler(seed: 0)
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            _ = container.newBackgroundContext().hasChanges
        }
    }

    @Test func aBlockOfOneContextUsingAnotherPrivateContextTraps() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = DeterministicScheduler(seed: 0)
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let a = container.newBackgroundContext()
            let b = container.newBackgroundContext()
            a.perform { _ = b.hasChanges }
            try scheduler.run()
        }
    }

    /// A waits for B while B's earlier block waits for A: real queues hang; the scheduler stops.
    @Test func aPerformAndWaitDeadlockStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = DeterministicScheduler(seed: 0)
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let a = container.newBackgroundContext()
            let b = container.newBackgroundContext()
            b.perform { a.performAndWait {} }
            a.perform { b.performAndWait {} }
            while scheduler.runOne() {}
        }
    }

    /// The control for the cases above: the same calls on the right queues run.
    @Test func theSameCallsOnTheRightQueuesRun() throws {
        let scheduler = DeterministicScheduler(seed: 0)
        let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
        let view = container.viewContext
        let a = container.newBackgroundContext()
        let b = container.newBackgroundContext()
        let log = StepLog()
        a.perform { log.append("a \(a.hasChanges)") }
        b.perform { log.append("b \(b.hasChanges)") }
        view.perform { log.append("view \(view.hasChanges)") }
        b.perform { a.performAndWait { log.append("b waits for a") } }
        try scheduler.run()
        #expect(Set(log.all) == ["a false", "b false", "view false", "b waits for a"])
    }
}
