import Foundation
import ObjectGraph

/// Records a context's objects-did-change notifications, from any queue.
// Sendable: `records` is guarded by `lock`; `token` is written once, in init.
final class ChangeRecorder: @unchecked Sendable {
    /// One notification: its object sets by key, and where it was posted.
    struct Record {
        let objects: [String: Set<ManagedObject>]
        let invalidatedAll: Bool
        let onMainQueue: Bool

        /// The IDs of the objects under `key` (`NSInsertedObjectsKey`, …).
        func ids(_ key: String) -> Set<ManagedObjectID> {
            Set((objects[key] ?? []).map(\.objectID))
        }
        /// The objects under `key`.
        func set(_ key: String) -> Set<ManagedObject> { objects[key] ?? [] }
    }

    /// A key the tests' main queue carries, to tell where a notification was posted.
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    private let lock = NSLock()
    private var records: [Record] = []
    private var token: (any NSObjectProtocol)?

    init(_ context: ManagedObjectContext) {
        _ = Self.mainQueueKey
        token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { [weak self] note in
            let info = note.userInfo ?? [:]
            var objects: [String: Set<ManagedObject>] = [:]
            for (key, value) in info {
                if let key = key as? String, let set = value as? Set<ManagedObject> {
                    objects[key] = set
                }
            }
            let record = Record(
                objects: objects, invalidatedAll: info[NSInvalidatedAllObjectsKey] as? Bool == true,
                onMainQueue: DispatchQueue.getSpecific(key: Self.mainQueueKey) == true)
            guard let self else { return }
            self.lock.withLock { self.records.append(record) }
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    /// The notifications recorded so far.
    var all: [Record] { lock.withLock { records } }

    /// Forgets what was recorded.
    func clear() { lock.withLock { records.removeAll() } }
}

/// Waits until the main queue has run every block queued before this call.
@MainActor
func drainMainQueue() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
    }
}
