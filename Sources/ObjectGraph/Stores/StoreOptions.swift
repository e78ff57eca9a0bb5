import Foundation

/// How a store is opened: shared options, plus the file store's durability and compaction.
///
/// Defaults suit production: a fresh random store UUID, the system clock, full sync,
/// automatic compaction over 1 MiB. Tests inject ``storeIdentifier`` and ``clock`` to get
/// byte-identical files.
///
/// - Note: Core Data passes these as the `options` dictionary of
///   `addPersistentStore(ofType:configurationName:at:options:)`.
public struct StoreOptions: Sendable {
    /// Whether commits are refused (a reader beside a writer). Default `false`.
    public var isReadOnly: Bool = false
    /// The UUID to give a *new* store; `nil` draws a random one. Existing stores keep theirs.
    public var storeIdentifier: String?
    /// The clock for transaction and creation timestamps. Default: the system clock.
    public var clock: @Sendable () -> Date = { Date() }
    /// When a file store's writes reach the disk. Default `.full`.
    public var synchronous: SynchronousMode = .full
    /// Whether a file store compacts itself when over half its bytes are dead. Default `true`.
    public var automaticCompaction: Bool = true
    /// The size in bytes below which a file store never compacts automatically. Default 1 MiB.
    public var compactionMinimumBytes: Int = 1 << 20
    /// How long to wait for another writer's lock before failing, in seconds. Default 0.
    public var lockTimeout: TimeInterval = 0

    /// The defaults.
    public init() {}
}

/// When a file store's appended lines reach the disk, like SQLite's `synchronous` pragma.
public enum SynchronousMode: String, Sendable, CaseIterable {
    /// `fsync` each transaction before `save()` returns, and the directory on create and compaction.
    case full
    /// `fsync` on compaction and close only; a crash may lose the last saves, never corrupt the file.
    case normal
    /// Never `fsync`; the operating system writes when it likes.
    case off
}
