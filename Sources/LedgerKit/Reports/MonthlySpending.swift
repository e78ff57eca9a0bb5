import Foundation

/// Money out per month and category, and money in per month: what budgets and the chart
/// are drawn from.
struct MonthlySpending: Sendable, Equatable {
    /// Money out, by month (`YYYY-MM`) then category name (`"(none)"` for uncategorised).
    var out: [String: [String: Decimal]] = [:]
    /// Money in, by month.
    var `in`: [String: Decimal] = [:]

    /// The months with any transaction, oldest first.
    var months: [String] { Set(out.keys).union(self.in.keys).sorted() }

    /// Counts one transaction.
    mutating func add(month: String, category: String?, income: Bool, amount: Decimal) {
        if income {
            self.in[month, default: 0] += amount
        } else {
            out[month, default: [:]][category ?? LedgerReport.uncategorised, default: 0] += amount
        }
    }
}
