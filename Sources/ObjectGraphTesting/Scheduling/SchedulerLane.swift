import Foundation
import ObjectGraph

/// One serial queue of a ``DeterministicScheduler``: the main lane that main-queue contexts
/// share, or the private lane of one private-queue context.
final class SchedulerLane: ContextLane, @unchecked Sendable {
    // Sendable: `queue` is read and written only while holding the scheduler's lock.
    /// A block waiting on the lane.
    struct Block {
        let number: Int
        let label: String
        let body: @Sendable () -> Void
    }

    let owner: DeterministicScheduler
    let isMain: Bool
    /// `main`, or `private N` in the order lanes were made.
    let name: String
    var queue: [Block] = []

    init(owner: DeterministicScheduler, isMain: Bool, name: String) {
        self.owner = owner
        self.isMain = isMain
        self.name = name
    }

    var scheduler: any ContextScheduler { owner }

    func enqueue(
        _ kind: StaticString, context: ManagedObjectContext?,
        _ block: @escaping @Sendable () -> Void
    ) {
        owner.enqueue(block, on: self, label: label(kind, context))
    }

    func runAfterQueued(_ kind: StaticString, context: ManagedObjectContext?, _ block: () -> Void) {
        owner.runAfterQueued(on: self, label: label(kind, context), block)
    }

    private func label(_ kind: StaticString, _ context: ManagedObjectContext?) -> String {
        let subject = context.map { $0.name.map { "'\($0)'" } ?? "context" } ?? "\(kind)"
        return context == nil ? "\(name): \(subject)" : "\(name): \(kind) of \(subject)"
    }
}

extension DeterministicScheduler: ContextScheduler {
    /// The main lane for `.mainQueue` (made on first use), else a new lane `private N`.
    package func lane(for type: ConcurrencyType) -> any ContextLane {
        lock.withLock {
            if type == .mainQueue {
                if let mainLane { return mainLane }
                let lane = SchedulerLane(owner: self, isMain: true, name: "main")
                mainLane = lane
                return lane
            }
            laneCount += 1
            return SchedulerLane(owner: self, isMain: false, name: "private \(laneCount)")
        }
    }

    /// Queues `body` at the end of `lane`.
    func enqueue(_ body: @escaping @Sendable () -> Void, on lane: SchedulerLane, label: String) {
        lock.withLock {
            sequence += 1
            if lane.queue.isEmpty { ready.append(lane) }
            lane.queue.append(SchedulerLane.Block(number: sequence, label: label, body: body))
        }
    }

    /// `performAndWait` on `lane`: lets other lanes run a seeded number of steps (only when no
    /// lane is busy, as other threads would have before the caller got there), runs the blocks
    /// queued on `lane` by then, in order, then `body` on the calling thread.
    func runAfterQueued(on lane: SchedulerLane, label: String, _ body: () -> Void) {
        let free = lock.withLock { busy.isEmpty }
        if free {
            let extra = lock.withLock { random.int(in: 0...readyLanes().count) }
            for _ in 0..<extra where runLaneStep() {}
        }
        let last = lock.withLock { lane.queue.last?.number ?? 0 }
        while let head = lock.withLock({ lane.queue.first?.number }), head <= last {
            runStep(on: lane)
        }
        lock.withLock {
            guard !busy.contains(ObjectIdentifier(lane)) else {
                deadlock(on: lane, label: label)
            }
            busy.insert(ObjectIdentifier(lane))
            depth += 1
            history.append("\(history.count + 1). \(label) (performAndWait)")
        }
        defer {
            lock.withLock {
                busy.remove(ObjectIdentifier(lane))
                depth -= 1
            }
        }
        body()
    }

    /// Lanes whose next block may run now (queued, and not running one already).
    func readyLanes() -> [SchedulerLane] {
        ready.filter { !busy.contains(ObjectIdentifier($0)) }
    }

    /// Runs one block of a lane chosen by the seed; `false` when no lane may run.
    func runLaneStep() -> Bool {
        let lane: SchedulerLane? = lock.withLock {
            let lanes = readyLanes()
            return lanes.isEmpty ? nil : lanes[random.int(in: 0...lanes.count - 1)]
        }
        guard let lane else { return false }
        runStep(on: lane)
        return true
    }

    /// Runs the first block of `lane` (the caller checked it has one).
    func runStep(on lane: SchedulerLane) {
        let block: SchedulerLane.Block = lock.withLock {
            guard !busy.contains(ObjectIdentifier(lane)) else {
                deadlock(on: lane, label: lane.queue[0].label)
            }
            let block = lane.queue.removeFirst()
            if lane.queue.isEmpty { ready.removeAll { $0 === lane } }
            busy.insert(ObjectIdentifier(lane))
            depth += 1
            history.append("\(history.count + 1). \(block.label)")
            return block
        }
        defer {
            lock.withLock {
                busy.remove(ObjectIdentifier(lane))
                depth -= 1
            }
        }
        block.body()
    }

    /// Stops the process: a wait on a lane whose running block is waiting (a deadlock on real
    /// queues). The caller holds `lock`.
    private func deadlock(on lane: SchedulerLane, label: String) -> Never {
        let trace = history.suffix(40).joined(separator: "\n")
        preconditionFailure(
            """
            DeterministicScheduler(seed: \(seed)): deadlock: \(label) waits for lane '\(lane.name)', \
            whose running block is itself waiting (real queues would hang here). Last steps:
            \(trace)
            """)
    }
}
