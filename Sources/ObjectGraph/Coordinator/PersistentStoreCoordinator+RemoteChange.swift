import Foundation

extension Notification.Name {
    /// Posted by a coordinator after each write to one of its stores opened with
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, this process's own writes
    /// included.
    ///
    /// `object` is the ``PersistentStoreCoordinator``; `userInfo` holds the store's URL under
    /// `NSPersistentStoreURLKey`, its UUID string under `NSStoreUUIDKey` and, when the store
    /// tracks persistent history, the transaction's history token under
    /// `NSPersistentHistoryTokenKey`. Posted on the coordinator's own serial queue
    /// (``PersistentStoreCoordinator/remoteChangeQueueLabel``), in transaction order; move to a
    /// context's queue (`perform`) before touching objects. See <doc:RemoteChange>.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(
    ///     forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil
    /// ) { note in
    ///     context.perform { mergeHistory(after: lastToken) }
    /// }
    /// ```
    ///
    /// - Note: Mirrors `Notification.Name.NSPersistentStoreRemoteChange`.
    public static let NSPersistentStoreRemoteChange = Notification.Name(
        NSPersistentStoreRemoteChangeNotification)
}

/// The name of the remote-change notification, as a string.
///
/// - Note: Mirrors Core Data's constant of the same name.
public let NSPersistentStoreRemoteChangeNotification = "NSPersistentStoreRemoteChangeNotification"
/// Remote-change `userInfo` key: the changed store's `URL`.
///
/// - Note: Mirrors Core Data's constant of the same name.
public let NSPersistentStoreURLKey = "storeURL"
/// Remote-change `userInfo` key: the changed store's UUID `String` (also the key of a store's
/// UUID in its metadata).
///
/// - Note: Mirrors Core Data's constant of the same name.
public let NSStoreUUIDKey = "NSStoreUUIDKey"
/// Remote-change `userInfo` key: the history token of the transaction the write committed
/// (present when the store tracks persistent history).
///
/// - Note: Mirrors Core Data's constant of the same name.
public let NSPersistentHistoryTokenKey = "historyToken"

extension PersistentStoreCoordinator {
    /// The label of the serial queue the coordinator posts `NSPersistentStoreRemoteChange` on.
    public static let remoteChangeQueueLabel = "ObjectGraph.PersistentStoreCoordinator.remoteChange"

    /// Has `store` report its writes, posted as `NSPersistentStoreRemoteChange`, when it was
    /// opened to (`asked`, or its own options say so).
    func startPostingRemoteChanges(for store: any PersistentStore, asked: Bool) {
        guard let store = store as? any WriteReportingStore,
            asked || store.postsRemoteChangeNotifications
        else { return }
        let queue = remoteChangeQueue
        let tracksHistory = store.tracksHistory
        store.startReportingWrites { [weak self] write in
            guard let coordinator = self else { return }
            let post: @Sendable () -> Void = {
                coordinator.postRemoteChange(write, withToken: tracksHistory)
            }
            // Under a deterministic scheduler the post is a step like any block.
            if let lane = coordinator.remoteChangeLane() {
                lane.enqueue("remote change", context: nil, post)
            } else {
                queue.async(execute: post)
            }
        }
    }

    /// Posts one write, with its history token when `withToken`; on ``remoteChangeQueue``.
    private func postRemoteChange(_ write: StoreWrite, withToken: Bool) {
        var info: [AnyHashable: Any] = [NSStoreUUIDKey: write.storeIdentifier]
        if let url = write.url { info[NSPersistentStoreURLKey] = url }
        if withToken {
            info[NSPersistentHistoryTokenKey] = PersistentHistoryToken(
                storeIdentifier: write.storeIdentifier, transactionNumber: write.transaction)
        }
        NotificationCenter.default.post(
            name: .NSPersistentStoreRemoteChange, object: self, userInfo: info)
    }
}
