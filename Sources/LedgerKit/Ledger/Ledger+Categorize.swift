import Foundation
import ObjectGraph

/// What `ledger categorize` did (or, for a dry run, would do).
public struct CategorizeSummary: Sendable {
    /// One uncategorised transaction and the decision for it.
    public struct Change: Sendable {
        /// The transaction as it was (uncategorised).
        public var transaction: TransactionRecord
        /// The category it gets, and why.
        public var decision: CategoryDecision
    }

    /// How many uncategorised transactions were considered.
    public var considered: Int
    /// The transactions that get a category, by date.
    public var changes: [Change]
    /// Whether nothing was written.
    public var isDryRun: Bool

    /// How many got a category by a rule.
    public var byRule: Int {
        changes.count { if case .rule = $0.decision.source { true } else { false } }
    }
    /// How many got a category learned from their payee's history.
    public var learned: Int {
        changes.count { if case .learned = $0.decision.source { true } else { false } }
    }

    /// The object `categorize --json` prints: `{"considered": N, "categorized": N, "byRule":
    /// N, "learned": N, "dryRun": bool, "changes": [{"id", "date", "payee", "category",
    /// "reason"}]}`.
    public var jsonObject: [String: Any] {
        [
            "considered": considered, "categorized": changes.count, "byRule": byRule,
            "learned": learned, "dryRun": isDryRun,
            "changes": changes.map { change -> [String: Any] in
                [
                    "id": change.transaction.idString,
                    "date": LedgerDates.day(change.transaction.date),
                    "payee": change.transaction.payee.map { $0 as Any } ?? NSNull(),
                    "category": change.decision.category ?? "",
                    "reason": change.decision.description,
                ]
            },
        ]
    }
}

extension Ledger {
    /// Gives uncategorised transactions a category as an import would: the first matching
    /// rule, else the category learned from the payee's history; the rest stay
    /// uncategorised. One scratchpad, saved in two steps: all or nothing.
    ///
    /// - Parameters:
    ///   - predicate: only transactions matching this predicate (over `Transaction`, as
    ///     `ledger list --where`); `nil` for every uncategorised one.
    ///   - dryRun: decide only; write nothing.
    /// - Throws: ``ObjectGraphError`` for a predicate that does not parse or fit;
    ///   ``LedgerError`` `.badValue` for a stored rule that no longer compiles; store errors.
    /// - Complexity: O(transactions + uncategorised × rules).
    public func categorize(where predicate: String? = nil, dryRun: Bool = false) throws
        -> CategorizeSummary
    {
        var parts = [try FetchPredicate(format: "category == nil")]
        if let predicate { parts.append(try FetchPredicate(format: predicate)) }
        var categorizer = try categorizer()
        let targets = try read { context in
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            request.predicate = .and(parts)
            request.sortDescriptors = [TransactionSort(.date).descriptor]
            return try context.fetch(request).map { ($0.objectID, TransactionRecord($0)) }
        }
        var ids: [ManagedObjectID] = []
        var changes: [CategorizeSummary.Change] = []
        for (id, record) in targets {
            let decision = categorizer.decide(payee: record.payee, note: record.note)
            guard decision.category != nil else { continue }
            ids.append(id)
            changes.append(.init(transaction: record, decision: decision))
        }
        let summary = CategorizeSummary(
            considered: targets.count, changes: changes, isDryRun: dryRun)
        guard !dryRun, !changes.isEmpty else { return summary }
        try change("categorize") { draft in
            let categories = try Self.categoriesByName(in: draft)
            for (transaction, change) in zip(try Self.transactions(ids, in: draft), changes) {
                guard let name = change.decision.category, let category = categories[name] else {
                    throw LedgerErrors.unknownCategory(change.decision.category ?? "")
                }
                transaction.category = category
            }
        }
        return summary
    }

    /// The categories by exact name.
    static func categoriesByName(in context: ManagedObjectContext) throws -> [String: Category] {
        var result: [String: Category] = [:]
        for category in try allCategories(in: context) {
            if let name = category.name { result[name] = category }
        }
        return result
    }
}
