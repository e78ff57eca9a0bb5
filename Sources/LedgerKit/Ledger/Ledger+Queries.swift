import Foundation
import ObjectGraph

extension Ledger {
    /// The transactions `query` selects, in its order.
    ///
    /// - Throws: ``ObjectGraphError`` — a predicate's reason (`.predicateSyntax`,
    ///   `.predicateUnknownKey`, …) when it does not parse or does not fit `Transaction` (the
    ///   message names the position); ``LedgerError`` `.unknownCategory`.
    /// - Complexity: O(n log n) in the number of transactions.
    public func transactions(_ query: TransactionQuery = TransactionQuery()) throws
        -> [TransactionRecord]
    {
        let user = try query.predicate.map { try FetchPredicate(format: $0) }
        return try read { context in
            var parts = user.map { [$0] } ?? []
            if let name = query.category {
                parts.append(
                    try FetchPredicate(
                        format: "category == %@", try Self.requireCategory(name, in: context)))
            }
            parts += try Self.dateRange(from: query.from, to: query.to)
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            request.predicate = parts.isEmpty ? nil : .and(parts)
            request.sortDescriptors = (query.sort.isEmpty ? [TransactionSort(.date)] : query.sort)
                .map(\.descriptor)
            request.fetchLimit = query.limit ?? 0
            return try context.fetch(request).map(TransactionRecord.init)
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

    /// `date >= from` and `date <= to`, for the bounds given.
    static func dateRange(from: Date?, to: Date?) throws -> [FetchPredicate] {
        var parts: [FetchPredicate] = []
        if let from { parts.append(try FetchPredicate(format: "date >= %@", from)) }
        if let to { parts.append(try FetchPredicate(format: "date <= %@", to)) }
        return parts
    }
}
