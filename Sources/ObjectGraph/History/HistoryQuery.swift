import Foundation

/// Turns a store's history records into the transactions a fetch request asks for: its date
/// bound, its predicate (on transactions or on changes), then sort, offset and limit.
struct HistoryQuery {
    let request: PersistentHistoryChangeRequest
    let storeID: String

    /// The transactions of one store that match the request, in history order.
    ///
    /// - Throws: The predicate's compile errors (134060) naming the history entity and key.
    func run(_ records: [StoreHistoryTransaction]) throws -> [PersistentHistoryTransaction] {
        var records = records[...]
        if case .date(let date) = request.bound {
            records = records.filter { $0.timestamp > date }[...]
        }
        let includesChanges = request.resultType != .transactionsOnly
        guard let filter = request.fetchRequest?.historyFetchFilter else {
            return records.map {
                PersistentHistoryTransaction(
                    record: $0, storeID: storeID, includesChanges: includesChanges)
            }
        }
        let onChanges = filter.entityName == HistoryEntities.change.name
        let entity = onChanges ? HistoryEntities.change : HistoryEntities.transaction
        let predicate = try filter.predicate?.compile(for: entity)
        var result: [PersistentHistoryTransaction] = []
        for record in records {
            if !onChanges {
                let matches =
                    predicate?.evaluate(
                        HistoryRecord(transaction: record, storeID: storeID, change: nil))
                    ?? true
                if matches {
                    result.append(
                        PersistentHistoryTransaction(
                            record: record, storeID: storeID, includesChanges: includesChanges))
                }
                continue
            }
            var selected = Array(record.changes.indices)
            if let predicate {
                selected = selected.filter {
                    predicate.evaluate(
                        HistoryRecord(transaction: record, storeID: storeID, change: $0))
                }
            }
            if !selected.isEmpty {
                result.append(
                    PersistentHistoryTransaction(
                        record: record, storeID: storeID, includesChanges: includesChanges,
                        selected: selected))
            }
        }
        return result
    }

    /// Sorts (by the transaction entity's keys), then applies the filter's offset and limit.
    static func window(_ list: [PersistentHistoryTransaction], _ filter: HistoryFetchFilter) throws
        -> [PersistentHistoryTransaction]
    {
        var list = list
        if !filter.sortDescriptors.isEmpty {
            let entity = HistoryEntities.transaction
            let compiled = try filter.sortDescriptors.map { try $0.compile(for: entity) }
            let records = list.map {
                HistoryRecord(transaction: $0.record, storeID: $0.storeID, change: nil)
            }
            let order = records.indices.sorted { a, b in
                for descriptor in compiled {
                    switch descriptor.compare(records[a], records[b]) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return a < b
            }
            list = order.map { list[$0] }
        }
        let start = min(max(filter.fetchOffset, 0), list.count)
        let end = filter.fetchLimit > 0 ? min(list.count, start + filter.fetchLimit) : list.count
        return Array(list[start..<end])
    }

    /// What a fetch's result holds for `type`.
    static func result(_ list: [PersistentHistoryTransaction], _ type: PersistentHistoryResultType)
        -> Any
    {
        switch type {
        case .statusOnly: return true
        case .count: return list.count
        case .transactionsOnly, .transactionsAndChanges: return list
        case .changesOnly: return list.flatMap { $0.changes ?? [] }
        case .objectIDs:
            var seen = Set<ManagedObjectID>()
            var ids: [ManagedObjectID] = []
            for transaction in list {
                for index in transaction.selected ?? Array(transaction.record.changes.indices) {
                    let id = transaction.record.changes[index].objectID
                    if seen.insert(id).inserted { ids.append(id) }
                }
            }
            return ids
        }
    }
}
