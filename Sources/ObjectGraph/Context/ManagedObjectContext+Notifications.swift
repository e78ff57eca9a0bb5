import Foundation

extension ManagedObjectContext {
    /// Posted just before a context saves; `object` is the context; no userInfo.
    ///
    /// - Note: Mirrors `NSManagedObjectContextWillSave`.
    public static let willSaveObjectsNotification = Notification.Name(
        "NSManagedObjectContextWillSaveNotification")
    /// Posted after a context saved; userInfo holds `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`
    /// and `NSDeletedObjectsKey` (sets of objects) and the matching `…ObjectIDsKey` sets of IDs.
    ///
    /// - Note: Mirrors `NSManagedObjectContextDidSave`.
    public static let didSaveObjectsNotification = Notification.Name(
        "NSManagedObjectContextDidSaveNotification")
    /// Posted once per event with every change since the last one; `object` is the context.
    ///
    /// An event ends at the end of each `perform` block, on `processPendingChanges()` (which
    /// `save()` and merges also call), and, for a main-queue context used directly on the main
    /// queue, at the end of the current main-queue turn; `performAndWait` does not end one.
    /// `rollback()`, `reset()` and a child's save into its parent post at once. userInfo
    /// holds sets of objects under `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` (an object
    /// inserted in an earlier event and changed since comes here), `NSDeletedObjectsKey`,
    /// `NSRefreshedObjectsKey` and `NSInvalidatedObjectsKey`, or `NSInvalidatedAllObjectsKey`
    /// after `reset()`. Posted on the context's queue.
    ///
    /// - Note: Mirrors `NSManagedObjectContextObjectsDidChange`.
    public static let didChangeObjectsNotification = Notification.Name(
        "NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted after a save with only object IDs (`NSInsertedObjectIDsKey`, …); safe to read
    /// on any queue.
    ///
    /// - Note: Mirrors `NSManagedObjectContextDidSaveObjectIDs`.
    public static let didSaveObjectIDsNotification = Notification.Name(
        "NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted after a context merged changes, with the merged object IDs.
    ///
    /// - Note: Mirrors `NSManagedObjectContextDidMergeChangesObjectIDs`.
    public static let didMergeChangesObjectIDsNotification =
        Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")

    /// The context's notifications of `name` as an async sequence of their userInfo.
    ///
    /// ```swift
    /// for await info in context.notifications(named: ManagedObjectContext.didSaveObjectIDsNotification) { … }
    /// ```
    ///
    /// Each element holds only object IDs (sets under the `…ObjectIDsKey` keys) so it can
    /// cross queues; objects under the other keys are dropped.
    public func notifications(named name: Notification.Name) -> AsyncStream<
        [String: Set<ManagedObjectID>]
    > {
        AsyncStream { continuation in
            let token = NotificationCenter.default.addObserver(
                forName: name, object: self, queue: nil
            ) { note in
                var ids: [String: Set<ManagedObjectID>] = [:]
                for (key, value) in note.userInfo ?? [:] {
                    if let key = key as? String, let set = value as? Set<ManagedObjectID> {
                        ids[key] = set
                    }
                }
                continuation.yield(ids)
            }
            let box = UncheckedSendable(token)
            continuation.onTermination = { _ in NotificationCenter.default.removeObserver(box.value)
            }
        }
    }
}
