import Foundation

/// Opens a store of one type: the model, the URL (if any) and the options.
public typealias PersistentStoreFactory =
    @Sendable (ManagedObjectModel, URL?, StoreOptions) throws -> any PersistentStore

extension PersistentStoreCoordinator {
    /// Registers a store type under `type`, so descriptions naming it open stores with `factory`.
    ///
    /// ```swift
    /// PersistentStoreCoordinator.registerStoreType("SQLite") { model, url, options in
    ///     try MySQLiteStore(model: model, url: url!, options: options)
    /// }
    /// ```
    ///
    /// - Note: Mirrors `registerStoreClass(_:type:)`.
    public static func registerStoreType(_ type: String, factory: @escaping PersistentStoreFactory)
    {
        StoreTypes.register(type, factory)
    }

    /// The names of the registered store types.
    public static var registeredStoreTypes: [String] { StoreTypes.names }
}

/// The registry of store types; the built-in ones are present from the start.
enum StoreTypes {
    // Sendable: guarded by `lock`.
    nonisolated(unsafe) private static var factories: [String: PersistentStoreFactory] = builtIn
    private static let lock = NSLock()

    private static var builtIn: [String: PersistentStoreFactory] {
        [
            InMemoryStore.storeType: { model, url, options in
                InMemoryStore(model: model, url: url, options: options)
            },
            JSONLinesStore.storeType: { model, url, options in
                guard let url else {
                    throw StoreFileErrors.failed(
                        .storeOpenFailed, "(no URL)",
                        "cannot be opened: a JSON-lines store needs a file URL")
                }
                return try JSONLinesStore(model: model, url: url, options: options)
            },
        ]
    }

    static func register(_ type: String, _ factory: @escaping PersistentStoreFactory) {
        lock.lock()
        defer { lock.unlock() }
        factories[type] = factory
    }

    static func factory(for type: String) -> PersistentStoreFactory? {
        lock.lock()
        defer { lock.unlock() }
        return factories[type]
    }

    static var names: [String] {
        lock.lock()
        defer { lock.unlock() }
        return factories.keys.sorted()
    }
}
