import Foundation
import ObjectGraph

/// Reads of saved state straight from the store's rows, for whole-ledger scans (reports,
/// ID prefixes, import keys) that would otherwise register a managed object per row.
///
/// They are used only when the root context holds no unsaved changes (always, between the
/// ledger's own calls: every change is saved or rolled back before it returns) and the
/// ledger has its one store; otherwise callers read managed objects, which see unsaved
/// changes. Both give the same answers; the tests compare them.
extension Ledger {
    /// The saved rows of `entityName` matching `predicate`, with the entity; `nil` when the
    /// root context has unsaved changes. Call on the root context's queue.
    func savedRows(
        _ entityName: String, in context: ManagedObjectContext, predicate: FetchPredicate? = nil
    )
        throws -> (rows: [StoreRow], entity: EntityDescription)?
    {
        let stores = container.persistentStoreCoordinator.persistentStores
        guard context === self.context, !context.hasChanges, stores.count == 1,
            let entity = stores[0].model.entitiesByName[entityName]
        else { return nil }
        return (
            try stores[0].fetch(StoreFetchRequest(entity: entity, predicate: predicate)), entity
        )
    }

    /// Every transaction's `id` and object ID, in the store's order.
    func transactionIdentities() throws -> [(id: UUID, objectID: ManagedObjectID)] {
        try read { context in
            if let (rows, entity) = try savedRows("Transaction", in: context),
                let slot = entity.propertiesByName["id"]?.index
            {
                return rows.map { row in
                    guard case .uuid(let id) = row.values[slot].attributeValue else {
                        return (LedgerValues.nilUUID, row.objectID)
                    }
                    return (id, row.objectID)
                }
            }
            return try Self.allTransactions(in: context).map {
                ($0.id ?? LedgerValues.nilUUID, $0.objectID)
            }
        }
    }

    /// The object IDs of the transactions whose IDs start with `prefixes`, in order, each once.
    ///
    /// - Throws: ``LedgerError`` `.unknownTransaction` or `.ambiguousID` for a prefix.
    func resolve(_ prefixes: [String]) throws -> [ManagedObjectID] {
        let all = try transactionIdentities()
        let index = IDPrefixIndex(all.map(\.id))
        var seen = Set<Int>()
        var result: [ManagedObjectID] = []
        for prefix in prefixes {
            let position = try index.match(prefix)
            if seen.insert(position).inserted { result.append(all[position].objectID) }
        }
        return result
    }

    /// The transactions `ids` names, in `context`.
    static func transactions(_ ids: [ManagedObjectID], in context: ManagedObjectContext) throws
        -> [Transaction]
    {
        try ids.map { id in
            guard let transaction = try context.existingObject(with: id) as? Transaction else {
                throw LedgerErrors.unknownID(id.description)
            }
            return transaction
        }
    }
}
