import Foundation

/// One pinned generation of a ``RowTable``-based store: the live table seen through the
/// before-images of every row changed since.
///
/// Reading a row, or a to-many derived from its inverse, costs what it costs on the live table
/// plus a dictionary look-up (plus a pass over the before-images for a derived to-many). A fetch
/// or count runs on the live table while nothing has changed since; afterwards it runs on a
/// copy-on-write copy of the table with the before-images put back, which duplicates, for that
/// fetch only, the tables of the entities that changed.
final class RowTableGeneration: PersistentStoreGeneration, @unchecked Sendable {
    // Sendable: `before` and `entities` are read and written only while holding the host
    // store's lock (inside `withLiveTable`, or by the store under its lock).
    let host: any RowTableHost
    let storeIdentifier: String
    let number: Int64
    /// Each row changed since this generation, as it was then (`nil`: it did not exist).
    private var before: [ManagedObjectID: StoreRow?] = [:]

    init(host: any RowTableHost, storeIdentifier: String, number: Int64) {
        self.host = host
        self.storeIdentifier = storeIdentifier
        self.number = number
    }

    /// Keeps the before-images of rows not changed since this generation yet. The caller holds
    /// the store's lock.
    func keep(_ images: [ManagedObjectID: StoreRow?]) {
        for (id, row) in images where before.index(forKey: id) == nil { before[id] = row }
    }

    /// How many before-images the generation holds (one per row changed since).
    var keptRows: Int { (try? host.withLiveTable { _ in before.count }) ?? 0 }

    func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
        try host.withLiveTable { try table(from: $0).fetch(request) }
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        try host.withLiveTable { try table(from: $0).count(request) }
    }

    func row(for objectID: ManagedObjectID) throws -> StoreRow? {
        try host.withLiveTable { live in row(objectID, live) }
    }

    func relatedObjectIDs(_ relationship: RelationshipDescription, of objectID: ManagedObjectID)
        throws -> [ManagedObjectID]
    {
        try host.withLiveTable { live in
            if before.isEmpty || relationship.isTransient {
                return live.relatedObjectIDs(relationship, of: objectID)
            }
            if relationship.isStoredInRow {
                switch row(objectID, live)?.values[relationship.index] {
                case .toOne(let id?): return [id]
                case .toMany(let ids): return ids
                default: return []
                }
            }
            guard let inverse = relationship.inverseRelationship, let owner = inverse.entity
            else { return [] }
            // Sources now, less those changed since, plus those that pointed here then.
            var sources = live.relatedObjectIDs(relationship, of: objectID).filter {
                before.index(forKey: $0) == nil
            }
            for case (let id, let row?) in before where Self.isKind(id.entity, of: owner) {
                if case .toOne(let target?) = row.values[inverse.index], target == objectID {
                    sources.append(id)
                }
            }
            sources.sort { $0.primaryKey < $1.primaryKey }
            return sources
        }
    }

    /// The row of `id` at this generation, given the live table.
    private func row(_ id: ManagedObjectID, _ live: RowTable) -> StoreRow? {
        if let kept = before.index(forKey: id) { return before.values[kept] }
        return live.row(for: id)
    }

    /// The table as it was at this generation: `live` itself while nothing changed since.
    private func table(from live: RowTable) -> RowTable {
        guard !before.isEmpty else { return live }
        var old = live
        for (id, row) in before {
            if let row { old.upsert(row) } else { old.remove(id) }
        }
        return old
    }

    private static func isKind(_ entity: EntityDescription, of owner: EntityDescription) -> Bool {
        var current: EntityDescription? = entity
        while let e = current {
            if e === owner { return true }
            current = e.superentity
        }
        return false
    }
}
