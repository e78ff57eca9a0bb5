import Foundation
import ObjectGraph

extension Ledger {
    /// Changes the amounts of the transactions `query` selects with one batch update
    /// (`round(amount * F, 2)` or `round(amount + A, 2)`), after checking every new amount
    /// against the model's rules for `amount`.
    ///
    /// A batch update bypasses validation, as in Core Data, so the new amounts are computed
    /// first with the request's own expression and checked against the attribute's rules
    /// (required, the minimum 0.01, any maximum); when one breaks a rule nothing is written
    /// and the error names the transactions. Otherwise one `BatchUpdateRequest` changes them
    /// in one transaction line, and the changed IDs are merged into the root context with
    /// `mergeChanges(fromRemoteContextSave:into:)`. No transaction selected writes nothing.
    ///
    /// ```swift
    /// var query = TransactionQuery()
    /// query.category = "Food"
    /// let result = try ledger.adjustAmounts(.multiply(1.2), matching: query)
    /// print(result.totalBefore, result.totalAfter)
    /// ```
    ///
    /// - Parameters:
    ///   - adjustment: the factor or amount.
    ///   - query: which transactions (predicate, category, dates; sort and limit are ignored).
    ///   - dryRun: compute and check only; write nothing.
    ///   - progress: told the rows checked of the rows selected.
    /// - Returns: each selected amount before and after.
    /// - Throws: ``LedgerError`` `.adjustmentRefused` (30) naming the transactions whose new
    ///   amount breaks a rule, `.unknownCategory`; a predicate's `ObjectGraphError`; the
    ///   store's errors (the file is unchanged).
    /// - Complexity: O(n) in the ledger's transactions.
    public func adjustAmounts(
        _ adjustment: AmountAdjustment, matching query: TransactionQuery, dryRun: Bool = false,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> LedgerAdjustment {
        let selection = try batchSelection(query)
        let expression = adjustment.expression
        let amount = selection.entity.attributesByName["amount"]!
        let compiled = try expression.compile(for: selection.entity)
        let (idSlot, amountSlot) = (selection.slot("id"), amount.index)
        var changes: [AmountChange] = []
        changes.reserveCapacity(selection.rows.count)
        var broken: [(id: UUID, before: Decimal, after: AttributeValue, rule: String)] = []
        for (i, row) in selection.rows.enumerated() {
            let before = BatchSelection.decimal(row, amountSlot)
            let after =
                compiled.value(for: LoneRowRecord(row: row)).attributeValue.coerced(
                    to: amount.type) ?? .null
            let id = BatchSelection.uuid(row, idSlot)
            if let rule = Self.brokenRule(after, amount) {
                broken.append((id, before, after, rule))
            } else if case .decimal(let value) = after {
                changes.append(AmountChange(id: id, before: before, after: value))
            }
            if i % 4096 == 4095 { progress?(i + 1, selection.rows.count) }
        }
        progress?(selection.rows.count, selection.rows.count)
        if !broken.isEmpty {
            let ids = try shortIDs(for: broken.map(\.id))
            throw LedgerErrors.adjustmentRefused(
                adjustment.summary, key: amount.name,
                rows: broken.map { item in
                    let after = Self.amountText(item.after)
                    return
                        "\(ids[item.id] ?? item.id.uuidString.lowercased()) "
                        + "\(Money.format(item.before)) → \(after) (\(item.rule))"
                })
        }
        let result = LedgerAdjustment(changes: changes, isDryRun: dryRun)
        guard !dryRun, !changes.isEmpty else { return result }
        let ids: [ManagedObjectID] = try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.predicate = selection.predicate
            update.propertiesToUpdate = [amount.name: expression]
            update.resultType = .updatedObjectIDsResultType
            return try context.execute(update).result as? [ManagedObjectID] ?? []
        }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [context])
        return result
    }

    /// The rule of `attribute` that `value` breaks (`below the minimum 0.01`), or `nil`.
    static func brokenRule(_ value: AttributeValue, _ attribute: AttributeDescription) -> String? {
        guard let number = decimal(value) else {
            return value.isNull && attribute.isOptional ? nil : "not a number"
        }
        if let min = attribute.minValue.flatMap(decimal), number < min {
            return "below the minimum \(min)"
        }
        if let max = attribute.maxValue.flatMap(decimal), number > max {
            return "above the maximum \(max)"
        }
        return nil
    }

    private static func decimal(_ value: AttributeValue) -> Decimal? {
        switch value {
        case .decimal(let d): d
        case .integer(let i): Decimal(i)
        case .double(let d) where d.isFinite: Decimal(d)
        default: nil
        }
    }

    private static func amountText(_ value: AttributeValue) -> String {
        decimal(value).map(Money.format) ?? "nil"
    }
}
