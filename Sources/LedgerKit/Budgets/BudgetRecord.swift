import Foundation

/// A category's monthly budget, copied out of its context.
public struct BudgetRecord: Sendable, Hashable {
    /// The budgeted category's name.
    public var category: String
    /// The amount budgeted per calendar month, at least 0.01.
    public var monthlyAmount: Decimal

    /// Copies the values of `budget` (on its context's queue).
    init(_ budget: Budget) {
        category = budget.category?.name ?? ""
        monthlyAmount = budget.monthlyAmount
    }

    /// The object `budget list --json` prints: `{"category", "monthlyAmount"}`, the amount
    /// as a decimal string with two decimals.
    public var jsonObject: [String: Any] {
        ["category": category, "monthlyAmount": Money.format(monthlyAmount)]
    }
}

/// One budgeted category in one month: what was budgeted, spent and is left.
public struct BudgetLine: Sendable, Equatable {
    /// The category's name.
    public var category: String
    /// The monthly budget.
    public var budget: Decimal
    /// Money out in the category that month (income is not subtracted).
    public var spent: Decimal
    /// The budget minus what was spent: negative when over budget.
    public var left: Decimal { budget - spent }
    /// Whether more was spent than budgeted.
    public var isOver: Bool { spent > budget }

    /// `{"amount", "spent", "left", "over"}`, amounts as decimal strings.
    public var jsonObject: [String: Any] {
        [
            "amount": Money.format(budget), "spent": Money.format(spent),
            "left": Money.format(left), "over": isOver,
        ]
    }
}
