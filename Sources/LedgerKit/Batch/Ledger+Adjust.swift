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
        let checked = try checkedChanges(
            adjustment, matching: query, dryRun: dryRun, progress: progress)
        guard !dryRun, checked.count > 0 else {
            return LedgerAdjustment(changes: checked.changes, isDryRun: dryRun)
        }
        // The selected rows are gone by now (see `checkedChanges`), so the store's own rows
        // are no longer shared and the update writes their values in place.
        let ids: [ManagedObjectID] = try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.predicate = checked.predicate
            update.propertiesToUpdate = ["amount": adjustment.expression]
            update.resultType = .updatedObjectIDsResultType
            // The transaction line records the command, for `ledger undo`.
            context.name = LedgerUndo.contextName("adjust")
            defer { context.name = "ledger" }
            return try context.execute(update).result as? [ManagedObjectID] ?? []
        }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [context])
        return LedgerAdjustment(changes: checked.changes, isDryRun: false)
    }

    /// The rows `query` selects, each with its new amount, checked against the model's rules
    /// for `amount`, before anything is written: the predicate the batch update then runs, how
    /// many rows it selects, and each one's amount before and after.
    ///
    /// The new amounts are computed with the plan of the request's own expression
    /// (`RowExpression`, as the store's batch update runs it) on the same saved rows, so they
    /// are the values the update writes. The rows themselves are dropped on return, before the
    /// update: a row this function still held would share its values with the store's, and
    /// the store would copy every row's values to update it.
    ///
    /// - Throws: ``LedgerError`` `.adjustmentRefused` naming the transactions whose new amount
    ///   breaks a rule; the selection's errors.
    private func checkedChanges(
        _ adjustment: AmountAdjustment, matching query: TransactionQuery, dryRun: Bool,
        progress: ((_ done: Int, _ total: Int) -> Void)?
    ) throws -> (predicate: FetchPredicate?, count: Int, changes: [AmountChange]) {
        let selection = try batchSelection(query)
        let amount = selection.entity.attributesByName["amount"]!
        let plan = RowExpression(try adjustment.expression.compile(for: selection.entity))
        let (idSlot, amountSlot) = (selection.slot("id"), amount.index)
        let rows = selection.rows
        func after(_ row: StoreRow) -> AttributeValue {
            plan.value(for: row).coerced(to: amount.type) ?? .null
        }
        // A new amount is a non-decreasing function of the old one (a factor above 0 or an
        // added amount, then rounding), so when the smallest and the largest old amounts give
        // allowed new ones, every row does: only they are checked (every row is for a dry
        // run, or to name the rows when one breaks a rule).
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
        changes.reserveCapacity(rows.count)
        if !dryRun && allDecimal && extremesAllowed {
            // Every new amount is allowed: each row's change, the new amount as the update
            // writes it.
            for row in rows {
                changes.append(
                    AmountChange(
                        id: BatchSelection.uuid(row, idSlot),
                        before: BatchSelection.decimal(row, amountSlot),
                        after: Self.decimal(after(row)) ?? 0))
            }
        } else {
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
        return (selection.predicate, rows.count, changes)
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
