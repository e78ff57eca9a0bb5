import Foundation

/// The category an import or `ledger categorize` gives a transaction, and why.
public struct CategoryDecision: Sendable, Hashable, CustomStringConvertible {
    /// Why a transaction gets its category.
    public enum Source: Sendable, Hashable {
        /// The export's own category column (`--category-column`).
        case column
        /// The first matching rule, by its number.
        case rule(Int)
        /// The payee's history: `count` of its `total` categorised transactions have the
        /// category.
        case learned(count: Int, total: Int)
        /// Nothing applied: the transaction stays uncategorised.
        case none
    }

    /// The category's name, or `nil` for none.
    public var category: String?
    /// Why.
    public var source: Source

    /// Creates a decision.
    public init(category: String?, source: Source) {
        self.category = category
        self.source = source
    }

    /// No category.
    public static let uncategorised = CategoryDecision(category: nil, source: .none)

    /// `column`, `rule 3`, `learned from 14 of 15` or `none`.
    public var description: String {
        switch source {
        case .column: "column"
        case .rule(let number): "rule \(number)"
        case .learned(let count, let total): "learned from \(count) of \(total)"
        case .none: "none"
        }
    }

    /// `{"category": name or null, "reason": "rule 3"}`.
    public var jsonObject: [String: Any] {
        ["category": category.map { $0 as Any } ?? NSNull(), "reason": description]
    }
}
