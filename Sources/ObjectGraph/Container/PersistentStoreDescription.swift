import Foundation

/// How to open one store: where, of which type, with which options.
///
/// ```swift
/// PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))        // RAM store
/// PersistentStoreDescription(url: URL(fileURLWithPath: "expenses.jsonl"))   // file store
/// ```
///
/// - Note: Mirrors `NSPersistentStoreDescription`.
public struct PersistentStoreDescription: Sendable, CustomStringConvertible {
    /// Where the store lives; `/dev/null` means the RAM store, as on Apple platforms.
    public var url: URL?
    /// The store type; `nil` infers it from ``url`` (`/dev/null` or no URL: `"InMemory"`,
    /// anything else: `"JSONLines"`).
    public var type: String?
    /// The model configuration whose entities the store holds (`nil`: all).
    public var configuration: String?
    /// Whether the store is opened read-only. Default `false`.
    public var isReadOnly: Bool = false
    /// Store options: durability, compaction, lock timeout, injected clock and store UUID.
    public var options = StoreOptions()
    /// Whether `loadPersistentStores` opens the store on a background queue. Default `false`.
    public var shouldAddStoreAsynchronously = false
    /// Whether an out-of-date store is migrated when opened. Default `true`.
    public var shouldMigrateStoreAutomatically = true
    /// Whether the mapping for that migration is inferred. Default `true`.
    public var shouldInferMappingModelAutomatically = true

    /// Sets an option by Core Data's key: ``NSPersistentStoreStagedMigrationManagerOptionKey``
    /// takes a ``StagedMigrationManager`` (or `nil` to remove it). Other keys are ignored:
    /// the typed ``options`` hold the rest.
    ///
    /// - Note: Mirrors `setOption(_:forKey:)`.
    public mutating func setOption(_ value: StagedMigrationManager?, forKey key: String) {
        if key == NSPersistentStoreStagedMigrationManagerOptionKey {
            options.stagedMigrationManager = value
        }
    }

    /// A description of the store at `url`.
    public init(url: URL) { self.url = url }

    /// A description of a RAM store.
    public init() { self.url = URL(fileURLWithPath: "/dev/null") }

    /// The type that will be opened.
    public var resolvedType: String {
        if let type { return type }
        guard let url, url.path != "/dev/null" else { return InMemoryStore.storeType }
        return "JSONLines"
    }

    /// The type and URL.
    public var description: String { "\(resolvedType) store at \(url?.path ?? "(none)")" }
}

/// The option key of a store description's ``StagedMigrationManager``.
///
/// - Note: Mirrors `NSPersistentStoreStagedMigrationManagerOptionKey`.
public let NSPersistentStoreStagedMigrationManagerOptionKey =
    "NSPersistentStoreStagedMigrationManagerOptionKey"
