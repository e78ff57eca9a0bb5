import Foundation

extension PersistentStoreCoordinator {
    func batchUpdate(
        _ request: BatchUpdateRequest, entity: EntityDescription, author: String?,
        contextName: String?
    ) throws -> [ManagedObjectID] {
        var updates: [(attribute: AttributeDescription, value: RowBatchUpdate.Value)] = []
        for (key, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attributesByName[key] else {
                throw BatchErrors.notAnAttribute("update", entity, key)
            }
            if let e = value as? FetchExpression {
                updates.append((attribute, .expression(RowExpression(try e.compile(for: entity)))))
            } else {
                updates.append((attribute, .constant(try? attribute.storedValue(for: value))))
            }
        }
        return try locked {
            let update = RowBatchUpdate(
                entity: entity, predicate: request.predicate,
                includesSubentities: request.includesSubentities, updates: updates,
                author: author, contextName: contextName, timestamp: clock())
            var ids: [ManagedObjectID] = []
            for store in affected(persistentStores, request) {
                if let store = store as? any RowBatchUpdatingStore {
                    ids += try store.batchUpdate(update)
                } else {
                    ids += try batchUpdateByRows(update, in: store)
                }
            }
            return ids
        }
    }

    /// A batch update on a store that does not run one itself: its matching rows fetched,
    /// changed and committed as one change set.
    private func batchUpdateByRows(_ update: RowBatchUpdate, in store: any PersistentStore)
        throws -> [ManagedObjectID]
    {
        let rows = try store.fetch(
            StoreFetchRequest(
                entity: update.entity, predicate: update.predicate,
                includesSubentities: update.includesSubentities))
        var changed: [StoreRow] = []
        changed.reserveCapacity(rows.count)
        for row in rows {
            var new = row
            for attribute in update.updates {
                new.values[attribute.attribute.index] = .attribute(
                    try update.newValue(attribute, for: row))
            }
            new.version = row.version + 1
            changed.append(new)
        }
        var sets = [
            store.identifier: StoreChangeSet(
                updated: changed, author: update.author, contextName: update.contextName,
                timestamp: update.timestamp)
        ]
        try commit(handingOver: &sets)
        return changed.map(\.objectID)
    }

    func batchDelete(
        _ request: BatchDeleteRequest, entity: EntityDescription, author: String?,
        contextName: String?
    ) throws -> [ManagedObjectID] {
        if let ids = request.objectIDs, Set(ids.map { ObjectIdentifier($0.entity) }).count > 1 {
            throw BatchErrors.mixedEntities(entity)
        }
        return try locked {
            var sets: [String: StoreChangeSet] = [:]
            var deleted: [ManagedObjectID] = []
            let now = clock()
            for store in affected(persistentStores, request) {
                let rows: [StoreRow]
                if let ids = request.objectIDs {
                    rows = try ids.filter { $0.storeIdentifier == store.identifier }.compactMap {
                        try store.row(for: $0)
                    }
                } else {
                    rows = try store.fetch(
                        StoreFetchRequest(
                            entity: entity, predicate: request.predicate,
                            includesSubentities: request.includesSubentities))
                }
                sets[store.identifier] = StoreChangeSet(
                    deleted: rows.map { ($0.objectID, $0.version) }, author: author,
                    contextName: contextName, timestamp: now)
                deleted += rows.map(\.objectID)
            }
            try commit(handingOver: &sets)
            return deleted
        }
    }

    func batchInsert(
        _ given: [[Int: AttributeValue]], entity: EntityDescription, author: String?,
        contextName: String?, stores: Set<String>? = nil
    ) throws -> [ManagedObjectID] {
        guard !entity.isAbstract else {
            throw BatchErrors.abstractEntity(entity)
        }
        return try locked {
            let store = try store(for: entity, among: stores)
            let constraint = entity.constraintsInHierarchy.first?.1.compactMap {
                entity.attributesByName[$0]?.index
            }
            var existing: [[AttributeValue]: StoreRow] = [:]
            if let constraint, !constraint.isEmpty {
                for row in try store.fetch(
                    StoreFetchRequest(entity: entity.constraintsInHierarchy.first!.0))
                {
                    existing[constraint.map { row.values[$0].attributeValue }] = row
                }
            }
            var inserted: [ManagedObjectID: StoreRow] = [:]
            var insertOrder: [ManagedObjectID] = []
            var updated: [ManagedObjectID: StoreRow] = [:]
            var updateOrder: [ManagedObjectID] = []
            var result: [ManagedObjectID] = []
            let scope = ObjectIDScope.of(entity, store: store.identifier)
            for values in given {
                let key = constraint.map { c in c.map { values[$0] ?? .null } }
                if let key, !key.contains(where: \.isNull), let match = existing[key] {
                    var row = inserted[match.objectID] ?? updated[match.objectID] ?? match
                    for (slot, v) in values { row.values[slot] = .attribute(v) }
                    if inserted[row.objectID] != nil {
                        inserted[row.objectID] = row
                    } else {
                        if updated[row.objectID] == nil {
                            updateOrder.append(row.objectID)
                            row.version = match.version + 1
                        }
                        updated[row.objectID] = row
                    }
                    existing[key] = row
                    result.append(row.objectID)
                    continue
                }
                let pk = try store.allocatePrimaryKeys(for: entity, count: 1)[0]
                let id = ManagedObjectID(scope: scope, primaryKey: pk)
                let slots: [StoreValue] = entity.layout.kinds.enumerated().map { i, kind in
                    switch kind {
                    case .attribute:
                        .attribute(values[i] ?? entity.layout.defaultAttributeValues[i])
                    case .toOne: .toOne(nil)
                    case .toManyStored: .toMany([])
                    case .transientAttribute, .toManyDerived, .transientToOne, .transientToMany:
                        .notStored
                    }
                }
                let row = StoreRow(objectID: id, version: 1, values: slots)
                inserted[id] = row
                insertOrder.append(id)
                if let key, !key.contains(where: \.isNull) { existing[key] = row }
                result.append(id)
            }
            var sets = [
                store.identifier: StoreChangeSet(
                    inserted: insertOrder.map { inserted[$0]! },
                    updated: updateOrder.map { updated[$0]! },
                    author: author, contextName: contextName, timestamp: clock())
            ]
            try commit(handingOver: &sets)
            return result
        }
    }
}

/// A row seen alone by the expression evaluator: its own attributes, no related rows, as a
/// batch update evaluates its expressions (and as a program checks them before running one).
package struct LoneRowRecord: PredicateRecord {
    /// The row.
    package let row: StoreRow
    /// A record of `row`.
    package init(row: StoreRow) { self.row = row }
    /// The row's entity.
    package var recordEntity: EntityDescription { row.objectID.entity }
    /// The row's object ID.
    package var recordObjectID: ManagedObjectID { row.objectID }
    /// The attribute in slot `index`.
    package func attributeValue(at index: Int) -> AttributeValue {
        row.values[index].attributeValue
    }
    /// Always `nil`: related rows are not seen.
    package func toOneRecord(at index: Int) -> LoneRowRecord? { nil }
    /// Always empty: related rows are not seen.
    package func toManyRecords(at index: Int) -> [LoneRowRecord] { [] }
}

extension PersistentStoreCoordinator {
    /// `stores`, less those `request.affectedStores` leaves out.
    fileprivate func affected(_ stores: [any PersistentStore], _ request: PersistentStoreRequest)
        -> [any PersistentStore]
    {
        guard let only = request.affectedStoreIdentifiers else { return stores }
        return stores.filter { only.contains($0.identifier) }
    }
}
