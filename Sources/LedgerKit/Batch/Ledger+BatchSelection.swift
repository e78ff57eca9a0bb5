import Foundation
import ObjectGraph

/// The transactions a batch command (`adjust`, `purge`) selects, read from the store's saved
/// rows with the same predicate the batch request then runs, so the check before and the
/// change after see the same rows.
struct BatchSelection {
    /// The predicate handed to the batch request (`nil` selects every transaction).
    var predicate: FetchPredicate?
    /// The selected rows, in the store's order.
    var rows: [StoreRow]
    /// The `Transaction` entity the rows belong to.
    var entity: EntityDescription

    /// The slot of `name` in a row.
    func slot(_ name: String) -> Int { entity.propertiesByName[name]!.index }

    /// The decimal in slot `slot` of `row` (0 when it holds none).
    static func decimal(_ row: StoreRow, _ slot: Int) -> Decimal {
        switch row.values[slot].attributeValue {
        case .decimal(let d): d
        case .integer(let i): Decimal(i)
        case .double(let d): Decimal(d)
        default: 0
        }
    }

    /// The UUID in slot `slot` of `row`.
    static func uuid(_ row: StoreRow, _ slot: Int) -> UUID {
        if case .uuid(let id) = row.values[slot].attributeValue { return id }
        return LedgerValues.nilUUID
    }
}

extension Ledger {
    /// The transactions `query` selects (its predicate, category and dates; sort and limit
    /// are ignored), plus `extra` conditions, as saved rows.
    ///
    /// - Throws: a predicate's `ObjectGraphError` (naming the position); ``LedgerError``
    ///   `.unknownCategory`.
    func batchSelection(_ query: TransactionQuery, extra: [FetchPredicate] = []) throws
        -> BatchSelection
    {
        let user = try query.predicate.map { try FetchPredicate(format: $0) }
        return try read { context in
            var parts = (user.map { [$0] } ?? []) + extra
            if let name = query.category {
                let category = try Self.requireCategory(name, in: context)
                parts.append(try FetchPredicate(format: "category == %@", category.objectID))
            }
            parts += try Self.dateRange(from: query.from, to: query.to)
            let predicate: FetchPredicate? = parts.isEmpty ? nil : .and(parts)
            guard
                let (rows, entity) = try savedRows("Transaction", in: context, predicate: predicate)
            else {
                // Unreachable between the ledger's calls: every change is saved or rolled back.
                preconditionFailure("a batch command ran with unsaved changes in the root context")
            }
            return BatchSelection(predicate: predicate, rows: rows, entity: entity)
        }
    }
}
