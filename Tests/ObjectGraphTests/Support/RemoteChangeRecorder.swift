import Foundation

@testable import ObjectGraph

/// Records a coordinator's `NSPersistentStoreRemoteChange` notifications and waits for them
/// without sleeping: ``wait(for:timeout:)`` blocks on a condition the observer signals.
// Sendable: `records` is guarded by `condition`; `token` is written once, in init.
final class RemoteChangeRecorder: @unchecked Sendable {
    /// One notification: its userInfo, its object, and whether it was posted on the
    /// coordinator's remote-change queue.
    struct Record {
        let storeIdentifier: String?
        let url: URL?
        let historyToken: Any?
        let objectIsCoordinator: Bool
        let onCoordinatorQueue: Bool
    }

    private let condition = NSCondition()
    private var records: [Record] = []
    private var token: (any NSObjectProtocol)?

    init(_ coordinator: PersistentStoreCoordinator) {
        let key = DispatchSpecificKey<Bool>()
        coordinator.remoteChangeQueue.setSpecific(key: key, value: true)
        token = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil
        ) { [weak self, weak coordinator] note in
            let info = note.userInfo ?? [:]
            let record = Record(
                storeIdentifier: info[NSStoreUUIDKey] as? String,
                url: info[NSPersistentStoreURLKey] as? URL,
                historyToken: info[NSPersistentHistoryTokenKey],
                objectIsCoordinator: coordinator != nil && note.object as AnyObject === coordinator,
                onCoordinatorQueue: DispatchQueue.getSpecific(key: key) == true)
            guard let self else { return }
            condition.lock()
            records.append(record)
            condition.broadcast()
            condition.unlock()
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    /// The notifications so far.
    var all: [Record] {
        condition.lock()
        defer { condition.unlock() }
        return records
    }

    /// Waits until `count` notifications arrived (at most `timeout` seconds); returns them.
    @discardableResult
    func wait(for count: Int, timeout: TimeInterval = 10) -> [Record] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while records.count < count, condition.wait(until: deadline) {}
        return records
    }
}
