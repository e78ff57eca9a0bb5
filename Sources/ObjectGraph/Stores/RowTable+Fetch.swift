import Foundation

extension RowTable {
    /// The rows matching `request`: filtered by its predicate, sorted, then windowed by
    /// offset and limit. Without sort descriptors rows come in the stable order: entity by
    /// entity (the requested one, then subentities depth first), each in primary-key order.
    ///
    /// - Throws: ``ObjectGraphError`` when the predicate or a sort key does not fit the entity.
    /// - Complexity: O(n) to filter, plus O(m log m) to sort the m matches.
    public func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
        try select(request).map { entityTables[$0.entity].rows[$0.slot]! }
    }

    /// How many rows match `request`, after its offset and limit.
    public func count(_ request: StoreFetchRequest) throws -> Int {
        if request.predicate == nil {
            let entities =
                request.includesSubentities ? request.entity.selfAndDescendants : [request.entity]
            let total = entities.reduce(0) { $0 + entityTables[$1.index].liveCount }
            let afterOffset = max(0, total - request.fetchOffset)
            return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
        }
        var unsorted = request
        unsorted.sortDescriptors = []
        return try select(unsorted).count
    }

    /// Where the rows `request` returns live, in order, windowed by offset and limit.
    ///
    /// Rows are read in place: the predicate runs as a ``RowFilter``; with sort descriptors
    /// the matches' sort keys are read once and, with a limit, only the best offset + limit
    /// are kept (``RowSelection``); rows are copied only for the result.
    func select(_ request: StoreFetchRequest) throws -> [RowRef] {
        let entities =
            request.includesSubentities ? request.entity.selfAndDescendants : [request.entity]
        let predicate = try request.predicate?.compile(for: request.entity)
        let sorts = try request.sortDescriptors.map { try $0.compile(for: request.entity) }
        let reader = RowTableReader(table: self)
        let scanned = entities.reduce(0) { $0 + entityTables[$1.index].liveCount }
        var filter = predicate.map { RowFilter($0, reader: reader, scannedRows: scanned) }
        var candidates: [Int: [Int]]?
        if let predicate, let whole = filter,
            let indexed = indexedCandidates(
                predicate, filter: whole, entities: entities, scannedRows: scanned)
        {
            // The candidates decide one conjunct exactly: test only the others.
            candidates = indexed.slots
            filter = indexed.remaining.map { whole.narrowed(to: $0) }
        }
        let offset = max(0, request.fetchOffset)
        // Offset + limit rows are enough (saturating: huge limits are "all").
        let (sum, overflow) = offset.addingReportingOverflow(request.fetchLimit)
        let enough: Int? = request.fetchLimit > 0 && !overflow ? sum : nil
        guard !sorts.isEmpty else {
            var result: [RowRef] = []
            scan(entities, filter, candidates) { ref, _ in
                result.append(ref)
                return result.count < (enough ?? Int.max)
            }
            return window(result, offset: offset, limit: request.fetchLimit)
        }
        var selection = RowSelection(sorts: sorts, capacity: enough)
        if !selection.isClosed {
            scan(entities, filter, candidates) { ref, row in
                selection.offer(ref) { sort in Self.sortValue(sort, of: row, reader: reader) }
                return true
            }
        }
        return window(selection.ordered(), offset: offset, limit: request.fetchLimit)
    }

    /// Calls `body` with each row of `entities` that passes `filter`, in the stable order
    /// (entity by entity, each in primary-key order), until it returns false. With
    /// `candidates` (slots by entity index, in primary-key order) only those rows are read.
    private func scan(
        _ entities: [EntityDescription], _ filter: RowFilter?, _ candidates: [Int: [Int]]?,
        _ body: (RowRef, RowPointer) -> Bool
    ) {
        // Not `filter?.test ?? { _ in true }`: `??` is generic, and the closure it returned
        // went through two reabstraction thunks on every call (W3's fetch −3.7 %).
        let test: (RowPointer) -> Bool
        if let filter { test = filter.test } else { test = { _ in true } }
        for entity in entities {
            let e = entity.index
            let rows = entityTables[e].rows
            let order: [Int]?
            if let candidates {
                guard let slots = candidates[e] else { continue }
                order = slots
            } else {
                order = entityTables[e].isSorted ? nil : primaryKeyOrder(rows)
            }
            let keepGoing = rows.withUnsafeBufferPointer { buffer -> Bool in
                guard let base = buffer.baseAddress else { return true }
                for i in 0..<(order?.count ?? buffer.count) {
                    let slot = order?[i] ?? i
                    let row = base + slot
                    if case .none = row.pointee { continue }
                    if !test(row) { continue }
                    if !body(RowRef(entity: e, slot: slot), row) { return false }
                }
                return true
            }
            if !keepGoing { return }
        }
    }

    /// The slots of the live rows of an unsorted table, in primary-key order.
    private func primaryKeyOrder(_ rows: [StoreRow?]) -> [Int] {
        var keyed: [(key: Int64, slot: Int)] = []
        keyed.reserveCapacity(rows.count)
        for (slot, row) in rows.enumerated() {
            if let row { keyed.append((row.objectID.primaryKey, slot)) }
        }
        keyed.sort { $0.key < $1.key }
        return keyed.map(\.slot)
    }

    /// The value of a sort key for `row`, following its to-one relationships within the
    /// table (`.null` when one is nil or its destination is missing), as
    /// ``CompiledSortDescriptor/value(of:)`` reads it from a ``RowRecord``.
    private static func sortValue(
        _ sort: CompiledSortDescriptor, of row: RowPointer, reader: RowTableReader
    )
        -> AttributeValue
    {
        guard !sort.relationships.isEmpty else {
            return row.live.pointee.values[sort.slot].attributeValue
        }
        var current = row.pointee!
        for r in sort.relationships {
            guard case .toOne(let id?) = current.values[r], let next = reader.table.row(for: id)
            else { return .null }
            current = next
        }
        return current.values[sort.slot].attributeValue
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
        guard case .toOne(let id?) = row.values[index], let target = reader.table.row(for: id)
        else { return nil }
        return RowRecord(reader: reader, row: target)
    }

    func toManyRecords(at index: Int) -> [RowRecord] {
        guard let relationship = row.objectID.entity.properties[index] as? RelationshipDescription
        else { return [] }
        return reader.table.relatedObjectIDs(relationship, of: row.objectID).compactMap { id in
            reader.table.row(for: id).map { RowRecord(reader: reader, row: $0) }
        }
    }
}
