import Foundation
import ObjectGraph

extension Ledger {
    /// The spending chart of the transactions between two calendar dates (inclusive): money
    /// out per month stacked by category, money in as a line.
    ///
    /// - Parameter title: the chart's title.
    /// - Throws: store errors.
    /// - Complexity: O(transactions + categories), plus months × categories to lay out.
    public func chart(title: String, from: Date? = nil, to: Date? = nil) throws -> SpendingChart {
        let spending = try monthlySpending(from: from, to: to)
        let colors = try read { context in
            var colors: [String: String] = [:]
            for category in try Self.allCategories(in: context) {
                if let name = category.name, let hex = category.colorHex { colors[name] = hex }
            }
            return colors
        }
        return SpendingChart(title: title, spending: spending, colors: colors)
    }
}
