import Foundation
import ObjectGraph

extension Ledger {
    /// Money out per month and category, and money in per month, of the transactions
    /// between two calendar dates (inclusive); undated ones are left out.
    ///
    /// Read from the store's rows when the root context has no unsaved changes, else from
    /// the objects (as ``report(by:from:to:)``).
    ///
    /// - Throws: store errors.
    /// - Complexity: O(transactions + categories).
    func monthlySpending(from: Date? = nil, to: Date? = nil) throws -> MonthlySpending {
        let parts = try Self.dateRange(from: from, to: to)
        let predicate = parts.isEmpty ? nil : FetchPredicate.and(parts)
        return try read { context in
            var spending = MonthlySpending()
            guard
                let (rows, entity) = try savedRows(
                    "Transaction", in: context, predicate: predicate),
                let amount = entity.propertiesByName["amount"]?.index,
                let kind = entity.propertiesByName["kind"]?.index,
                let date = entity.propertiesByName["date"]?.index,
                let link = entity.propertiesByName["category"]?.index,
                let (categories, categoryEntity) = try savedRows("Category", in: context),
                let name = categoryEntity.propertiesByName["name"]?.index
            else {
                let request = FetchRequest<Transaction>(entityName: "Transaction")
                request.predicate = predicate
                for t in try context.fetch(request) {
                    guard let day = t.date else { continue }
                    spending.add(
                        month: LedgerDates.month(day), category: t.category?.name,
                        income: t.isIncome, amount: t.amount)
                }
                return spending
            }
            var names: [ManagedObjectID: String] = [:]
            for row in categories {
                if case .string(let text) = row.values[name].attributeValue {
                    names[row.objectID] = text
                }
            }
            for row in rows {
                guard case .attribute(.date(let day)) = row.values[date],
                    case .attribute(.decimal(let value)) = row.values[amount]
                else { continue }
                var category: String?
                if case .toOne(let id?) = row.values[link] { category = names[id] }
                var income = false
                if case .attribute(.string(let text)) = row.values[kind] {
                    income = text == TransactionKind.income.rawValue
                }
                spending.add(
                    month: LedgerDates.month(day), category: category, income: income,
                    amount: value)
            }
            return spending
        }
    }
}
