import Foundation

extension ManagedObjectContext {
    /// Executes a batch request against the coordinator's stores, in one atomic commit per
    /// store, or a ``PersistentHistoryChangeRequest`` (which returns a
    /// ``PersistentHistoryResult``).
    ///
    /// The context's objects are not updated; merge the returned IDs with
    /// ``mergeChanges(fromRemoteContextSave:into:)``. The commit is recorded with this
    /// context's `transactionAuthor` and `name`.
    ///
    /// - Throws: ``ObjectGraphError`` — ``ObjectGraphError/Reason/unknownEntity``,
    ///   ``ObjectGraphError/Reason/batchInvalidProperty`` (a relationship or unknown key),
    ///   ``ObjectGraphError/Reason/batchInvalidValue``,
    ///   ``ObjectGraphError/Reason/batchMixedEntities`` or
    ///   ``ObjectGraphError/Reason/batchAbstractEntity`` (134060);
    ///   ``ObjectGraphError/Reason/unsupportedRequest`` (134091); the store's errors
    ///   (``ObjectGraphError/Reason/storeWriteFailed`` 134030,
    ///   ``ObjectGraphError/Reason/storeSaveConflict`` 134050, …); for history requests
    ///   ``ObjectGraphError/Reason/historyNotTracked`` (134091),
    ///   ``ObjectGraphError/Reason/historyTokenExpired`` (134301) and
    ///   ``ObjectGraphError/Reason/historyTokenOfAnotherStore`` (134501).
    /// - Complexity: O(n) in the entity's rows.
    /// - Note: Mirrors `execute(_:)`.
    public func execute(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        checkQueue("execute(_:)")
        guard let coordinator = persistentStoreCoordinator else {
            throw FetchErrors.noCoordinator("execute", self)
        }
        if let history = request as? PersistentHistoryChangeRequest {
            return try coordinator.execute(history)
        }
        let entity = try Self.entity(of: request, in: coordinator.managedObjectModel)
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
                contextName: contextName, stores: insert.affectedStoreIdentifiers)
            return BatchInsertResult(
                result: Self.batchResult(ids, insert.resultType), resultType: insert.resultType)
        default:
            throw FetchErrors.unsupported(request)
        }
    }

    /// The entity a request changes: by name, or by class for a batch delete built from a
    /// fetch request that names none.
    private static func entity(of request: PersistentStoreRequest, in model: ManagedObjectModel)
        throws -> EntityDescription
    {
        if let type = (request as? BatchDeleteRequest)?.entityClass {
            switch model.entity(forClass: type) {
            case .success(let entity): return entity
            case .failure(let failure): throw FetchErrors.noEntity(request: "\(request)", failure)
            }
        }
        guard let entity = model.entitiesByName[request.entityName] else {
            throw FetchErrors.unknownEntity("execute", request.entityName)
        }
        return entity
    }

    private static func batchResult(_ ids: [ManagedObjectID], _ type: BatchResultType) -> Any {
        switch type {
        case .statusOnly: true
        case .objectIDs: ids
        case .count: ids.count
        }
    }
}
