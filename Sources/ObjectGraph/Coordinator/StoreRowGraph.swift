import Foundation

/// Saved rows seen with their relationships resolved through the coordinator: what a fetch
/// that reflects the persistent store alone (dictionary results) evaluates key paths over.
///
/// Rows are read once and remembered for the fetch. A store failure while following a
/// relationship is kept in ``failure`` (the evaluator's record protocol cannot throw): the
/// caller checks it after evaluating and throws it.
///
/// - Note: Confined to the fetch that made it.
final class StoreRowGraph {
    let reader: StoreReader?
    private var rows: [ManagedObjectID: StoreRow?] = [:]
    private var related: [RelatedKey: [ManagedObjectID]] = [:]
    /// The first store error met while following a relationship.
    private(set) var failure: (any Error)?

    private struct RelatedKey: Hashable {
        let relationship: ObjectIdentifier
        let objectID: ManagedObjectID
    }

    init(reader: StoreReader?, rows fetched: [StoreRow]) {
        self.reader = reader
        rows.reserveCapacity(fetched.count)
        for row in fetched { rows[row.objectID] = row }
    }

    /// The saved row of `id`, or `nil` when it does not exist.
    func row(_ id: ManagedObjectID) -> StoreRow? {
        if let known = rows[id] { return known }
        var found: StoreRow?
        do { found = try reader?.row(for: id) } catch {
            if failure == nil { failure = error }
        }
        rows[id] = found
        return found
    }

    /// The saved destinations of `relationship` from `row`, in order for ordered ones.
    func destinations(of relationship: RelationshipDescription, from row: StoreRow) -> [StoreRow] {
        switch row.values[relationship.index] {
        case .toMany(let ids): return ids.compactMap(self.row)
        case .toOne(let id): return id.flatMap(self.row).map { [$0] } ?? []
        case .attribute: return []
        case .notStored:
            let key = RelatedKey(
                relationship: ObjectIdentifier(relationship), objectID: row.objectID)
            if let ids = related[key] { return ids.compactMap(self.row) }
            var ids: [ManagedObjectID] = []
            do {
                ids = try reader?.relatedObjectIDs(relationship, of: row.objectID) ?? []
            } catch {
                if failure == nil { failure = error }
            }
            related[key] = ids
            return ids.compactMap(self.row)
        }
    }

    /// A record for `row`, for the predicate evaluator.
    func record(_ row: StoreRow) -> StoreRowRecord { StoreRowRecord(row: row, graph: self) }
}

/// A saved row for the predicate evaluator, its relationships followed through a
/// ``StoreRowGraph``.
struct StoreRowRecord: PredicateRecord {
    let row: StoreRow
    let graph: StoreRowGraph

    var recordEntity: EntityDescription { row.objectID.entity }
    var recordObjectID: ManagedObjectID { row.objectID }
    func attributeValue(at index: Int) -> AttributeValue { row.values[index].attributeValue }

    func toOneObjectID(at index: Int) -> ManagedObjectID? {
        if case .toOne(let id) = row.values[index] { return id }
        return nil
    }

    func toOneRecord(at index: Int) -> StoreRowRecord? {
        toOneObjectID(at: index).flatMap(graph.row).map(graph.record)
    }

    func toManyRecords(at index: Int) -> [StoreRowRecord] {
        guard
            let relationship = row.objectID.entity.properties[index] as? RelationshipDescription
        else { return [] }
        return graph.destinations(of: relationship, from: row).map(graph.record)
    }
}
