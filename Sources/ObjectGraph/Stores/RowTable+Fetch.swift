import Foundation

extension RowTable {
    /// The rows matching `request`: filtered by its predicate, sorted, then windowed by
    /// offset and limit. Without sort descriptors rows come in the stable order: entity by
    /// entity (the requested one, then subentities depth first), each in primary-key order.
    ///
    /// - Throws: ``ObjectGraphError`` when the predicate or a sort key does not fit the entity.
    /// - Complexity: O(n) to filter, plus O(m log m) to sort the m matches.
    public func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
        let matches = try matchingRows(request)
        return window(matches, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    /// How many rows match `request`, after its offset and limit.
    public func count(_ request: StoreFetchRequest) throws -> Int {
        if request.predicate == nil {
            let entities = request.includesSubentities ? request.entity.selfAndDescendants : [request.entity]
            let total = entities.reduce(0) { $0 + entityTables[$1.index].liveCount }
            let afterOffset = max(0, total - request.fetchOffset)
            return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
        }
        var unsorted = request
        unsorted.sortDescriptors = []
        return try fetch(unsorted).count
    }

    private func matchingRows(_ request: StoreFetchRequest) throws -> [StoreRow] {
        let entities = request.includesSubentities ? request.entity.selfAndDescendants : [request.entity]
        let predicate = try request.predicate?.compile(for: request.entity)
        let sorts = try request.sortDescriptors.map { try $0.compile(for: request.entity) }
        let reader = RowTableReader(table: self)
        // Without a sort, stop once offset + limit rows matched (saturating: huge limits are "all").
        let (sum, overflow) = max(0, request.fetchOffset).addingReportingOverflow(request.fetchLimit)
        let enough = sorts.isEmpty && request.fetchLimit > 0 && !overflow ? sum : Int.max
        var result: [StoreRow] = []
        scan: for entity in entities {
            let table = entityTables[entity.index].isSorted ? entityTables[entity.index] : sortedCopy(entity.index)
            for case let row? in table.rows {
                if let predicate, !predicate.evaluate(RowRecord(reader: reader, row: row)) { continue }
                result.append(row)
                if result.count >= enough { break scan }
            }
        }
        guard !sorts.isEmpty else { return result }
        return result.enumerated().sorted { a, b in
            let ra = RowRecord(reader: reader, row: a.element), rb = RowRecord(reader: reader, row: b.element)
            for sort in sorts {
                switch sort.compare(ra, rb) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    private func sortedCopy(_ index: Int) -> EntityTable {
        let rows = entityTables[index].rows.compactMap { $0 }.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        return EntityTable(rows: rows, slotByKey: KeyMap(), isSorted: true, liveCount: rows.count)
    }
}

/// Applies offset then limit (0 = none) to an ordered list.
func window<T>(_ items: [T], offset: Int, limit: Int) -> [T] {
    let start = min(max(0, offset), items.count)
    let end = limit > 0 ? start + min(items.count - start, limit) : items.count
    return start == 0 && end == items.count ? items : Array(items[start..<end])
}

/// A reference to a table, shared by the records of one fetch.
final class RowTableReader: @unchecked Sendable {
    // Sendable: immutable after init; used by one fetch on one thread.
    let table: RowTable
    init(table: RowTable) { self.table = table }
}

/// A store row seen by the predicate evaluator.
struct RowRecord: PredicateRecord {
    let reader: RowTableReader
    let row: StoreRow

    var recordEntity: EntityDescription { row.objectID.entity }
    var recordObjectID: ManagedObjectID { row.objectID }

    func attributeValue(at index: Int) -> AttributeValue {
        if case .attribute(let v) = row.values[index] { return v }
        return .null
    }

    func toOneObjectID(at index: Int) -> ManagedObjectID? {
        if case .toOne(let id) = row.values[index] { return id }
        return nil
    }

    func toOneRecord(at index: Int) -> RowRecord? {
        guard case .toOne(let id?) = row.values[index], let target = reader.table.row(for: id) else { return nil }
        return RowRecord(reader: reader, row: target)
    }

    func toManyRecords(at index: Int) -> [RowRecord] {
        guard let relationship = row.objectID.entity.properties[index] as? RelationshipDescription else { return [] }
        return reader.table.relatedObjectIDs(relationship, of: row.objectID).compactMap { id in
            reader.table.row(for: id).map { RowRecord(reader: reader, row: $0) }
        }
    }
}
