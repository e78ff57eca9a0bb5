import Foundation
import ObjectGraph

extension Ledger {
    /// Changes the amounts of the transactions `query` selects with one batch update
    /// (`round(amount * F, 2)` or `round(amount + A, 2)`), after checking every new amount
    /// against the model's rules for `amount`.
    ///
    /// A batch update bypasses validation, as in Core Data, so the new amounts are checked
    /// first against the attribute's rules (required, the minimum 0.01, any maximum), with
    /// the request's own expression: the change never reverses the order of two amounts, so
    /// the new values of the smallest and the largest bound all others, and only when one of
    /// them breaks a rule (or for a dry run) is every row computed. When one breaks a rule
    /// nothing is written and the error names the transactions. Otherwise one `BatchUpdateRequest` changes them
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
    /// - Returns: each selected amount before and after (after: the value the update wrote,
    ///   computed with the request's own expression on the same rows).
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
        let rows = selection.rows
        func after(_ row: StoreRow) -> AttributeValue {
            compiled.value(forRow: row).attributeValue.coerced(to: amount.type)
                ?? .null
        }
        // A new amount is a non-decreasing function of the old one (a factor above 0 or an
        // added amount, then rounding), so when the smallest and the largest old amounts give
        // allowed new ones, every row does: only they are evaluated before the update (all
        // rows are for a dry run's totals, or to name the rows when one breaks a rule).
        var (lowest, highest): ((Int, Decimal)?, (Int, Decimal)?) = (nil, nil)
        var allDecimal = true
        for (i, row) in rows.enumerated() {
            guard case .decimal(let value) = row.values[amountSlot].attributeValue else {
                allDecimal = false
                break
            }
            if lowest.map({ DecimalParts.isLess(value, $0.1) }) ?? true { lowest = (i, value) }
            if highest.map({ DecimalParts.isLess($0.1, value) }) ?? true { highest = (i, value) }
            if i % 4096 == 4095 { progress?(i + 1, rows.count) }
        }
        let extremesAllowed = [lowest?.0, highest?.0].allSatisfy { index in
            index.map { Self.brokenRule(after(rows[$0]), amount) == nil } ?? true
        }
        var changes: [AmountChange] = []
        if dryRun || !allDecimal || !extremesAllowed {
            changes.reserveCapacity(rows.count)
            var broken: [(id: UUID, before: Decimal, after: AttributeValue, rule: String)] = []
            for row in rows {
                let (id, before, new) = (
                    BatchSelection.uuid(row, idSlot), BatchSelection.decimal(row, amountSlot),
                    after(row)
                )
                if let rule = Self.brokenRule(new, amount) {
                    broken.append((id, before, new, rule))
                } else if case .decimal(let value) = new {
                    changes.append(AmountChange(id: id, before: before, after: value))
                }
            }
            if !broken.isEmpty {
                let ids = try shortIDs(for: broken.map(\.id))
                throw LedgerErrors.adjustmentRefused(
                    adjustment.summary, key: amount.name,
                    rows: broken.map { item in
                        "\(ids[item.id] ?? item.id.uuidString.lowercased()) "
                            + "\(Money.format(item.before)) → \(Self.amountText(item.after)) "
                            + "(\(item.rule))"
                    })
            }
        }
        progress?(rows.count, rows.count)
        guard !dryRun, !rows.isEmpty else {
            return LedgerAdjustment(changes: changes, isDryRun: dryRun)
        }
        let ids: [ManagedObjectID] = try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.predicate = selection.predicate
            update.propertiesToUpdate = [amount.name: expression]
            update.resultType = .updatedObjectIDsResultType
            // The transaction line records the command, for `ledger undo`.
            context.name = LedgerUndo.contextName("adjust")
            defer { context.name = "ledger" }
            return try context.execute(update).result as? [ManagedObjectID] ?? []
        }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [context])
        if changes.isEmpty {
            // The new amounts as the update wrote them: the request's own compiled expression
            // on the same saved rows, as the store evaluated it (no second read of the file's
            // rows, no lookup by ID).
            changes = rows.map { row in
                let new = after(row)
                return AmountChange(
                    id: BatchSelection.uuid(row, idSlot),
                    before: BatchSelection.decimal(row, amountSlot),
                    after: Self.decimal(new) ?? 0)
            }
        }
        return LedgerAdjustment(changes: changes, isDryRun: false)
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
