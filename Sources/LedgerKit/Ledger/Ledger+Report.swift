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
    /// - Throws: store errors.
    /// - Complexity: O(n) in the number of transactions, plus sorting the groups.
    public func report(by grouping: LedgerReport.Grouping = .category, from: Date? = nil, to: Date? = nil)
        throws -> LedgerReport
    {
        let parts = try Self.dateRange(from: from, to: to)
        let predicate = parts.isEmpty ? nil : FetchPredicate.and(parts)
        return try read { context in
            let stores = container.persistentStoreCoordinator.persistentStores
            if !context.hasChanges, stores.count == 1 {
                return try Self.report(rowsOf: stores[0], predicate: predicate, by: grouping)
            }
            return try objectReport(in: context, predicate: predicate, by: grouping)
        }
    }

    /// The report from managed objects: the general path, which sees unsaved changes.
    func objectReport(in context: ManagedObjectContext, predicate: FetchPredicate?, by grouping: LedgerReport.Grouping)
        throws -> LedgerReport
    {
        let request = FetchRequest<Transaction>(entityName: "Transaction")
        request.predicate = predicate
        return LedgerReport(try context.fetch(request), by: grouping)
    }

    /// The report from the rows `store` holds (saved state only).
    static func report(rowsOf store: any PersistentStore, predicate: FetchPredicate?, by grouping: LedgerReport.Grouping)
        throws -> LedgerReport
    {
        let model = store.model
        guard let transaction = model.entitiesByName["Transaction"], let category = model.entitiesByName["Category"],
            let amount = transaction.propertiesByName["amount"]?.index,
            let kind = transaction.propertiesByName["kind"]?.index,
            let date = transaction.propertiesByName["date"]?.index,
            let link = transaction.propertiesByName["category"]?.index,
            let name = category.propertiesByName["name"]?.index
        else {
            throw ObjectGraphError(.coreData, "report: the store's model is not a ledger's")
        }
        var names: [ManagedObjectID: String] = [:]
        if grouping == .category {
            for row in try store.fetch(StoreFetchRequest(entity: category)) {
                if case .string(let text) = row.values[name].attributeValue { names[row.objectID] = text }
            }
        }
        let rows = try store.fetch(StoreFetchRequest(entity: transaction, predicate: predicate))
        return LedgerReport(
            entries: rows.lazy.map { row -> (String, Bool, Decimal) in
                let group: String
                switch grouping {
                case .category:
                    if case .toOne(let id?) = row.values[link] {
                        group = names[id] ?? LedgerReport.uncategorised
                    } else {
                        group = LedgerReport.uncategorised
                    }
                case .month:
                    if case .date(let day) = row.values[date].attributeValue {
                        group = LedgerDates.month(day)
                    } else {
                        group = LedgerReport.undated
                    }
                }
                let isIncome = row.values[kind].attributeValue == .string(TransactionKind.income.rawValue)
                guard case .decimal(let value) = row.values[amount].attributeValue else { return (group, isIncome, 0) }
                return (group, isIncome, value)
            }, by: grouping)
    }
}
