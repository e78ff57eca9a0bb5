import Foundation

extension ManagedObjectContext {
    /// Executes a batch request against the coordinator's stores, in one atomic commit per store.
    ///
    /// The context's objects are not updated; merge the returned IDs with
    /// ``mergeChanges(fromRemoteContextSave:into:)``. The commit is recorded with this
    /// context's `transactionAuthor` and `name`.
    ///
    /// - Throws: ``ObjectGraphError`` — `.coreData` (134060) for an unknown entity or key, a
    ///   relationship in `propertiesToUpdate`, IDs of several entities, or a value that does not
    ///   fit its attribute; `.storeSave` (134030) or `.storeSaveConflicts` (134050) from the store.
    /// - Complexity: O(n) in the entity's rows.
    /// - Note: Mirrors `execute(_:)`.
    public func execute(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        checkQueue("execute(_:)")
        guard let coordinator = persistentStoreCoordinator else {
            throw ObjectGraphError(.coreData, "execute: \(self) has no coordinator")
        }
        guard let entity = coordinator.managedObjectModel.entitiesByName[request.entityName] else {
            throw ObjectGraphError(
                .coreData, "execute: the model has no entity named \(request.entityName)",
                entityName: request.entityName)
        }
        let author = transactionAuthor
        let contextName = name
        switch request {
        case let update as BatchUpdateRequest:
            let ids = try coordinator.batchUpdate(
                update, entity: entity, author: author, contextName: contextName)
            return BatchUpdateResult(
                result: Self.batchResult(ids, update.resultType), resultType: update.resultType)
        case let delete as BatchDeleteRequest:
            let ids = try coordinator.batchDelete(
                delete, entity: entity, author: author, contextName: contextName)
            return BatchDeleteResult(
                result: Self.batchResult(ids, delete.resultType), resultType: delete.resultType)
        case let insert as BatchInsertRequest:
            let ids = try coordinator.batchInsert(
                try insert.rows(for: entity), entity: entity, author: author,
                contextName: contextName)
            return BatchInsertResult(
                result: Self.batchResult(ids, insert.resultType), resultType: insert.resultType)
        default:
            throw ObjectGraphError(
                .storeUnsupportedRequestType,
                "execute: \(request) is not a request stores understand")
        }
    }

    private static func batchResult(_ ids: [ManagedObjectID], _ type: BatchResultType) -> Any {
        switch type {
        case .statusOnly: true
        case .objectIDs: ids
        case .count: ids.count
        }
    }
}
