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
    /// The model configuration whose entities the store holds; `nil`, the default, for the
    /// default configuration (every entity of the model).
    ///
    /// The coordinator saves a new object to the first writable store whose configuration has
    /// its entity, unless ``ManagedObjectContext/assign(_:to:)`` chose one; a store is not
    /// refused rows of other entities (Core Data's SQLite store makes tables for the
    /// configuration's entities only, but reading and writing through the coordinator never
    /// sends it others). The name must be one of the model's
    /// ``ManagedObjectModel/configurations`` (or `"Default"`, or
    /// ``PersistentStoreCoordinator/defaultConfigurationName``).
    ///
    /// - Note: Mirrors the `configurationName` parameter of
    ///   `addPersistentStore(ofType:configurationName:at:options:)`.
    public var configurationName: String?
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

    /// Whether the store records persistent history (<doc:PersistentHistory>). Default
    /// `false`.
    ///
    /// A file store that has recorded history and is opened without it opens read-only, as
    /// Core Data forces such a store read-only.
    ///
    /// - Note: Mirrors `NSPersistentHistoryTrackingKey`.
    public var tracksHistory = false

    /// Whether a file written with an earlier model version is migrated when opened. Default
    /// `true`; `false` refuses such a file with 134100.
    ///
    /// - Note: Mirrors `NSMigratePersistentStoresAutomaticallyOption`.
    public var shouldMigrateStoreAutomatically = true
    /// Whether the mapping of that migration is inferred. Default `true`; `false` refuses a
    /// migration no custom stage covers with 134140.
    ///
    /// - Note: Mirrors `NSInferMappingModelAutomaticallyOption`.
    public var shouldInferMappingModelAutomatically = true
    /// Earlier versions of the model, oldest first: a file written with one of them is
    /// migrated through each later one to the model the store is opened with. A file of any
    /// other model is refused with 134100 (forward only). Default none. See
    /// ``ManagedObjectModel/versions(ofModelAt:)`` for an `.xcdatamodeld`'s versions.
    public var modelVersions: [ManagedObjectModel] = []
    /// Stages that take a file of an earlier version to the model (its custom stages run
    /// code); when set, it decides the migration instead of ``modelVersions`` alone.
    ///
    /// - Note: Mirrors `NSPersistentStoreStagedMigrationManagerOptionKey`.
    public var stagedMigrationManager: StagedMigrationManager?
    /// Whether a migration keeps the old file as `FILE.pre-migration`. Default `true`.
    public var keepsPreMigrationFile = true
    /// Told how far a migration at open has got, in rows: `done` of `total`, where each step
    /// migrates every row once and writing the migrated file writes every row once more
    /// (a reader only migrates). Called with `(0, total)` first, after each step, every
    /// ``JSONLinesStore/compactionProgressInterval`` rows written, and with `(total, total)`
    /// at the end, on the opening thread before the store's initializer returns; never
    /// when no migration runs. Default `nil`.
    ///
    /// - Note: Mirrors `NSMigrationManager.migrationProgress`, as counts rather than a
    ///   fraction (`Double(done) / Double(total)` is that fraction).
    public var migrationProgress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    /// Whether the store reports every write to it, so that its coordinator posts
    /// `Notification.Name.NSPersistentStoreRemoteChange` (see <doc:RemoteChange>). Default
    /// `false`.
    ///
    /// - Note: Mirrors `NSPersistentStoreRemoteChangeNotificationPostOptionKey`.
    public var postsRemoteChangeNotifications = false
    /// How a file store that ``postsRemoteChangeNotifications`` notices writes made by other
    /// processes or coordinators. Default ``RemoteChangeDetection/automatic``.
    public var remoteChangeDetection = RemoteChangeDetection.automatic
    /// How often, in seconds, a file store looks at its file when it polls for writes (see
    /// ``RemoteChangeDetection``). Default 0.05 (50 ms); values under 1 ms count as 1 ms.
    public var remoteChangePollingInterval: TimeInterval = 0.05

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

/// How a file store notices writes that another process or coordinator made to its file.
public enum RemoteChangeDetection: String, Sendable, CaseIterable {
    /// The kernel reports changes to the file's directory (Linux `inotify`), so nothing runs
    /// while the file is idle; where that is unavailable (another platform, no inotify
    /// instance or watch left), the store polls instead.
    case automatic
    /// The store looks at the file's identity and length every
    /// ``StoreOptions/remoteChangePollingInterval`` seconds.
    case polling
}
