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
    /// The ID scope of each entity in this store, by entity index: the table's IDs are made
    /// from these, and an ID is the table's when it holds its entity's.
    let idScopes: [ObjectIDScope]
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
        /// The greatest primary key appended so far (0 when none): while `isSorted`, a row
        /// with a greater key keeps the table sorted.
        var lastKey: Int64 = 0
    }

    /// An empty table for `model`.
    public init(model: ManagedObjectModel, storeIdentifier: String) {
        self.model = model
        self.storeIdentifier = storeIdentifier
        self.idScopes = ObjectIDScope.of(model, store: storeIdentifier)
        self.entityTables = Array(repeating: EntityTable(), count: model.entities.count)
        self.nextPrimaryKey = Array(repeating: 1, count: model.entities.count)
        var reverse: [SlotKey: ReverseIndex] = [:]
        for entity in model.entities {
            for case let r as RelationshipDescription in entity.ownProperties
            where r.isToMany && !r.isStoredInRow && !r.isTransient {
                guard let inverse = r.inverseRelationship, let owner = inverse.entity else {
                    continue
                }
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
    public func rowCount(of entity: EntityDescription) -> Int {
        entityTables[entity.index].liveCount
    }

    /// The total number of live rows.
    public var totalRowCount: Int { entityTables.reduce(0) { $0 + $1.liveCount } }

    /// The row of `objectID`, or `nil`.
    public func row(for objectID: ManagedObjectID) -> StoreRow? {
        guard holds(objectID),
            let slot = entityTables[objectID.entity.index].slotByKey[objectID.primaryKey]
        else { return nil }
        return entityTables[objectID.entity.index].rows[slot]
    }

    /// The version of `objectID`'s row, or `nil`; reads the version in place (``row(for:)``
    /// copies the row).
    func version(of objectID: ManagedObjectID) -> Int64? {
        let e = objectID.entity.index
        guard holds(objectID), let slot = entityTables[e].slotByKey[objectID.primaryKey] else {
            return nil
        }
        // Through the buffer's pointer: subscripting the array copied the whole row (its
        // values array and ID retained and released) to read one integer, 130 instructions a
        // row in a save's optimistic-locking check.
        return entityTables[e].rows.withUnsafeBufferPointer { rows in
            (rows.baseAddress.unsafelyUnwrapped + slot).pointee?.version
        }
    }

    /// Calls `body` with each position of `objects` and the version of the row of the object
    /// there (``version(of:)``), in order: a store's ``RowVersionReadingStore`` read, which
    /// builds no array of IDs or versions. The objects are read through the slice's buffer
    /// (no retain of each).
    func readVersions(of objects: ArraySlice<ManagedObject>, _ body: (Int, Int64?) -> Void) {
        objects.withUnsafeBufferPointer { buffer in
            for k in buffer.indices {
                body(objects.startIndex + k, version(of: buffer[k].objectID))
            }
        }
    }

    /// Whether `objectID` has a row here; reads no row (``row(for:)`` copies the one it finds).
    func containsRow(_ objectID: ManagedObjectID) -> Bool {
        guard holds(objectID),
            let slot = entityTables[objectID.entity.index].slotByKey[objectID.primaryKey]
        else { return false }
        if case .none = entityTables[objectID.entity.index].rows[slot] { return false }
        return true
    }

    /// Whether `id` is of this table's store: its scope is the table's (the usual case, one
    /// comparison of references) or names the same store.
    @inline(__always)
    func holds(_ id: ManagedObjectID) -> Bool {
        let e = id.entity.index
        return (e >= 0 && e < idScopes.count && id.scope === idScopes[e])
            || id.storeIdentifier == storeIdentifier
    }

    /// Every live row of `entity` alone, in primary-key order.
    public func rows(of entity: EntityDescription) -> [StoreRow] {
        sortedTable(entity.index).rows.compactMap { $0 }
    }

    /// Every live row, entity by entity in the model's order, each entity's in primary-key
    /// order: what a snapshot holds. One array, reserved once (each entity's rows used to be
    /// copied into an array of their own, then into the whole).
    func allRows() -> [StoreRow] {
        var result: [StoreRow] = []
        result.reserveCapacity(totalRowCount)
        for e in entityTables.indices {
            let table = sortedTable(e)
            table.rows.withUnsafeBufferPointer { rows in
                for case let row? in rows { result.append(row) }
            }
        }
        return result
    }

    /// The sources whose to-one `inverse` points at `target`, in primary-key order.
    func sources(of inverse: RelationshipDescription, pointingAt target: ManagedObjectID)
        -> [ManagedObjectID]?
    {
        guard let owner = inverse.entity,
            let index = reverse[SlotKey(entity: owner.index, slot: inverse.index)]
        else { return nil }
        return index.sources(of: target.primaryKey, scopes: idScopes)
    }

    /// The destinations of `relationship` from `objectID`: stored in the row, or derived.
    public func relatedObjectIDs(
        _ relationship: RelationshipDescription, of objectID: ManagedObjectID
    )
        -> [ManagedObjectID]
    {
        // Transient relationships live in memory only: a store never keeps nor derives them.
        if relationship.isTransient { return [] }
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
        Self.sorted(entityTables[index])
    }

    /// `table` with its live rows in primary-key order and no empty slots (itself when it is
    /// sorted already).
    private static func sorted(_ table: EntityTable) -> EntityTable {
        guard !table.isSorted else { return table }
        var sorted = EntityTable()
        for row in table.rows.compactMap({ $0 }).sorted(by: {
            $0.objectID.primaryKey < $1.objectID.primaryKey
        }) {
            sorted.slotByKey[row.objectID.primaryKey] = sorted.rows.count
            sorted.rows.append(row)
        }
        sorted.liveCount = sorted.rows.count
        sorted.lastKey = sorted.rows.last??.objectID.primaryKey ?? 0
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
        Dictionary(
            uniqueKeysWithValues: model.entities.filter { $0.superentity == nil }
                .map { ($0.name, nextPrimaryKey[$0.index]) })
    }

    /// Raises the next primary key of `entity`'s hierarchy to at least `next`.
    public mutating func reservePrimaryKeys(for entity: EntityDescription, upTo next: Int64) {
        let root = entity.rootEntity.index
        nextPrimaryKey[root] = max(nextPrimaryKey[root], next)
    }

    /// Checks then applies a change set: all of it or, on a throw, none of it.
    public mutating func apply(_ changes: StoreChangeSet) throws {
        try check(changes)
        applyUnchecked(changes)
    }

    /// Applies a change set already checked (log replay uses this).
    ///
    /// Patched rows that the saver's objects share are handed off around their patches (see
    /// `StoreRowHandoff`; the first application only), so that each is changed in place.
    public mutating func applyUnchecked(_ changes: StoreChangeSet) {
        applyUncheckedExceptInserts(changes)
        if insertNew(changes.inserted) != nil {
            // not checked after all: replace the clashes
            for row in changes.inserted { upsert(row) }
        }
    }

    /// ``applyUnchecked(_:)`` taking the inserted rows out of `changes` (held only by the
    /// caller, or the first row taken copies them all: correct, only slower) and moving each
    /// into its table (``insertNew(moving:)``); `changes.inserted` is empty on return.
    mutating func applyUnchecked(moving changes: inout StoreChangeSet) {
        applyUncheckedExceptInserts(changes)
        if insertNew(moving: &changes.inserted) != nil {
            for row in changes.inserted { upsert(row) }
        }
        changes.inserted = []
    }

    /// ``applyUnchecked(_:)`` but for the inserted rows.
    private mutating func applyUncheckedExceptInserts(_ changes: StoreChangeSet) {
        remove(contentsOf: changes.deleted)
        for row in changes.updated { replace(row) }
        if let handoff = changes.rowHandoff, handoff.claim() {
            for k in changes.patched.indices { patch(changes.patched[k], handoff, at: k) }
            handoff.end()
        } else {
            for patch in changes.patched { self.patch(patch) }
        }
    }

    /// Inserts or replaces one row (snapshot loading uses this).
    public mutating func upsert(_ row: StoreRow) {
        if self.row(for: row.objectID) != nil { replace(row) } else { insert(row) }
    }

    mutating func insert(_ row: StoreRow) {
        let e = row.objectID.entity.index
        let pk = row.objectID.primaryKey
        Self.append(row, to: &entityTables[e])
        reservePrimaryKeys(for: row.objectID.entity, upTo: pk == .max ? pk : pk + 1)
        index(row, adding: true)
    }

    /// Appends a row whose key is not in the table yet: slot, order, count (no index, no keys).
    private static func append(_ row: StoreRow, to table: inout EntityTable) {
        place(row.objectID.primaryKey, at: table.rows.count, in: &table)
        table.rows.append(row)
    }

    private mutating func replace(_ row: StoreRow) {
        let e = row.objectID.entity.index
        guard let slot = entityTables[e].slotByKey[row.objectID.primaryKey],
            case .some = entityTables[e].rows[slot]
        else {
            insert(row)
            return
        }
        // Re-index where a to-one changed target (most updates move nothing: re-indexing every
        // update was a third of a batch update). The old row's targets are read in place by
        // primary key: binding the old row and each target's ID copied them.
        for (key, index) in indexedSlots[e] {
            let before = entityTables[e].rows[slot].unsafelyUnwrapped.values[index].toOneKey
            let after = row.values[index].toOneKey
            if before == after { continue }
            if let before { reverse[key]!.remove(row.objectID, from: before) }
            if let after { reverse[key]!.add(row.objectID, to: after) }
        }
        entityTables[e].rows[slot] = row
    }

    /// Removes the rows of `deleted` that are present: the table ends up as after
    /// ``remove(_:)`` of each in turn, but each to-one's reverse index is updated once for all
    /// the rows (looking the index and the target's list up per row was most of a delete).
    ///
    /// Each run of deletions of one entity works on that entity's table moved out of
    /// `entityTables` (unique, so never copied): the key map, the row slot and the live count
    /// are then updated without going through `entityTables`' accessor and its checks for
    /// every row.
    mutating func remove(contentsOf deleted: [(objectID: ManagedObjectID, version: Int64)]) {
        if deleted.count < 2 {
            for (id, _) in deleted { remove(id) }
            return
        }
        // The sources leaving each indexed to-one, by the to-one (a save has few).
        var leaving: [(key: SlotKey, pairs: [(target: Int64, source: Int64)])] = []
        var i = 0
        while i < deleted.count {
            let entity = deleted[i].objectID.entity
            let e = entity.index
            let slots = indexedSlots[e]
            var table = entityTables[e]
            entityTables[e] = EntityTable()
            while i < deleted.count, deleted[i].objectID.entity === entity {
                let pk = deleted[i].objectID.primaryKey
                i += 1
                guard let slot = table.slotByKey.removeValue(forKey: pk) else { continue }
                let present = table.rows.withUnsafeBufferPointer { rows -> Bool in
                    // In place: binding the row would copy it (its values and ID retained).
                    guard case .some = rows[slot] else { return false }
                    for (key, index) in slots {
                        guard let target = rows[slot].unsafelyUnwrapped.values[index].toOneKey
                        else { continue }
                        if let j = leaving.firstIndex(where: { $0.key == key }) {
                            leaving[j].pairs.append((target, pk))
                        } else {
                            leaving.append((key, [(target, pk)]))
                        }
                    }
                    return true
                }
                guard present else { continue }
                Self.removeRow(at: slot, of: &table)
            }
            entityTables[e] = table
        }
        for (key, pairs) in leaving { reverse[key]!.remove(contentsOf: pairs) }
    }

    /// Removes a row if present.
    public mutating func remove(_ id: ManagedObjectID) {
        let e = id.entity.index
        guard let slot = entityTables[e].slotByKey.removeValue(forKey: id.primaryKey),
            let old = entityTables[e].rows[slot]
        else { return }
        index(old, adding: false)
        removeRow(at: slot, of: e)
    }

    /// Empties the row slot `slot` of entity `e`, whose key is out of the key map already,
    /// compacting the table once most of its slots are empty; the reverse index is the
    /// caller's.
    private mutating func removeRow(at slot: Int, of e: Int) {
        Self.removeRow(at: slot, of: &entityTables[e])
    }

    /// ``removeRow(at:of:)`` on a table moved out of `entityTables`.
    private static func removeRow(at slot: Int, of table: inout EntityTable) {
        table.rows[slot] = nil
        table.liveCount -= 1
        if table.rows.count > 64 && table.liveCount * 2 < table.rows.count {
            table = sorted(table)
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
