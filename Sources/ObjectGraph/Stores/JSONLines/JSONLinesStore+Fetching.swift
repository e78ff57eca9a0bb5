import Foundation

extension JSONLinesStore {
    /// See ``PersistentStore/fetch(_:)``. A reader first applies what the writer appended.
    ///
    /// - Throws: ``ObjectGraphError`` — `.storeOperationFailed` (134070) when the store is closed or
    ///   the file cannot be read; `.storeCorrupt` (259) when a reader finds a damaged
    ///   new line; a predicate or sort error.
    public func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
        try currentTable().fetch(request)
    }

    /// See ``PersistentStore/count(_:)``.
    public func count(_ request: StoreFetchRequest) throws -> Int {
        try currentTable().count(request)
    }

    /// See ``PersistentStore/row(for:)``.
    public func row(for objectID: ManagedObjectID) throws -> StoreRow? {
        try locked {
            try refreshIfNeeded()
            return table.row(for: objectID)
        }
    }

    /// See ``RowVersionReadingStore/readRowVersions(of:_:)``.
    func readRowVersions(
        of objects: ArraySlice<ManagedObject>, _ body: (Int, Int64?) -> Void
    ) throws {
        try locked {
            try refreshIfNeeded()
            table.readVersions(of: objects, body)
        }
    }

    /// See ``PersistentStore/relatedObjectIDs(_:of:)``.
    public func relatedObjectIDs(
        _ relationship: RelationshipDescription, of objectID: ManagedObjectID
    ) throws
        -> [ManagedObjectID]
    {
        try locked {
            try refreshIfNeeded()
            return table.relatedObjectIDs(relationship, of: objectID)
        }
    }

    /// See ``PersistentStore/allocatePrimaryKeys(for:count:)``. Keys are recorded in the file
    /// with the next save; keys never saved may be handed out again after a reopen.
    public func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        try locked {
            guard file != nil else { throw StoreFileErrors.closed(path) }
            return table.allocatePrimaryKeys(for: entity, count: count)
        }
    }

    /// A copy of every row, in O(1), after applying what a writer appended (for readers).
    ///
    /// - Throws: As ``fetch(_:)``.
    public func snapshot() throws -> RowTable { try currentTable() }

    private func currentTable() throws -> RowTable {
        try locked {
            try refreshIfNeeded()
            return table
        }
    }
}
