import Foundation

/// How to open one store: where, of which type, with which options.
///
/// A reference type, as in Core Data: configure the container's own descriptions before
/// loading.
///
/// ```swift
/// let description = container.persistentStoreDescriptions.first!
/// description.url = URL(fileURLWithPath: "/dev/null")                 // the RAM store
/// description.setOption(true as NSNumber, forKey: NSReadOnlyPersistentStoreOption)
/// description.storeOptions.synchronous = .normal                      // ObjectGraph's own
/// ```
///
/// ``storeOptions`` holds the options typed (durability, compaction, lock timeout, injected
/// clock and store UUID); ``options`` and ``setOption(_:forKey:)`` are Core Data's dictionary
/// view of the same settings, keyed by Core Data's constants (see ``setOption(_:forKey:)``).
///
/// - Important: Unlike Core Data's, a description is `Sendable`: every property is read and
///   written under a lock, so a description may be handed to another queue (as
///   `loadPersistentStores` does for ``shouldAddStoreAsynchronously``). A store reads it once,
///   when it is added; later changes do not affect an open store.
/// - Note: Mirrors `NSPersistentStoreDescription`.
public final class PersistentStoreDescription: @unchecked Sendable, CustomStringConvertible {
    // Sendable: every stored property below is read and written only while holding `lock`.
    private let lock = NSLock()
    private var state = State()

    /// The settings, kept together so one lock guards them.
    struct State {
        var url: URL?
        var type: String?
        var configuration: String?
        var storeOptions = StoreOptions()
        var shouldAddStoreAsynchronously = false
        var shouldMigrateStoreAutomatically = true
        var shouldInferMappingModelAutomatically = true
        /// Options set under keys this build does not know (or with values it cannot use).
        var otherOptions: [String: NSObject] = [:]
    }

    /// A description of the store at `url`: `/dev/null` for the RAM store, a file URL for
    /// the JSON-lines store.
    ///
    /// - Note: Mirrors `init(url:)`.
    public init(url: URL) { state.url = url }

    /// A description of a RAM store (its URL is `/dev/null`).
    ///
    /// - Note: Core Data's `init()` leaves the URL unset; set ``url`` to choose a file.
    public init() { state.url = URL(fileURLWithPath: "/dev/null") }

    /// Where the store lives; `/dev/null` means the RAM store, as on Apple platforms.
    ///
    /// - Note: Mirrors `url`.
    public var url: URL? {
        get { locked { $0.url } }
        set { locked { $0.url = newValue } }
    }

    /// The store type that will be opened: the one set, else the one ``url`` implies
    /// (`"InMemory"` for `/dev/null` or no URL, `"JSONLines"` for a file).
    ///
    /// Setting it names a registered type (see
    /// ``PersistentStoreCoordinator/registerStoreType(_:factory:)``); an unknown one fails
    /// loading with ``ObjectGraphError/Reason/unknownStoreType``.
    ///
    /// - Note: Mirrors `type` (whose default is the SQLite type, the file store's place).
    public var type: String {
        get {
            locked { state in
                if let type = state.type { return type }
                guard let url = state.url, url.path != "/dev/null" else {
                    return InMemoryStore.storeType
                }
                return JSONLinesStore.storeType
            }
        }
        set { locked { $0.type = newValue } }
    }

    /// The model configuration whose entities the store holds (`nil`: all).
    ///
    /// New objects are saved to the first writable store whose configuration has their
    /// entity, unless ``ManagedObjectContext/assign(_:to:)`` chose one (<doc:SeveralStores>).
    /// Adding the store throws `.invalidConfiguration` (134060) when the model has no
    /// configuration of this name (`"Default"` and
    /// ``PersistentStoreCoordinator/defaultConfigurationName`` mean every entity).
    ///
    /// - Note: Mirrors `configuration`.
    public var configuration: String? {
        get { locked { $0.configuration } }
        set { locked { $0.configuration = newValue } }
    }

    /// The store's typed options: read-only mode, durability, compaction, lock timeout, clock
    /// and the UUID of a new store.
    public var storeOptions: StoreOptions {
        get { locked { $0.storeOptions } }
        set { locked { $0.storeOptions = newValue } }
    }

    /// Whether the store is opened read-only (``StoreOptions/isReadOnly``). Default `false`.
    ///
    /// - Note: Mirrors `isReadOnly` (`NSReadOnlyPersistentStoreOption`).
    public var isReadOnly: Bool {
        get { locked { $0.storeOptions.isReadOnly } }
        set { locked { $0.storeOptions.isReadOnly = newValue } }
    }

    /// How long, in seconds, opening a file store waits for another process's writer lock
    /// (``StoreOptions/lockTimeout``). Default 0.
    ///
    /// - Note: Mirrors `timeout` (`NSPersistentStoreTimeoutOption`).
    public var timeout: TimeInterval {
        get { locked { $0.storeOptions.lockTimeout } }
        set { locked { $0.storeOptions.lockTimeout = newValue } }
    }

    /// Whether the store records persistent history (``StoreOptions/tracksHistory``), the
    /// typed form of the `NSPersistentHistoryTrackingKey` option. Default `false`.
    ///
    /// - Note: Core Data sets it only as that option:
    ///   `setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)` works here too.
    public var tracksPersistentHistory: Bool {
        get { locked { $0.storeOptions.tracksHistory } }
        set { locked { $0.storeOptions.tracksHistory = newValue } }
    }

    /// Whether `loadPersistentStores` opens the store on a background queue. Default `false`.
    ///
    /// - Note: Mirrors `shouldAddStoreAsynchronously`.
    public var shouldAddStoreAsynchronously: Bool {
        get { locked { $0.shouldAddStoreAsynchronously } }
        set { locked { $0.shouldAddStoreAsynchronously = newValue } }
    }

    /// Whether an out-of-date store is migrated when opened. Default `true`.
    ///
    /// - Note: Mirrors `shouldMigrateStoreAutomatically`
    ///   (`NSMigratePersistentStoresAutomaticallyOption`).
    public var shouldMigrateStoreAutomatically: Bool {
        get { locked { $0.shouldMigrateStoreAutomatically } }
        set { locked { $0.shouldMigrateStoreAutomatically = newValue } }
    }

    /// Whether the mapping of such a migration is inferred. Default `true`.
    ///
    /// - Note: Mirrors `shouldInferMappingModelAutomatically`
    ///   (`NSInferMappingModelAutomaticallyOption`).
    public var shouldInferMappingModelAutomatically: Bool {
        get { locked { $0.shouldInferMappingModelAutomatically } }
        set { locked { $0.shouldInferMappingModelAutomatically = newValue } }
    }

    /// The type and URL, e.g. `"JSONLines store at /tmp/expenses.jsonl"`.
    public var description: String { "\(type) store at \(url?.path ?? "(none)")" }

    /// The settings at this moment, read once under the lock.
    var snapshot: State { locked { $0 } }

    func locked<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// The option key of a store description's ``StagedMigrationManager``.
///
/// - Note: Mirrors `NSPersistentStoreStagedMigrationManagerOptionKey`.
public let NSPersistentStoreStagedMigrationManagerOptionKey =
    "NSPersistentStoreStagedMigrationManagerOptionKey"
