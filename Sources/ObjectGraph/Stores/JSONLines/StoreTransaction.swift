import Foundation

/// One transaction line of a store file, with the rows it replaced: what an undo needs.
package struct StoreTransaction: Sendable {
    /// The transaction's number in the file.
    package let number: Int64
    /// When it was saved.
    package let timestamp: Date
    /// The saving context's `transactionAuthor`.
    package let author: String?
    /// The saving context's `name`.
    package let contextName: String?
    /// The rows it inserted.
    package let inserted: [StoreRow]
    /// The rows it updated, as it left them.
    package let updated: [StoreRow]
    /// The objects it deleted.
    package let deleted: [ManagedObjectID]
    /// Each updated or deleted row as it was just before.
    package let replaced: [ManagedObjectID: StoreRow]
}

extension JSONLinesStore {
    /// The transactions the file holds after its snapshot (everything since it was created or
    /// last compacted), oldest first, after catching up with other writers.
    ///
    /// - Throws: `.storeOperationFailed` (134070) when closed or unreadable, or when the file
    ///   is of another model version than the store's; `.storeCorrupt` (259).
    /// - Complexity: O(size of the file): it is read and replayed again.
    package func transactionLog() throws -> [StoreTransaction] {
        try locked {
            try refreshIfNeeded()
            guard let file else { throw StoreFileErrors.closed(path) }
            let bytes: [UInt8]
            do {
                bytes = Array(try fileSystem.readToEnd(file.fd).prefix(file.length))
            } catch {
                throw StoreFileErrors.io(.storeOperationFailed, path, "reading the log", error)
            }
            let loaded = try StoreFileLoader.load(
                bytes, path: path, model: model, logsTransactions: true)
            guard loaded.schemaDifferences.isEmpty else {
                throw StoreFileErrors.failed(
                    .storeOperationFailed, path,
                    "holds rows of another model version; its log is not readable as this one")
            }
            return loaded.replay.transactionLog ?? []
        }
    }
}
