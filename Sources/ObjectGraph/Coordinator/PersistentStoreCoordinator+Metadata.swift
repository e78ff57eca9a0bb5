import Foundation

extension PersistentStoreCoordinator {
    /// The metadata of the store file at `url`, read without opening the store: the
    /// application's keys plus `NSStoreUUIDKey`, `NSStoreTypeKey` and
    /// `NSStoreModelVersionHashesKey` (entity name → `Data`).
    ///
    /// ```swift
    /// let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: "JSONLines", at: url)
    /// let uuid = metadata["NSStoreUUIDKey"] as? String
    /// ```
    ///
    /// - Throws: `.storeInvalidType` (134000) for a type without files (or unknown), or a file
    ///   of another format; `.storeOpen` (134080) when the file cannot be read.
    /// - Note: Mirrors `metadataForPersistentStore(ofType:at:options:)`.
    public static func metadataForPersistentStore(ofType type: String, at url: URL) throws
        -> [String: any Sendable]
    {
        guard type == JSONLinesStore.storeType else {
            throw ObjectGraphError(
                .unknownStoreType, "store: a \(type) store keeps no metadata in a file",
                file: url.path)
        }
        let header = try JSONLinesStore.metadata(at: url)
        return header.metadata.merging(
            [
                "NSStoreUUIDKey": header.storeIdentifier, "NSStoreTypeKey": type,
                "NSStoreModelVersionHashesKey": header.entityVersionHashes,
            ], uniquingKeysWith: { _, ours in ours })
    }

    /// The metadata of an open store: its application keys plus `NSStoreUUIDKey` and
    /// `NSStoreTypeKey`.
    ///
    /// - Note: Mirrors `metadata(for:)`.
    public func metadata(for store: any PersistentStore) -> [String: any Sendable] {
        let own = (try? (store as? JSONLinesStore)?.storeMetadata()) ?? [:]
        return own.merging(
            ["NSStoreUUIDKey": store.identifier, "NSStoreTypeKey": store.type],
            uniquingKeysWith: { _, ours in ours })
    }

    /// Replaces a file store's metadata (the keys `NSStoreUUIDKey`, `NSStoreTypeKey` and
    /// `NSStoreModelVersionHashesKey` are the store's own and are not stored). The file is
    /// rewritten atomically before this returns.
    ///
    /// - Throws: `.coreData` (134060) for a store that keeps no metadata (the RAM store), a
    ///   read-only store, or a value that is not a string, Boolean, number, array or
    ///   dictionary; `.storeOperation` (134070) when writing fails.
    /// - Note: Mirrors `setMetadata(_:for:)`, which Core Data writes at the next save.
    public func setMetadata(_ metadata: [String: any Sendable], for store: any PersistentStore)
        throws
    {
        guard let file = store as? JSONLinesStore else {
            throw ObjectGraphError(
                .invalidMetadata, "store: the \(store.type) store keeps no metadata")
        }
        var own = metadata
        for key in ["NSStoreUUIDKey", "NSStoreTypeKey", "NSStoreModelVersionHashesKey"] {
            own[key] = nil
        }
        try locked { try file.setMetadata(own) }
    }
}
