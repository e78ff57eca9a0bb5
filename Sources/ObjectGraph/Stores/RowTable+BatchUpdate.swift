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
struct RowBatchPlan {
    /// Where the matching rows are.
    var refs: [RowRef] = []
    /// The stored slots the update writes, ascending (transient attributes are evaluated, so
    /// that a value that does not fit still fails the update, but a store keeps none).
    var slots: [Int] = []
    /// `values[i * slots.count + k]`: the new value of `slots[k]` in the row at `refs[i]`.
    var values: [StoreValue] = []

    /// Whether no row matches.
    var isEmpty: Bool { refs.isEmpty }
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
    /// Finds the rows `update` matches and computes their new values, changing nothing.
    ///
    /// - Throws: a predicate error; ``ObjectGraphError`` `.batchInvalidValue` (134060) for the
    ///   first row and attribute (in name order) whose new value does not fit the attribute.
    /// - Complexity: O(n) in the rows of the entity (less when an index narrows the predicate),
    ///   plus O(m × k) for m matching rows and k updated attributes.
    func plan(_ update: RowBatchUpdate) throws -> RowBatchPlan {
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
        try plan.values.withUnsafeMutableBufferPointer { values in
            for (i, ref) in plan.refs.enumerated() {
                let row = entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped
                for (u, attribute) in update.updates.enumerated() {
                    let value = try update.newValue(attribute, for: row)
                    if let k = position[u] { values[i * width + k] = .attribute(value) }
                }
            }
        }
        return plan
    }

    /// The updates `plan` makes, as patches of the rows as they are now (each at its version
    /// plus one, with every planned slot): for a change set (the file's transaction line,
    /// history, a pinned query generation's before-images).
    func patches(_ plan: RowBatchPlan) -> [StoreRowPatch] {
        let width = plan.slots.count
        var patches: [StoreRowPatch] = []
        patches.reserveCapacity(plan.refs.count)
        for (i, ref) in plan.refs.enumerated() {
            let row = entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped
            patches.append(
                StoreRowPatch(
                    objectID: row.objectID, version: row.version + 1, slots: plan.slots,
                    values: Array(plan.values[i * width..<(i + 1) * width])))
        }
        return patches
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
