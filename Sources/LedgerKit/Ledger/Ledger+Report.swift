import Foundation
import ObjectGraph

extension Ledger {
    /// Totals out, in and net, overall and per group, of the transactions between two
    /// calendar dates (inclusive).
    ///
    /// When the root context holds no unsaved changes (always, between the ledger's own
    /// calls) the totals are read from the store's rows directly, without registering a
    /// managed object per transaction: the report of a 100,000-transaction file then costs
    /// what reading the rows costs. Otherwise the transactions are fetched as objects. Both
    /// give the same report.
    ///
    /// By month, each month's group carries a ``BudgetLine`` per budgeted category
    /// (``LedgerReport/Group/budgets``).
    ///
    /// - Throws: store errors.
    /// - Complexity: O(n) in the number of transactions, plus sorting the groups (twice n
    ///   by month when the ledger has budgets).
    public func report(
        by grouping: LedgerReport.Grouping = .category, from: Date? = nil, to: Date? = nil
    )
        throws -> LedgerReport
    {
        var report = try totals(by: grouping, from: from, to: to)
        if grouping == .month, try !budgets().isEmpty {
            let lines = try budgetLines(
                months: report.groups.map(\.name), spending: monthlySpending(from: from, to: to))
            for index in report.groups.indices {
                report.groups[index].budgets = lines[report.groups[index].name] ?? []
            }
        }
        return report
    }

    /// The report's totals, without budgets.
    private func totals(by grouping: LedgerReport.Grouping, from: Date?, to: Date?) throws
        -> LedgerReport
    {
        let parts = try Self.dateRange(from: from, to: to)
        let predicate = parts.isEmpty ? nil : FetchPredicate.and(parts)
        return try read { context in
            guard
                let (rows, entity) = try savedRows("Transaction", in: context, predicate: predicate)
            else {
                return try objectReport(in: context, predicate: predicate, by: grouping)
            }
            let categories = grouping == .category ? try savedRows("Category", in: context) : nil
            return try Self.report(rows: rows, of: entity, categories: categories, by: grouping)
        }
    }

    /// The report from managed objects: the general path, which sees unsaved changes.
    func objectReport(
        in context: ManagedObjectContext, predicate: FetchPredicate?,
        by grouping: LedgerReport.Grouping
    )
        throws -> LedgerReport
    {
        let request = FetchRequest<Transaction>(entityName: "Transaction")
        request.predicate = predicate
        return LedgerReport(try context.fetch(request), by: grouping)
    }

    /// The report from saved transaction rows; `categories` holds the category rows when
    /// grouping by category.
    static func report(
        rows: [StoreRow], of transaction: EntityDescription,
        categories: (rows: [StoreRow], entity: EntityDescription)?,
        by grouping: LedgerReport.Grouping
    ) throws -> LedgerReport {
        guard let amount = transaction.propertiesByName["amount"]?.index,
            let kind = transaction.propertiesByName["kind"]?.index,
            let date = transaction.propertiesByName["date"]?.index,
            let link = transaction.propertiesByName["category"]?.index
        else {
            throw LedgerErrors.notALedger("report")
        }
        var groups = GroupIndex()
        // Each category's position in `categoryNames`, by object ID, and its group number
        // once a transaction uses it (a category without transactions makes no group).
        var categoryOfID: [ManagedObjectID: Int] = [:]
        var categoryNames: [String] = []
        if let categories, let name = categories.entity.propertiesByName["name"]?.index {
            for row in categories.rows {
                if case .string(let text) = row.values[name].attributeValue {
                    categoryOfID[row.objectID] = categoryNames.count
                    categoryNames.append(text)
                }
            }
        }
        var groupOfCategory = [Int](repeating: -1, count: categoryNames.count)
        // Each month's group number, by months since year 0.
        var groupOfMonth: [Int: Int] = [:]
        for row in rows {
            let group: Int
            switch grouping {
            case .category:
                if case .toOne(let id?) = row.values[link], let category = categoryOfID[id] {
                    if groupOfCategory[category] < 0 {
                        groupOfCategory[category] = groups.index(of: categoryNames[category])
                    }
                    group = groupOfCategory[category]
                } else {
                    group = groups.index(of: LedgerReport.uncategorised)
                }
            case .month:
                if case .attribute(.date(let day)) = row.values[date] {
                    let (y, m, _) = LedgerDates.civil(day)
                    if let known = groupOfMonth[y * 12 + m] {
                        group = known
                    } else {
                        group = groups.index(of: LedgerDates.month(day))
                        groupOfMonth[y * 12 + m] = group
                    }
                } else {
                    group = groups.index(of: LedgerReport.undated)
                }
            }
            let isIncome: Bool
            if case .attribute(.string(let text)) = row.values[kind] {
                isIncome = text == TransactionKind.income.rawValue
            } else {
                isIncome = false
            }
            if case .attribute(.decimal(let value)) = row.values[amount] {
                groups.totals[group].add(value, income: isIncome)
            } else {
                groups.totals[group].add(0, income: isIncome)
            }
        }
        return LedgerReport(groups, by: grouping)
    }
}
