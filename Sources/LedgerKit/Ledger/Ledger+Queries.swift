import Foundation
import ObjectGraph

extension Ledger {
    /// The transactions `query` selects, in its order.
    ///
    /// - Throws: ``ObjectGraphError`` — `.coreData` (134060) for a predicate that does not
    ///   parse or does not fit `Transaction` (the message names the position), or an
    ///   unknown category.
    /// - Complexity: O(n log n) in the number of transactions.
    public func transactions(_ query: TransactionQuery = TransactionQuery()) throws -> [TransactionRecord] {
        let predicate = try query.predicate.map { try FetchPredicate(format: $0) }
        return try read { context in
            let category = try query.category.map { try Self.requireCategory($0, in: context) }
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            request.predicate = predicate
            request.sortDescriptors = (query.sort.isEmpty ? [TransactionSort(.date)] : query.sort).map(\.descriptor)
            var selected = try context.fetch(request).lazy.filter { t in
                (category == nil || t.category === category) && Self.isWithin(t.date, from: query.from, to: query.to)
            }.map(TransactionRecord.init)[...]
            if let limit = query.limit { selected = selected.prefix(limit) }
            return Array(selected)
        }
    }

    /// Totals out, in and net, overall and per group, of the transactions between two
    /// calendar dates (inclusive).
    ///
    /// - Throws: store errors.
    /// - Complexity: O(n) in the number of transactions, plus sorting the groups.
    public func report(by grouping: LedgerReport.Grouping = .category, from: Date? = nil, to: Date? = nil)
        throws -> LedgerReport
    {
        try read { context in
            let all = try Self.allTransactions(in: context)
            let selected = from == nil && to == nil ? all : all.filter { Self.isWithin($0.date, from: from, to: to) }
            return LedgerReport(selected, by: grouping)
        }
    }

    /// How many transactions and categories the ledger holds.
    ///
    /// - Throws: store errors.
    public func counts() throws -> (transactions: Int, categories: Int) {
        try read { context in
            (
                try context.count(for: FetchRequest<Transaction>(entityName: "Transaction")),
                try context.count(for: FetchRequest<Category>(entityName: "Category"))
            )
        }
    }

    static func isWithin(_ date: Date?, from: Date?, to: Date?) -> Bool {
        guard from != nil || to != nil else { return true }
        guard let date else { return false }
        if let from, date < from { return false }
        if let to, date > to { return false }
        return true
    }
}
