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
    /// Posted when objects change: at the end of `perform`/`performAndWait`, on
    /// `processPendingChanges()`, at save, on merges, refreshes and `reset()`. userInfo holds
    /// inserted, updated, deleted, refreshed and invalidated object sets, or
    /// `NSInvalidatedAllObjectsKey`.
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

    /// Runs delete rules for pending deletions and posts objects-did-change.
    ///
    /// Called at the end of every `perform`/`performAndWait` block and at the start of
    /// `save()` and fetches; call it yourself when using a main-queue context directly.
    ///
    /// - Note: Mirrors `processPendingChanges()`.
    public func processPendingChanges() {
        checkQueue("processPendingChanges()")
        propagateDeletes()
        postObjectsDidChange(invalidatedAll: false)
    }

    func postObjectsDidChange(invalidatedAll: Bool) {
        let changes = unannounced
        unannounced = ChangeAnnouncement()
        var info: [String: Any] = [:]
        if invalidatedAll {
            info[NSInvalidatedAllObjectsKey] = true
        } else {
            guard !changes.isEmpty else { return }
            func put(_ key: String, _ objects: [ManagedObject]) {
                if !objects.isEmpty { info[key] = Set(objects) }
            }
            put(NSInsertedObjectsKey, changes.inserted.filter { $0.managedObjectContext === self })
            put(NSUpdatedObjectsKey, changes.updated)
            put(NSDeletedObjectsKey, changes.deleted)
            put(NSRefreshedObjectsKey, changes.refreshed)
            put(NSInvalidatedObjectsKey, changes.invalidated)
        }
        NotificationCenter.default.post(
            name: Self.didChangeObjectsNotification, object: self, userInfo: info)
    }

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

/// Changes waiting for the next objects-did-change notification.
struct ChangeAnnouncement {
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []
    var refreshed: [ManagedObject] = []
    var invalidated: [ManagedObject] = []

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty
            && invalidated.isEmpty
    }
}
