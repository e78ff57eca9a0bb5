import Foundation

/// One write to a store, as a store reports it for remote-change notifications.
struct StoreWrite: Sendable, Equatable {
    /// The store's UUID string.
    var storeIdentifier: String
    /// The store's URL, if any.
    var url: URL?
    /// The number of the transaction the write committed (the store's last after it).
    var transaction: Int64
}

/// A store that reports each write made to it, in order: the seam the coordinator posts
/// `Notification.Name.NSPersistentStoreRemoteChange` through.
///
/// ``InMemoryStore`` reports its own commits; ``JSONLinesStore`` also the transactions it
/// brings in from its file (written by another process, or another coordinator of this one).
protocol WriteReportingStore: PersistentStore {
    /// Whether the store was opened to report its writes
    /// (``StoreOptions/postsRemoteChangeNotifications``).
    var postsRemoteChangeNotifications: Bool { get }
    /// Reports every write from now on to `report`, which is called while the store is
    /// locked (so it must only hand the write on, e.g. enqueue it), in transaction order.
    /// Replaces an earlier handler.
    func startReportingWrites(to report: @escaping @Sendable (StoreWrite) -> Void)
    /// Stops reporting (and watching the file). Idempotent.
    func stopReportingWrites()
}

/// Where a store's writes are reported, and how far: kept by the store under its own lock.
struct WriteReporting {
    /// Receives each write.
    var report: @Sendable (StoreWrite) -> Void
    /// The last transaction reported.
    var reported: Int64

    /// Reports the transactions after ``reported`` up to `last`, one write each; when `last`
    /// went back (a file repaired to an earlier end), one write for `last`.
    mutating func advance(to last: Int64, store: String, url: URL?) {
        if last < reported {
            report(StoreWrite(storeIdentifier: store, url: url, transaction: last))
        } else if last > reported {
            for number in (reported + 1)...last {
                report(StoreWrite(storeIdentifier: store, url: url, transaction: number))
            }
        }
        reported = last
    }
}
