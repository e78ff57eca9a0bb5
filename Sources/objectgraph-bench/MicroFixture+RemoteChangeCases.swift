import Foundation
import ObjectGraph

// Remote change: how long after a writer's save returns a reader beside it posts
// `NSPersistentStoreRemoteChange` (the goal: within 100 ms).

extension MicroFixture {
    /// How many saves `remote.latency` times (independent of N: each waits for its
    /// notification).
    static let remoteLatencySaves = 50

    func remoteChangeCases() -> [MicroCase] {
        [
            MicroCase(
                name: "remote.latency", unit: "notifications",
                explains:
                    "a reader's NSPersistentStoreRemoteChange after a writer's save (inotify), "
                    + "from the save starting (its fsync included: a bound of the time from its "
                    + "return); \(Self.remoteLatencySaves) saves of 1 row; per op: the mean"
            ) { [self] in
                try inDirectory { url in try remoteLatency(url) }
            }
        ]
    }

    /// Sums, over ``remoteLatencySaves`` saves, the time from the writer's `commit` starting to
    /// the reader's notification, which bounds the time from the commit returning (the
    /// notification usually comes first: the line is visible before the sync ends); fails
    /// when one takes over 5 s.
    private func remoteLatency(_ url: URL) throws -> (Int, Double) {
        var options = StoreOptions()
        options.automaticCompaction = false
        let writer = try JSONLinesStore(model: model, url: url, options: options)
        defer { writer.close() }
        try writer.commit(try insertChangeSet(store: writer, expenses: 1))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        description.postsRemoteChangeNotifications = true
        try coordinator.addPersistentStore(with: description)
        defer {
            for store in coordinator.persistentStores { try? coordinator.remove(store) }
        }
        let arrivals = ArrivalLog()
        let observer = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil
        ) { _ in arrivals.note() }
        defer { NotificationCenter.default.removeObserver(observer) }
        var total = 0.0
        for n in 1...Self.remoteLatencySaves {
            let changes = try insertChangeSet(store: writer, expenses: 1)
            let started = Measurement.now()
            try writer.commit(changes)
            guard let arrived = arrivals.wait(for: n, seconds: 5) else {
                throw BenchError("remote.latency: save \(n) was not posted within 5 s")
            }
            total += Double(arrived - started) / 1e9
        }
        return (Self.remoteLatencySaves, total)
    }
}

/// When each notification arrived, in order; waited on without sleeping.
private final class ArrivalLog: @unchecked Sendable {
    // Sendable: `times` is guarded by `condition`.
    private let condition = NSCondition()
    private var times: [UInt64] = []

    func note() {
        let now = Measurement.now()
        condition.lock()
        times.append(now)
        condition.broadcast()
        condition.unlock()
    }

    /// The arrival time of the `n`-th notification, waiting up to `seconds` for it.
    func wait(for n: Int, seconds: TimeInterval) -> UInt64? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while times.count < n, condition.wait(until: deadline) {}
        return times.count >= n ? times[n - 1] : nil
    }
}
