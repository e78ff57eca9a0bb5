import Foundation
import ObjectGraph

/// Totals of money out, in and net, overall and per group (category or month).
public struct LedgerReport: Sendable, Equatable {
    /// One group's totals.
    public struct Group: Sendable, Equatable {
        /// The category name (`"(none)"` for uncategorised) or the month (`YYYY-MM`).
        public var name: String
        /// How many transactions.
        public var transactions: Int
        /// Money out.
        public var out: Decimal
        /// Money in.
        public var `in`: Decimal
        /// In minus out.
        public var net: Decimal { self.in - out }
        /// By month: each budgeted category's budget, spending and what is left that month,
        /// by category name; empty otherwise.
        public var budgets: [BudgetLine] = []
    }

    /// How transactions are grouped.
    public enum Grouping: String, Sendable, CaseIterable {
        /// By category name.
        case category
        /// By calendar month (UTC).
        case month
    }

    /// How many transactions.
    public var transactions: Int
    /// Money out.
    public var out: Decimal
    /// Money in.
    public var `in`: Decimal
    /// In minus out.
    public var net: Decimal { self.in - out }
    /// The groups, largest money out first (by category) or chronological (by month).
    public var groups: [Group]

    /// Builds a report from transactions (read on their context's queue).
    ///
    /// - Complexity: O(n) plus sorting the groups.
    public init(_ items: [Transaction], by grouping: Grouping) {
        self.init(
            entries: items.lazy.map { t in
                let group =
                    switch grouping {
                    case .category: t.category?.name ?? Self.uncategorised
                    case .month: t.date.map(LedgerDates.month) ?? Self.undated
                    }
                return (group, t.isIncome, t.amount)
            }, by: grouping)
    }

    /// Builds a report from `(group, isIncome, amount)` entries.
    ///
    /// - Complexity: O(n) plus sorting the groups.
    init(entries: some Sequence<(String, Bool, Decimal)>, by grouping: Grouping) {
        var groups = GroupIndex()
        for (key, isIncome, amount) in entries {
            groups.totals[groups.index(of: key)].add(amount, income: isIncome)
        }
        self.init(groups, by: grouping)
    }

    /// Builds a report from accumulated groups.
    ///
    /// - Complexity: O(g log g) in the number of groups.
    init(_ accumulated: GroupIndex, by grouping: Grouping) {
        let totals = zip(accumulated.names, accumulated.totals).map { name, sums in
            Group(
                name: name, transactions: sums.transactions, out: sums.out.value, in: sums.in.value)
        }
        var all = GroupTotals()
        for sums in accumulated.totals { all.merge(sums) }
        self.transactions = all.transactions
        self.out = all.out.value
        self.in = all.in.value
        switch grouping {
        case .category:
            groups = totals.sorted { ($0.out, $1.name) > ($1.out, $0.name) }
        case .month:
            groups = totals.sorted { $0.name < $1.name }
        }
    }

    /// The group name of transactions without a category.
    static let uncategorised = "(none)"
    /// The group name of transactions without a date.
    static let undated = "(no date)"

    /// The object `report --json` prints: `{"transactions": N, "out": "353.47", "in":
    /// "203.90", "net": "-149.57", "groups": [{"name", "transactions", "out", "in", "net"}]}`,
    /// amounts as decimal strings with two decimals. A month with budgets adds `"budget":
    /// {"Groceries": {"amount", "spent", "left", "over"}}`, one object per budgeted category.
    public var jsonObject: [String: Any] {
        [
            "transactions": transactions, "out": Money.format(out), "in": Money.format(self.in),
            "net": Money.format(net),
            "groups": groups.map { g -> [String: Any] in
                var object: [String: Any] = [
                    "name": g.name, "transactions": g.transactions, "out": Money.format(g.out),
                    "in": Money.format(g.in), "net": Money.format(g.net),
                ]
                if !g.budgets.isEmpty {
                    object["budget"] = Dictionary(
                        g.budgets.map { ($0.category, $0.jsonObject as Any) },
                        uniquingKeysWith: { first, _ in first })
                }
                return object
            },
        ]
    }

    /// The report as aligned text with a bar chart of money out.
    public func text(title: String) -> String {
        let width = max(12, groups.map(\.name.count).max() ?? 0)
        func label(_ s: String) -> String {
            s.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        var lines = [
            title, "", label("") + "  " + "out".leftPadded(10) + "  " + "in".leftPadded(10),
        ]
        let maxOut = groups.map(\.out).max() ?? 0
        for g in groups {
            let bars =
                maxOut > 0
                ? Int((NSDecimalNumber(decimal: g.out / maxOut).doubleValue * 30).rounded()) : 0
            lines.append(
                label(g.name) + "  " + Money.format(g.out).leftPadded(10) + "  "
                    + Money.format(g.in).leftPadded(10) + "  " + String(repeating: "█", count: bars)
            )
        }
        lines.append("")
        lines.append(label("transactions") + "  " + "\(transactions)".leftPadded(10))
        lines.append(
            label("total") + "  " + Money.format(out).leftPadded(10) + "  "
                + Money.format(self.in).leftPadded(10))
        lines.append(label("net") + "  " + Money.format(net).leftPadded(10))
        return lines.joined(separator: "\n")
    }
}
