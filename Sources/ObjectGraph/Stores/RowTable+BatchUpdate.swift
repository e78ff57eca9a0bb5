import Foundation

/// A batch update as the built-in stores run it on their rows: which rows, and each updated
/// attribute's new value, a constant or an expression evaluated on the row alone.
///
/// The coordinator builds it once from a ``BatchUpdateRequest`` (names resolved, constants
/// converted, expressions compiled into a ``RowExpression``) and hands it to each
/// ``RowBatchUpdatingStore``.
struct RowBatchUpdate {
    /// An updated attribute's new value.
    enum Value {
        /// The same value for every row, in the attribute's stored form; `nil` when the
        /// request's value does not fit the attribute (the update then fails on its first row).
        case constant(AttributeValue?)
        /// An expression evaluated on each row's own attributes, planned once.
        case expression(RowExpression)
    }

    /// The entity named by the request.
    let entity: EntityDescription
    /// Which rows; `nil` matches all.
    let predicate: FetchPredicate?
    /// Whether rows of subentities are updated too.
    let includesSubentities: Bool
    /// The updated attributes, in name order, with their new values.
    let updates: [(attribute: AttributeDescription, value: Value)]
    /// The change set's author, context name and time, for a store that records them.
    let author: String?
    let contextName: String?
    let timestamp: Date

    /// The new value of the updated attribute `update` for `row`.
    ///
    /// - Throws: ``ObjectGraphError`` `.batchInvalidValue` (134060) naming the row when the
    ///   value does not fit the attribute.
    func newValue(
        _ update: (attribute: AttributeDescription, value: Value), for row: StoreRow
    ) throws -> AttributeValue {
        let computed: AttributeValue?
        switch update.value {
        case .constant(let v): computed = v
        case .expression(let e): computed = e.value(for: row).coerced(to: update.attribute.type)
        }
        guard let computed else {
            throw BatchErrors.invalidValue(
                "update", entity, update.attribute, objectID: row.objectID)
        }
        return computed
    }
}

/// A batch update worked out against a table before anything changes: the rows it touches
/// (in the stable order of a fetch) and their new values.
///
/// The values sit in one flat array, row by row, so that planning 100,000 rows makes one
/// array rather than one per row; applying the plan writes them into the rows where they
/// are (each row's values array mutated in place, not a new row per match).
///
/// Planned with `findingChanges`, the plan also says which planned slots each row really
/// changes (its new value differs from the current one): what the file store's line carries
/// as a partial row and history records as the update's properties. Rows that change the
/// same slots share one entry of ``changes``, so a batch that changes the same attributes of
/// every row keeps one small array, not one per row.
struct RowBatchPlan {
    /// The slots one or more rows change, in two forms.
    struct Change {
        /// The changed slots, ascending (a subset of ``RowBatchPlan/slots``).
        var slots: [Int]
        /// Where each of them is in ``RowBatchPlan/slots`` (so in a row's run of
        /// ``RowBatchPlan/values``).
        var positions: [Int]
    }

    /// Where the matching rows are.
    var refs: [RowRef] = []
    /// The stored slots the update writes, ascending (transient attributes are evaluated, so
    /// that a value that does not fit still fails the update, but a store keeps none).
    var slots: [Int] = []
    /// `values[i * slots.count + k]`: the new value of `slots[k]` in the row at `refs[i]`.
    var values: [StoreValue] = []
    /// The distinct sets of changed slots (empty unless planned with `findingChanges`).
    var changes: [Change] = []
    /// `changes[changeOf[i]]`: the slots the row at `refs[i]` changes (empty unless planned
    /// with `findingChanges`).
    var changeOf: [Int32] = []

    /// Whether no row matches.
    var isEmpty: Bool { refs.isEmpty }

    /// The new value at `position` (an index in ``slots``) of the `i`th row.
    func value(row i: Int, position: Int) -> StoreValue {
        values[i * slots.count + position]
    }

    /// The complete row the update leaves of `old`, the `i`th row: every planned slot's new
    /// value over it, at its version plus one.
    func applied(row i: Int, to old: StoreRow) -> StoreRow {
        var row = old
        row.version += 1
        for (k, slot) in slots.enumerated() where slot < row.values.count {
            row.values[slot] = value(row: i, position: k)
        }
        return row
    }
}

/// A store that runs a ``RowBatchUpdate`` on its own rows, without copying them out and back
/// in: the predicate is evaluated on the rows in place (as a fetch does, with its indexes) and
/// only the updated attributes are written.
protocol RowBatchUpdatingStore: PersistentStore {
    /// Applies `update` atomically (every matching row, or on a throw none) and returns the
    /// IDs of the updated rows in the stable order of a fetch. A store with no matching row
    /// changes and writes nothing.
    ///
    /// - Throws: ``ObjectGraphError`` `.batchInvalidValue` (134060) naming the first row whose
    ///   new value does not fit; the store's own errors (read-only, closed, write failures).
    func batchUpdate(_ update: RowBatchUpdate) throws -> [ManagedObjectID]
}

extension RowTable {
    /// Finds the rows `update` matches and computes their new values, changing nothing; with
    /// `findingChanges`, also which planned slots each row changes (``RowBatchPlan/changes``).
    ///
    /// - Throws: a predicate error; ``ObjectGraphError`` `.batchInvalidValue` (134060) for the
    ///   first row and attribute (in name order) whose new value does not fit the attribute.
    /// - Complexity: O(n) in the rows of the entity (less when an index narrows the predicate),
    ///   plus O(m × k) for m matching rows and k updated attributes.
    func plan(_ update: RowBatchUpdate, findingChanges: Bool = false) throws -> RowBatchPlan {
        var plan = RowBatchPlan()
        plan.refs = try select(
            StoreFetchRequest(
                entity: update.entity, predicate: update.predicate,
                includesSubentities: update.includesSubentities))
        // Where each updated attribute's value goes in a row's run of `plan.values`; `nil`
        // for a transient one.
        let stored = update.updates.indices.filter { !update.updates[$0].attribute.isTransient }
            .sorted { update.updates[$0].attribute.index < update.updates[$1].attribute.index }
        plan.slots = stored.map { update.updates[$0].attribute.index }
        var position = [Int?](repeating: nil, count: update.updates.count)
        for (k, u) in stored.enumerated() { position[u] = k }
        let width = plan.slots.count
        plan.values = [StoreValue](repeating: .notStored, count: plan.refs.count * width)
        var changes = ChangeSets()
        if findingChanges { plan.changeOf.reserveCapacity(plan.refs.count) }
        try plan.values.withUnsafeMutableBufferPointer { values in
            for (i, ref) in plan.refs.enumerated() {
                let row = entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped
                for (u, attribute) in update.updates.enumerated() {
                    let value = try update.newValue(attribute, for: row)
                    if let k = position[u] { values[i * width + k] = .attribute(value) }
                }
                guard findingChanges else { continue }
                // A planned slot whose value stays is not a change (not in the line's
                // partial row, nor in history's updated properties).
                changes.scratch.removeAll(keepingCapacity: true)
                for (k, slot) in plan.slots.enumerated()
                where slot < row.values.count && row.values[slot] != values[i * width + k] {
                    changes.scratch.append(k)
                }
                plan.changeOf.append(changes.index(of: plan.slots))
            }
        }
        plan.changes = changes.list
        return plan
    }

    /// History's record of `plan`'s updates, one change per row in the plan's order: the
    /// names of the slots each row changes. `plan` must have been planned with
    /// `findingChanges`, on the rows as they are now.
    func historyChanges(_ plan: RowBatchPlan) -> [StoreHistoryChange] {
        var list: [StoreHistoryChange] = []
        list.reserveCapacity(plan.refs.count)
        // The names of the last (change, entity) pair: one array for every row alike.
        var last: (change: Int32, entity: Int, names: [String]) = (-1, -1, [])
        for (i, ref) in plan.refs.enumerated() {
            let id = entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped.objectID
            let change = plan.changeOf[i]
            if change != last.change || ref.entity != last.entity {
                let properties = id.entity.properties
                last = (
                    change, ref.entity, plan.changes[Int(change)].slots.map { properties[$0].name }
                )
            }
            list.append(
                StoreHistoryChange(objectID: id, changeType: .update, updatedProperties: last.names)
            )
        }
        return list
    }

    /// The rows `plan` updates as they are now: the before-images a pinned query generation
    /// keeps.
    func beforeImages(of plan: RowBatchPlan) -> [ManagedObjectID: StoreRow?] {
        var before: [ManagedObjectID: StoreRow?] = [:]
        before.reserveCapacity(plan.refs.count)
        for ref in plan.refs {
            let row = entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped
            before[row.objectID] = .some(row)
        }
        return before
    }

    /// Writes `plan` into the rows in place: the new values and each row's version plus one.
    /// Only attributes change, so the reverse index stays as it is. Returns the updated IDs.
    ///
    /// A row's values array is mutated where it sits; only a row shared with a copy of the
    /// table (a snapshot, a pinned query generation) is copied first.
    mutating func apply(_ plan: RowBatchPlan) -> [ManagedObjectID] {
        let width = plan.slots.count
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(plan.refs.count)
        plan.values.withUnsafeBufferPointer { values in
            for (i, ref) in plan.refs.enumerated() {
                entityTables[ref.entity].rows[ref.slot]!.version += 1
                for (k, slot) in plan.slots.enumerated() {
                    entityTables[ref.entity].rows[ref.slot]!.values[slot] = values[i * width + k]
                }
                ids.append(entityTables[ref.entity].rows[ref.slot]!.objectID)
            }
        }
        return ids
    }
}

/// The distinct sets of changed positions found while planning, and the one being built.
private struct ChangeSets {
    /// The positions (in the plan's slots) the current row changes.
    var scratch: [Int] = []
    var list: [RowBatchPlan.Change] = []
    private var byPositions: [[Int]: Int32] = [:]
    private var last: Int32 = -1

    /// The index in ``list`` of ``scratch``'s set, added when new. Consecutive rows changing
    /// the same slots (the common case) cost one comparison; others a hash.
    mutating func index(of slots: [Int]) -> Int32 {
        if last >= 0, list[Int(last)].positions == scratch { return last }
        if let known = byPositions[scratch] {
            last = known
            return known
        }
        last = Int32(list.count)
        list.append(RowBatchPlan.Change(slots: scratch.map { slots[$0] }, positions: scratch))
        byPositions[scratch] = last
        return last
    }
}
