import Foundation

/// The rows of one store, held in memory: the engine that both built-in stores share.
///
/// `InMemoryStore` is a `RowTable` behind a lock; `JSONLinesStore` is a `RowTable` rebuilt
/// from its log and kept in step with every append. A `RowTable` is a value: copying it is
/// O(number of entities) and later changes copy only what they touch, which is how a
/// fixture provider hands every test its own world.
///
/// Rows of each entity are kept in primary-key order, which is the stable order of fetches
/// without sort descriptors. Derived to-many relationships (those whose inverse is a
/// to-one) are answered from a reverse index kept up to date on every change.
///
/// - Note: Plays the part of Core Data's row cache and in-memory store.
public struct RowTable: Sendable {
    /// The model whose entities the table holds.
    public let model: ManagedObjectModel
    /// The store identifier written into permanent IDs.
    public let storeIdentifier: String
    var entityTables: [EntityTable]
    /// Next free primary key per root entity (by entity index).
    var nextPrimaryKey: [Int64]
    /// Reverse index for to-one relationships whose inverse is a derived to-many:
    /// to-one's (entity index, slot) → target primary key → sources.
    var reverse: [SlotKey: ReverseIndex]
    /// For each entity, the to-one slots (own and inherited) that feed `reverse`.
    let indexedSlots: [[(key: SlotKey, slot: Int)]]

    struct SlotKey: Hashable, Sendable {
        let entity: Int
        let slot: Int
    }

    struct EntityTable: Sendable {
        var rows: [StoreRow?] = []
        var slotByKey = KeyMap()
        var isSorted = true
        var liveCount = 0
    }

    /// An empty table for `model`.
    public init(model: ManagedObjectModel, storeIdentifier: String) {
        self.model = model
        self.storeIdentifier = storeIdentifier
        self.entityTables = Array(repeating: EntityTable(), count: model.entities.count)
        self.nextPrimaryKey = Array(repeating: 1, count: model.entities.count)
        var reverse: [SlotKey: ReverseIndex] = [:]
        for entity in model.entities {
            for case let r as RelationshipDescription in entity.ownProperties where r.isToMany && !r.isStoredInRow {
                guard let inverse = r.inverseRelationship, let owner = inverse.entity else { continue }
                reverse[SlotKey(entity: owner.index, slot: inverse.index)] = ReverseIndex()
            }
        }
        self.reverse = reverse
        self.indexedSlots = model.entities.map { entity in
            var slots: [(key: SlotKey, slot: Int)] = []
            var current: EntityDescription? = entity
            while let owner = current {
                for case let r as RelationshipDescription in owner.ownProperties where !r.isToMany {
                    let key = SlotKey(entity: owner.index, slot: r.index)
                    if reverse[key] != nil { slots.append((key, r.index)) }
                }
                current = owner.superentity
            }
            return slots
        }
    }

    // MARK: Reading

    /// The number of live rows of `entity` alone (not its subentities).
    public func rowCount(of entity: EntityDescription) -> Int { entityTables[entity.index].liveCount }

    /// The total number of live rows.
    public var totalRowCount: Int { entityTables.reduce(0) { $0 + $1.liveCount } }

    /// The row of `objectID`, or `nil`.
    public func row(for objectID: ManagedObjectID) -> StoreRow? {
        guard objectID.storeIdentifier == storeIdentifier,
              let slot = entityTables[objectID.entity.index].slotByKey[objectID.primaryKey] else { return nil }
        return entityTables[objectID.entity.index].rows[slot]
    }

    /// Every live row of `entity` alone, in primary-key order.
    public func rows(of entity: EntityDescription) -> [StoreRow] {
        sortedTable(entity.index).rows.compactMap { $0 }
    }

    /// The sources whose to-one `inverse` points at `target`, in primary-key order.
    func sources(of inverse: RelationshipDescription, pointingAt target: ManagedObjectID) -> [ManagedObjectID]? {
        guard let owner = inverse.entity,
              let index = reverse[SlotKey(entity: owner.index, slot: inverse.index)] else { return nil }
        return index[target.primaryKey]
    }

    /// The destinations of `relationship` from `objectID`: stored in the row, or derived.
    public func relatedObjectIDs(_ relationship: RelationshipDescription, of objectID: ManagedObjectID)
        -> [ManagedObjectID]
    {
        if relationship.isStoredInRow {
            switch row(for: objectID)?.values[relationship.index] {
            case .toOne(let id?): return [id]
            case .toMany(let ids): return ids
            default: return []
            }
        }
        guard let inverse = relationship.inverseRelationship else { return [] }
        return sources(of: inverse, pointingAt: objectID) ?? []
    }

    private func sortedTable(_ index: Int) -> EntityTable {
        let table = entityTables[index]
        guard !table.isSorted else { return table }
        var sorted = EntityTable()
        for row in table.rows.compactMap({ $0 }).sorted(by: { $0.objectID.primaryKey < $1.objectID.primaryKey }) {
            sorted.slotByKey[row.objectID.primaryKey] = sorted.rows.count
            sorted.rows.append(row)
        }
        sorted.liveCount = sorted.rows.count
        return sorted
    }

    // MARK: Writing

    /// Reserves `count` primary keys for `entity`'s hierarchy.
    public mutating func allocatePrimaryKeys(for entity: EntityDescription, count: Int) -> [Int64] {
        let root = entity.rootEntity.index
        let first = nextPrimaryKey[root]
        nextPrimaryKey[root] += Int64(count)
        return (0..<Int64(count)).map { first + $0 }
    }

    /// The next primary key of each root entity, by entity name (for snapshots).
    public var primaryKeyCounters: [String: Int64] {
        Dictionary(uniqueKeysWithValues: model.entities.filter { $0.superentity == nil }
            .map { ($0.name, nextPrimaryKey[$0.index]) })
    }

    /// Raises the next primary key of `entity`'s hierarchy to at least `next`.
    public mutating func reservePrimaryKeys(for entity: EntityDescription, upTo next: Int64) {
        let root = entity.rootEntity.index
        nextPrimaryKey[root] = max(nextPrimaryKey[root], next)
    }

    /// Checks a change set against the current rows without changing anything.
    ///
    /// - Throws: ``ObjectGraphError`` `.storeSaveConflicts` (134050) naming the first row
    ///   whose version differs or that exists already / no longer exists.
    public func check(_ changes: StoreChangeSet) throws {
        for row in changes.inserted {
            try checkShape(row)
            if self.row(for: row.objectID) != nil { throw StoreErrors.conflict(row.objectID, "already exists") }
        }
        for row in changes.updated {
            try checkShape(row)
            guard let current = self.row(for: row.objectID) else {
                throw StoreErrors.conflict(row.objectID, "was deleted by another save")
            }
            guard current.version == row.version - 1 else {
                throw StoreErrors.conflict(row.objectID, "is at version \(current.version), not \(row.version - 1)")
            }
        }
        for (id, version) in changes.deleted {
            guard let current = self.row(for: id) else {
                throw StoreErrors.conflict(id, "was deleted by another save")
            }
            guard current.version == version else {
                throw StoreErrors.conflict(id, "is at version \(current.version), not \(version)")
            }
        }
    }

    private func checkShape(_ row: StoreRow) throws {
        guard row.objectID.storeIdentifier == storeIdentifier,
              row.objectID.entity.managedObjectModel === model,
              row.values.count == row.objectID.entity.properties.count else {
            throw ObjectGraphError(.storeSave, "store: row \(row.objectID) does not belong to this store or model",
                                   entityName: row.objectID.entity.name, objectID: row.objectID)
        }
    }

    /// Checks then applies a change set: all of it or, on a throw, none of it.
    public mutating func apply(_ changes: StoreChangeSet) throws {
        try check(changes)
        applyUnchecked(changes)
    }

    /// Applies a change set already checked (log replay uses this).
    public mutating func applyUnchecked(_ changes: StoreChangeSet) {
        for (id, _) in changes.deleted { remove(id) }
        for row in changes.updated { replace(row) }
        for row in changes.inserted { insert(row) }
    }

    /// Inserts or replaces one row (snapshot loading uses this).
    public mutating func upsert(_ row: StoreRow) {
        if self.row(for: row.objectID) != nil { replace(row) } else { insert(row) }
    }

    private mutating func insert(_ row: StoreRow) {
        let e = row.objectID.entity.index
        let pk = row.objectID.primaryKey
        if let last = entityTables[e].rows.last, let lastRow = last, lastRow.objectID.primaryKey > pk {
            entityTables[e].isSorted = false
        }
        entityTables[e].slotByKey[pk] = entityTables[e].rows.count
        entityTables[e].rows.append(row)
        entityTables[e].liveCount += 1
        reservePrimaryKeys(for: row.objectID.entity, upTo: pk == .max ? pk : pk + 1)
        index(row, adding: true)
    }

    private mutating func replace(_ row: StoreRow) {
        let e = row.objectID.entity.index
        guard let slot = entityTables[e].slotByKey[row.objectID.primaryKey], let old = entityTables[e].rows[slot] else {
            insert(row)
            return
        }
        index(old, adding: false)
        entityTables[e].rows[slot] = row
        index(row, adding: true)
    }

    /// Removes a row if present.
    public mutating func remove(_ id: ManagedObjectID) {
        let e = id.entity.index
        guard let slot = entityTables[e].slotByKey.removeValue(forKey: id.primaryKey),
              let old = entityTables[e].rows[slot] else { return }
        index(old, adding: false)
        entityTables[e].rows[slot] = nil
        entityTables[e].liveCount -= 1
        if entityTables[e].rows.count > 64 && entityTables[e].liveCount * 2 < entityTables[e].rows.count {
            entityTables[e] = sortedTable(e)
        }
    }

    private mutating func index(_ row: StoreRow, adding: Bool) {
        for (key, slot) in indexedSlots[row.objectID.entity.index] {
            guard case .toOne(let target?) = row.values[slot] else { continue }
            if adding {
                reverse[key]!.add(row.objectID, to: target.primaryKey)
            } else {
                reverse[key]!.remove(row.objectID, from: target.primaryKey)
            }
        }
    }
}

/// Store error factories shared by the built-in stores.
enum StoreErrors {
    static func conflict(_ id: ManagedObjectID, _ what: String) -> ObjectGraphError {
        ObjectGraphError(.storeSaveConflicts, "store: \(id.entity.name) \(id) \(what)",
                         entityName: id.entity.name, objectID: id)
    }
    static func readOnly(_ url: URL?) -> ObjectGraphError {
        ObjectGraphError(.coreData, "store: \(url?.path ?? "the store") is open read-only; cannot save",
                         file: url?.path)
    }
}
