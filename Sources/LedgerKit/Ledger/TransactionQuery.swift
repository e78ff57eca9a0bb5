import Foundation
import ObjectGraph

/// Which transactions `ledger list` shows, in which order, how many.
///
/// ```swift
/// var query = TransactionQuery()
/// query.predicate = "amount > 50 AND payee CONTAINS[c] 'market'"
/// query.from = LedgerDates.parse("2026-11-01")
/// query.sort = [try TransactionSort(argument: "amount:desc")]
/// query.limit = 10
/// ```
public struct TransactionQuery: Sendable, Hashable {
    /// A predicate in the predicate language, over `Transaction` (`amount`, `kind`, `date`,
    /// `note`, `payee`, `isCleared`, `category.name`, …); `nil` for all.
    public var predicate: String?
    /// Only transactions in this category (matched as categories are); `nil` for all.
    public var category: String?
    /// Only transactions on or after this calendar date.
    public var from: Date?
    /// Only transactions on or before this calendar date.
    public var to: Date?
    /// The order; empty means by date, oldest first. Ties keep the order of entry.
    public var sort: [TransactionSort]
    /// At most this many; `nil` for all.
    public var limit: Int?

    /// All transactions, by date.
    public init() {
        sort = []
    }
}

/// One sort key of `ledger list --sort KEY[:desc]`.
public struct TransactionSort: Sendable, Hashable, CustomStringConvertible {
    /// What to sort by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The date.
        case date
        /// The amount (unsigned).
        case amount
        /// Expense before income.
        case kind
        /// The payee, ignoring case.
        case payee
        /// The note, ignoring case.
        case note
        /// The category's name, ignoring case.
        case category
        /// Uncleared before cleared.
        case cleared

        /// The key path sorted on.
        var keyPath: String {
            switch self {
            case .category: "category.name"
            case .cleared: "isCleared"
            default: rawValue
            }
        }
    }

    /// What to sort by.
    public var key: Key
    /// Smallest first (the default) or largest first.
    public var ascending: Bool

    /// A sort key.
    public init(_ key: Key, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// Reads `KEY`, `KEY:asc` or `KEY:desc`.
    ///
    /// - Throws: ``LedgerError`` `.badValue` naming the text and the keys.
    public init(argument: String) throws {
        let parts = argument.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            .map(String.init)
        let direction = parts.count == 2 ? parts[1].lowercased() : "asc"
        guard let key = Key(rawValue: parts[0].lowercased()),
            direction == "asc" || direction == "desc"
        else {
            throw LedgerErrors.badValue(
                "--sort", argument,
                expected: "KEY or KEY:desc with KEY one of "
                    + Key.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.init(key, ascending: direction == "asc")
    }

    /// `amount:desc`.
    public var description: String { key.rawValue + (ascending ? "" : ":desc") }

    /// The engine's sort descriptor for this key.
    var descriptor: FetchSortDescriptor {
        switch key {
        case .payee, .note, .category:
            FetchSortDescriptor(
                key: key.keyPath, ascending: ascending, comparison: .caseInsensitive)
        default:
            FetchSortDescriptor(key: key.keyPath, ascending: ascending)
        }
    }
}
