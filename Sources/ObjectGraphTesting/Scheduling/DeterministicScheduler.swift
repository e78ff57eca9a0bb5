import Foundation
import ObjectGraph

/// Runs every queue of a container on one seeded, single-threaded scheduler, with a virtual
/// clock: a failing interleaving of contexts' blocks is replayed exactly from its seed.
///
/// Install it on a container before the container's view context is first used (or ask a
/// ``FixtureProvider`` for a container on it). From then on every context created from the
/// container (the view context, background contexts, their children and drafts) queues its
/// blocks here instead of on Dispatch: `perform`, `performAndWait`, `perform` async (see
/// ``runTask(maxSteps:_:)``), the merges of `automaticallyMergesChangesFromParent`, the end of
/// the main queue's turn for a main-queue context used directly, and the changes that reach a
/// ``FetchedResultsController`` or a change stream through them. Nothing runs until the test
/// drives the scheduler, on its own thread:
///
/// ```swift
/// let scheduler = DeterministicScheduler(seed: 7)
/// let container = fixtures.makeContainer(scheduler: scheduler)
/// let background = container.newBackgroundContext()
/// background.perform { /* insert, save */ }
/// try scheduler.run()                       // until no block is queued
/// #expect(try container.viewContext.performAndWait { try container.viewContext.count(for: request) } == 3)
/// ```
///
/// Only orders the real queues allow occur. Each context's queue is a serial lane: its blocks
/// run one at a time in the order queued (main-queue contexts share the main lane). Which lane
/// runs next is chosen by the seed. `performAndWait` from the test runs after the blocks
/// already queued on its context, as `DispatchQueue.sync` does, on the calling thread; before
/// them the scheduler may let other lanes run a seeded number of steps, as other threads would
/// have while the caller got there. Called from a block already on the context's queue (or lent
/// it by an enclosing `performAndWait`), it runs inline, as Core Data does. A `performAndWait`
/// on a queue that is busy running the block that waits for it, which deadlocks on real queues,
/// stops the process with the step trace.
///
/// The concurrency check keeps trapping wrong-queue access: inside a block of a private lane
/// only that context (and what an enclosing `performAndWait` lent) may be used; main-queue
/// contexts may be used in blocks of the main lane, or directly by a test running on the real
/// main queue (a `@MainActor` test), which stands for the main thread.
///
/// - Important: Drive a scheduler from one thread at a time. `NotificationCenter` observers
///   registered with an `OperationQueue`, `DispatchQueue` blocks of your own and actor-isolated
///   `async` code (the main actor included) stay outside the mode.
/// - Note: No Core Data counterpart (the idea is FoundationDB's deterministic simulation).
public final class DeterministicScheduler: @unchecked Sendable {
    // Sendable: every mutable property is read and written only while holding `lock`; blocks
    // run outside the lock, on the one thread that drives the scheduler.
    /// The seed every choice of the scheduler derives from.
    public let seed: UInt64
    let lock = NSLock()
    var random: SeededRandomNumberGenerator
    /// Lanes with queued blocks, in the order they became ready.
    var ready: [SchedulerLane] = []
    /// Swift jobs of tasks that prefer this scheduler as their executor (``runTask(maxSteps:_:)``).
    var jobs: [(UnownedJob, Int)] = []
    /// Lanes running a block now (one entry per block on the stack).
    var busy: Set<ObjectIdentifier> = []
    /// How many steps are running now (nested through `performAndWait`).
    var depth = 0
    var mainLane: SchedulerLane?
    var laneCount = 0
    var sequence = 0
    var history: [String] = []
    var time: Date

    /// A scheduler whose choices all derive from `seed`, with its virtual clock at `start`.
    ///
    /// - Parameters:
    ///   - seed: Any number; the same seed and the same test give the same order of steps.
    ///   - start: The virtual clock's first reading. Default 2024-01-01T00:00:00Z
    ///     (``DeterministicEnvironment/defaultStartDate``).
    public init(seed: UInt64, start: Date = DeterministicEnvironment.defaultStartDate) {
        self.seed = seed
        self.random = SeededRandomNumberGenerator(seed: seed, stream: "DeterministicScheduler")
        self.time = start
    }

    /// Makes every context created from `container` from now on run on this scheduler, and
    /// its coordinator's clock (save timestamps, history, derived `now()`) read the virtual
    /// clock.
    ///
    /// Install before the container's ``PersistentContainer/viewContext`` is first used: the
    /// view context is created on first use, on the scheduler installed then. Stores already
    /// added keep the clock they were opened with.
    public func install(on container: PersistentContainer) {
        precondition(
            !container.hasViewContext,
            "DeterministicScheduler.install(on:): the container's viewContext already exists; "
                + "install the scheduler before its first use")
        install(on: container.persistentStoreCoordinator)
    }

    /// Makes every context created on `coordinator` from now on run on this scheduler, and the
    /// coordinator's clock read the virtual clock.
    public func install(on coordinator: PersistentStoreCoordinator) {
        coordinator.contextScheduler = self
        coordinator.clock = clock
    }

    // MARK: Virtual clock

    /// The virtual clock's reading; it moves only with ``advance(by:)``.
    public var now: Date { lock.withLock { time } }

    /// The virtual clock as a closure, for `PersistentStoreCoordinator.clock` or
    /// `StoreOptions.clock`.
    public var clock: @Sendable () -> Date { { [self] in now } }

    /// Moves the virtual clock forward by `seconds` (≥ 0), as if that much time passed with
    /// no block queued running.
    public func advance(by seconds: TimeInterval) {
        precondition(seconds >= 0, "DeterministicScheduler.advance(by:): \(seconds) < 0")
        lock.withLock {
            time = time.addingTimeInterval(seconds)
            history.append("clock advanced by \(seconds) s")
        }
    }

    // MARK: Trace

    /// The steps run so far, one line each, oldest first: what ran, on which lane, in what
    /// order (the trace an exploration failure reports).
    public var steps: [String] { lock.withLock { history } }

    /// Whether no block and no job is queued.
    public var isIdle: Bool { lock.withLock { ready.isEmpty && jobs.isEmpty } }
}
