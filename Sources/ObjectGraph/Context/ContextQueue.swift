import Foundation

// The queue a context runs its blocks on. In production it is a `DispatchQueue` (the main
// queue, or a private serial queue per context). A test may install a `ContextScheduler` on a
// coordinator (ObjectGraphTesting's `DeterministicScheduler`); every context created on that
// coordinator later, and every child of such a context, then runs its blocks as steps of that
// scheduler instead, on the thread that drives it.

/// Runs the blocks of contexts in place of Dispatch: the hook of ObjectGraphTesting's
/// deterministic test mode. Production code never sets one.
package protocol ContextScheduler: AnyObject, Sendable {
    /// The serial lane a new context runs on: the scheduler's one main lane for `.mainQueue`,
    /// a new lane for `.privateQueue`.
    func lane(for type: ConcurrencyType) -> any ContextLane
}

/// One serial queue of a ``ContextScheduler``: blocks run one at a time, in the order queued.
package protocol ContextLane: AnyObject, Sendable {
    /// The scheduler the lane belongs to (children of its contexts get lanes from it too).
    var scheduler: any ContextScheduler { get }
    /// Whether this is the scheduler's main lane, the one main-queue contexts share.
    var isMain: Bool { get }
    /// Queues `block` behind the lane's queued blocks; `kind` and `context` name the step in
    /// traces.
    func enqueue(
        _ kind: StaticString, context: ManagedObjectContext?,
        _ block: @escaping @Sendable () -> Void)
    /// Runs `block` on the calling thread after the blocks queued on the lane before this call,
    /// as `DispatchQueue.sync` waits behind them; returns when `block` has run.
    func runAfterQueued(_ kind: StaticString, context: ManagedObjectContext?, _ block: () -> Void)
}

/// Where a context's blocks run: a dispatch queue, or a lane of an installed scheduler.
enum ContextQueue: @unchecked Sendable {
    // Sendable: both payloads are Sendable (DispatchQueue, and a Sendable lane); the enum is
    // unchecked only because the existential payload's conformance is not inferred.
    case dispatch(DispatchQueue)
    case lane(any ContextLane)

    /// The queue of a new context of `type`: a lane of `scheduler` when one is installed.
    static func make(
        _ type: ConcurrencyType, scheduler: (any ContextScheduler)?
    ) -> ContextQueue {
        if let scheduler { return .lane(scheduler.lane(for: type)) }
        _ = QueueOwnership.mainQueueKey
        switch type {
        case .mainQueue: return .dispatch(.main)
        case .privateQueue:
            return .dispatch(DispatchQueue(label: "ObjectGraph.ManagedObjectContext"))
        }
    }

    /// The scheduler, when the queue is one of its lanes.
    var scheduler: (any ContextScheduler)? {
        if case .lane(let lane) = self { return lane.scheduler }
        return nil
    }

    /// Queues `block`; `kind` and `context` name the step in a scheduler's trace.
    @inline(__always)
    func async(
        _ kind: StaticString, _ context: ManagedObjectContext?,
        _ block: @escaping @Sendable () -> Void
    ) {
        switch self {
        case .dispatch(let queue): queue.async(execute: block)
        case .lane(let lane): lane.enqueue(kind, context: context, block)
        }
    }

    /// Runs `block` after the blocks already queued and waits for it (`DispatchQueue.sync`).
    @inline(__always)
    func sync(_ kind: StaticString, _ context: ManagedObjectContext?, _ block: () -> Void) {
        switch self {
        case .dispatch(let queue): queue.sync(execute: block)
        case .lane(let lane): lane.runAfterQueued(kind, context: context, block)
        }
    }

    /// The ownership a block starts with on this queue, besides its context: none on a
    /// dispatch queue (the main queue is recognised by its key); on a scheduler's lane, the
    /// mark that hides the real main queue, and the main marker on the main lane.
    var blockOwnership: Set<ObjectIdentifier> {
        switch self {
        case .dispatch: return []
        case .lane(let lane):
            return lane.isMain ? QueueOwnership.scheduledMain : QueueOwnership.scheduledPrivate
        }
    }
}
