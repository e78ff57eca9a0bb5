import Foundation

/// A batch update as the built-in stores run it on their rows: which rows, and each updated
/// attribute's new value, a constant or an expression evaluated on the row alone.
///
/// The coordinator builds it once from a ``BatchUpdateRequest`` (names resolved, constants
/// converted, expressions compiled) and hands it to each ``RowBatchUpdatingStore``.
struct RowBatchUpdate {
    /// An updated attribute's new value.
    enum Value {
        /// The same value for every row, in the attribute's stored form; `nil` when the
        /// request's value does not fit the attribute (the update then fails on its first row).
        case constant(AttributeValue?)
        /// An expression evaluated on each row's own attributes (``LoneRowRecord``).
        case expression(CompiledExpression)
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
        case .expression(let e):
            computed = e.value(for: LoneRowRecord(row: row)).attributeValue.coerced(
                to: update.attribute.type)
        }
        guard let computed else {
            throw BatchErrors.invalidValue(
                "update", entity, update.attribute, objectID: row.objectID)
        }
        return computed
    }
}

/// A batch update worked out against a table before anything changes: the rows it touches
/// (in the stable order of a fetch) and, column by column, their new values.
struct RowBatchPlan {
    /// Where the matching rows are.
    var refs: [RowRef] = []
    /// The slots of the updated attributes.
    var slots: [Int] = []
    /// `columns[k][i]`: the new value of `slots[k]` in the row at `refs[i]`.
    var columns: [[AttributeValue]] = []

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
        plan.slots = update.updates.map(\.attribute.index)
        plan.columns = update.updates.map { _ in
            var column: [AttributeValue] = []
            column.reserveCapacity(plan.refs.count)
            return column
        }
        for ref in plan.refs {
            let row = entityTables[ref.entity].rows[ref.slot]!
            for (k, attribute) in update.updates.enumerated() {
                plan.columns[k].append(try update.newValue(attribute, for: row))
            }
        }
        return plan
    }

    /// The rows as `plan` leaves them: each matching row with its new values and its
    /// version plus one (for a change set, or the file's transaction line).
    func updatedRows(_ plan: RowBatchPlan) -> [StoreRow] {
        var rows: [StoreRow] = []
        rows.reserveCapacity(plan.refs.count)
        for (i, ref) in plan.refs.enumerated() {
            var row = entityTables[ref.entity].rows[ref.slot]!
            row.version += 1
            for (k, slot) in plan.slots.enumerated() {
                row.values[slot] = .attribute(plan.columns[k][i])
            }
            rows.append(row)
        }
        return rows
    }

    /// For each row `plan` matches (in its order), which updated slots get a value that differs
    /// from the row's current one: bit `k` stands for `plan.slots[k]`. `nil` when the plan
    /// updates more than 64 slots.
    func changedSlotMasks(_ plan: RowBatchPlan) -> [UInt64]? {
        guard plan.slots.count <= 64 else { return nil }
        var masks: [UInt64] = []
        masks.reserveCapacity(plan.refs.count)
        for (i, ref) in plan.refs.enumerated() {
            var mask: UInt64 = 0
            for (k, slot) in plan.slots.enumerated() {
                if entityTables[ref.entity].rows[ref.slot]!.values[slot]
                    != .attribute(plan.columns[k][i])
                {
                    mask |= 1 << UInt64(k)
                }
            }
            masks.append(mask)
        }
        return masks
    }

    /// Writes `plan` into the rows in place: the new values and each row's version plus one.
    /// Only attributes change, so the reverse index stays as it is. Returns the updated IDs.
    mutating func apply(_ plan: RowBatchPlan) -> [ManagedObjectID] {
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(plan.refs.count)
        for (i, ref) in plan.refs.enumerated() {
            entityTables[ref.entity].rows[ref.slot]!.version += 1
            for (k, slot) in plan.slots.enumerated() {
                entityTables[ref.entity].rows[ref.slot]!.values[slot] = .attribute(
                    plan.columns[k][i])
            }
            ids.append(entityTables[ref.entity].rows[ref.slot]!.objectID)
        }
        return ids
    }

    /// Puts `rows`, made by ``updatedRows(_:)`` from `plan`, in the places `plan` found them.
    mutating func replace(_ rows: [StoreRow], planned plan: RowBatchPlan) {
        for (row, ref) in zip(rows, plan.refs) { entityTables[ref.entity].rows[ref.slot] = row }
    }
}
