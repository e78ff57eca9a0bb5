import Foundation

// Store file operations: Core Data's `destroyPersistentStore(at:type:options:)`,
// `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`
// and `migratePersistentStore(_:to:options:type:)`, for the RAM store and the file store.
// Every write to a file store goes through `StoreFileWriter`: under the file's writer lock,
// complete or not at all, the lock file left in place.

extension PersistentStoreCoordinator {
    /// Removes the store at `url`: for a file store, its file (and a leftover `FILE.tmp`);
    /// `FILE.lock` stays, as always. A RAM store has no file: nothing to do. A missing file is
    /// not an error.
    ///
    /// The file store's writer lock is taken first: a store open for writing (in this
    /// process or another) is refused, and nothing is removed. Readers that have the file open
    /// keep reading what they read.
    ///
    /// ```swift
    /// try coordinator.destroyPersistentStore(at: url, type: JSONLinesStore.storeType)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The store's file URL.
    ///   - type: ``JSONLinesStore/storeType`` or ``InMemoryStore/storeType``.
    ///   - options: `lockTimeout` (how long to wait for a writer to close) and `synchronous`.
    /// - Throws: ``ObjectGraphError`` — `.storeTimeout` (134090) when a writer has the file
    ///   open; `.storeOpen` (134080) when the path is not a regular file;
    ///   `.storeOperation` (134070) when removing fails; `.storeInvalidType` (134000) for
    ///   another store type.
    /// - Note: Mirrors `destroyPersistentStore(at:type:options:)`.
    public func destroyPersistentStore(
        at url: URL, type: String, options: StoreOptions = StoreOptions()
    ) throws {
        switch type {
        case InMemoryStore.storeType: return
        case JSONLinesStore.storeType: try StoreFileWriter(url: url, options: options).destroy()
        default: throw Self.unsupportedFileOperation("destroy", type, url)
        }
    }

    /// Replaces the store at `destinationURL` with a copy of the store at `sourceURL`,
    /// creating it when missing.
    ///
    /// The source is read as a reader does (a writer may keep saving to it: the copy holds
    /// what it had committed when read). The destination's writer lock is taken first, so a
    /// destination open for writing is refused; then the complete copy is written beside it
    /// and renamed over it: a crash or a failure leaves the old destination (or none) or the
    /// whole copy, never part of one. The copy keeps the source's store identifier (object
    /// IDs and URIs of the source name its objects).
    ///
    /// ```swift
    /// try coordinator.replacePersistentStore(
    ///     at: backupURL, withPersistentStoreFrom: storeURL, type: JSONLinesStore.storeType)
    /// ```
    ///
    /// - Parameters:
    ///   - destinationURL: Where the copy goes.
    ///   - destinationOptions: `lockTimeout`, `synchronous` and `clock` for the destination.
    ///   - sourceURL: The store to copy; it must have been written with this coordinator's
    ///     model.
    ///   - sourceOptions: Options to open the source with (it is opened read-only).
    ///   - type: ``JSONLinesStore/storeType``. A RAM store has no file to copy:
    ///     ``InMemoryStore/storeType`` throws `.storeOperation` (134070).
    /// - Throws: ``ObjectGraphError`` — from opening the source (`.storeOpen` 134080 when it
    ///   is missing, `.storeIncompatibleVersionHash` 134100, `.fileReadCorruptFile` 259);
    ///   `.storeTimeout` (134090) when a writer has the destination open; `.storeOperation`
    ///   (134070) when writing fails; `.storeInvalidType` (134000) for another store type.
    /// - Complexity: O(rows of the source).
    /// - Note: Mirrors
    ///   `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`.
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: StoreOptions = StoreOptions(),
        withPersistentStoreFrom sourceURL: URL, sourceOptions: StoreOptions = StoreOptions(),
        type: String
    ) throws {
        switch type {
        case JSONLinesStore.storeType:
            var readOptions = sourceOptions
            readOptions.isReadOnly = true
            let source = try JSONLinesStore(
                model: managedObjectModel, url: sourceURL, options: readOptions)
            defer { source.close() }
            try StoreFileWriter(url: destinationURL, options: destinationOptions)
                .write(try source.snapshotForCopy(), replacing: true)
        case InMemoryStore.storeType:
            throw ObjectGraphError(
                .storeOperationFailed,
                "replacePersistentStore: an InMemory store has no file to replace or copy "
                    + "(\(destinationURL.path)); use migratePersistentStore to save one to a file",
                file: destinationURL.path)
        default: throw Self.unsupportedFileOperation("replace", type, destinationURL)
        }
    }

    /// Moves `store`'s rows to a new store of `type` at `url`, which takes its place in the
    /// coordinator; the old store is removed (a file store is closed, its file left as it is).
    ///
    /// RAM → file saves a scratch store; file → RAM loads one into memory; file → file copies
    /// it elsewhere. The new store keeps `store`'s identifier, so the objects contexts hold
    /// stay valid. A new file is written complete beside its path and linked into place under
    /// its writer lock; an existing file there is never overwritten (use
    /// ``replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)``
    /// or ``destroyPersistentStore(at:type:options:)`` first). On any failure `store` stays
    /// in the coordinator, unchanged.
    ///
    /// ```swift
    /// let saved = try coordinator.migratePersistentStore(
    ///     scratch, to: url, type: JSONLinesStore.storeType)
    /// ```
    ///
    /// - Parameters:
    ///   - store: A store open in this coordinator (a RAM or file store).
    ///   - url: Where the new store goes (recorded only for a RAM store).
    ///   - options: Options the new store is opened with; without a
    ///     ``StoreOptions/configurationName`` the new store keeps `store`'s configuration.
    ///   - type: ``JSONLinesStore/storeType`` or ``InMemoryStore/storeType``.
    /// - Returns: The new store.
    /// - Throws: ``ObjectGraphError`` — `.storeOperation` (134070) when `store` is not open in
    ///   this coordinator or writing fails; `.storeOpen` (134080) when a file exists at `url`;
    ///   `.storeTimeout` (134090) when a writer holds it; `.storeInvalidType` (134000) for
    ///   another store type; `.invalidConfiguration` (134060) for a configuration the model
    ///   does not have.
    /// - Complexity: O(rows of the store).
    /// - Note: Mirrors `migratePersistentStore(_:to:options:type:)`.
    @discardableResult
    public func migratePersistentStore(
        _ store: any PersistentStore, to url: URL, options: StoreOptions = StoreOptions(),
        type: String
    ) throws -> any PersistentStore {
        // The new store holds the same configuration unless the options name another.
        var options = options
        if options.configurationName == nil,
            store.configurationName != Self.defaultConfigurationName
        {
            options.configurationName = store.configurationName
        }
        if let name = options.configurationName { try checkConfiguration(name, url: url) }
        guard persistentStores.contains(where: { $0 === store }) else {
            throw ObjectGraphError(
                .storeOperationFailed,
                "migratePersistentStore: store \(store.identifier) is not open in this coordinator")
        }
        let source: StoreCopySource
        switch store {
        case let ram as InMemoryStore: source = StoreCopySource(table: ram.snapshot())
        case let file as JSONLinesStore: source = try file.snapshotForCopy()
        default: throw Self.unsupportedFileOperation("migrate", store.type, url)
        }
        let migrated: any PersistentStore
        switch type {
        case InMemoryStore.storeType:
            migrated = try InMemoryStore(
                model: managedObjectModel, table: source.table, url: url, options: options)
        case JSONLinesStore.storeType:
            try StoreFileWriter(url: url, options: options)
                .write(source, replacing: false)
            migrated = try JSONLinesStore(model: managedObjectModel, url: url, options: options)
        default: throw Self.unsupportedFileOperation("migrate", type, url)
        }
        guard exchange(store, for: migrated) else {
            (migrated as? JSONLinesStore)?.close()
            throw ObjectGraphError(
                .storeOperationFailed,
                "migratePersistentStore: store \(store.identifier) was removed meanwhile")
        }
        (store as? any WriteReportingStore)?.stopReportingWrites()
        (store as? JSONLinesStore)?.close()
        startPostingRemoteChanges(for: migrated, asked: options.postsRemoteChangeNotifications)
        return migrated
    }

    private static func unsupportedFileOperation(_ what: String, _ type: String, _ url: URL)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .unknownStoreType,
            "\(what)PersistentStore: store type '\(type)' has no file operations; "
                + "\(JSONLinesStore.storeType) and \(InMemoryStore.storeType) do",
            file: url.path)
    }
}
