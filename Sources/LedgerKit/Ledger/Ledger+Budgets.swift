import Foundation
import ObjectGraph

extension Ledger {
    /// The budgets, by category name (ignoring case).
    ///
    /// - Throws: store errors.
    public func budgets() throws -> [BudgetRecord] {
        try read { try Self.allBudgets(in: $0).map(BudgetRecord.init) }
            .sorted {
                ($0.category.lowercased(), $0.category) < ($1.category.lowercased(), $1.category)
            }
    }

    /// Sets the monthly budget of `category`, replacing any it had.
    ///
    /// - Parameters:
    ///   - category: the category (matched as ``category(named:)`` does).
    ///   - amount: the budget per calendar month, at least 0.01.
    /// - Throws: ``LedgerError`` `.unknownCategory`; the model's validation error (1610,
    ///   minimum 0.01) as an `ObjectGraphError`.
    public func setBudget(category: String, amount: Decimal) throws -> BudgetRecord {
        try change("budget set") { draft in
            let target = try Self.requireCategory(category, in: draft)
            let budget = target.budget ?? Budget(context: draft)
            budget.monthlyAmount = amount
            budget.category = target
            return BudgetRecord(budget)
        }
    }

    /// Deletes the budget of `category`.
    ///
    /// - Throws: ``LedgerError`` `.unknownCategory`, `.unknownBudget` when it has none.
    public func deleteBudget(category: String) throws -> BudgetRecord {
        try change("budget delete") { draft in
            let target = try Self.requireCategory(category, in: draft)
            guard let budget = target.budget else {
                throw LedgerErrors.unknownBudget(target.name ?? category)
            }
            let record = BudgetRecord(budget)
            draft.delete(budget)
            return record
        }
    }

    static func allBudgets(in context: ManagedObjectContext) throws -> [Budget] {
        try context.fetch(FetchRequest<Budget>(entityName: "Budget"))
    }

    /// Each month's budget lines, by month (`YYYY-MM`), for the months in `months`.
    func budgetLines(months: [String], spending: MonthlySpending) throws -> [String: [BudgetLine]] {
        let budgets = try self.budgets()
        guard !budgets.isEmpty else { return [:] }
        var result: [String: [BudgetLine]] = [:]
        for month in months {
            result[month] = budgets.map { budget in
                BudgetLine(
                    category: budget.category, budget: budget.monthlyAmount,
                    spent: spending.out[month]?[budget.category] ?? 0)
            }
        }
        return result
    }
}
