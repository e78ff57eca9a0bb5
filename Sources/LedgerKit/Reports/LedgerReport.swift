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

    /// Builds a report from transactions.
    public init(_ items: [Transaction], by grouping: Grouping) {
        var totals: [String: Group] = [:]
        var out: Decimal = 0, income: Decimal = 0
        for t in items {
            let key: String
            switch grouping {
            case .category: key = t.category?.name ?? "(none)"
            case .month: key = t.date.map(LedgerDates.month) ?? "(no date)"
            }
            var group = totals[key] ?? Group(name: key, transactions: 0, out: 0, in: 0)
            group.transactions += 1
            if t.isIncome { group.in += t.amount; income += t.amount } else { group.out += t.amount; out += t.amount }
            totals[key] = group
        }
        self.transactions = items.count
        self.out = out
        self.in = income
        switch grouping {
        case .category:
            groups = totals.values.sorted { ($0.out, $1.name) > ($1.out, $0.name) }
        case .month:
            groups = totals.values.sorted { $0.name < $1.name }
        }
    }

    /// The object `report --json` prints: `{"transactions": N, "out": "353.47", "in":
    /// "203.90", "net": "-149.57", "groups": [{"name", "transactions", "out", "in", "net"}]}`,
    /// amounts as decimal strings with two decimals.
    public var jsonObject: [String: Any] {
        [
            "transactions": transactions, "out": Money.format(out), "in": Money.format(self.in),
            "net": Money.format(net),
            "groups": groups.map { g -> [String: Any] in
                [
                    "name": g.name, "transactions": g.transactions, "out": Money.format(g.out),
                    "in": Money.format(g.in), "net": Money.format(g.net),
                ]
            },
        ]
    }

    /// The report as aligned text with a bar chart of money out.
    public func text(title: String) -> String {
        let width = max(12, groups.map(\.name.count).max() ?? 0)
        func label(_ s: String) -> String { s.padding(toLength: width, withPad: " ", startingAt: 0) }
        var lines = [title, "", label("") + "  " + "out".leftPadded(10) + "  " + "in".leftPadded(10)]
        let maxOut = groups.map(\.out).max() ?? 0
        for g in groups {
            let bars = maxOut > 0 ? Int((NSDecimalNumber(decimal: g.out / maxOut).doubleValue * 30).rounded()) : 0
            lines.append(label(g.name) + "  " + Money.format(g.out).leftPadded(10) + "  "
                + Money.format(g.in).leftPadded(10) + "  " + String(repeating: "█", count: bars))
        }
        lines.append("")
        lines.append(label("transactions") + "  " + "\(transactions)".leftPadded(10))
        lines.append(label("total") + "  " + Money.format(out).leftPadded(10) + "  " + Money.format(self.in).leftPadded(10))
        lines.append(label("net") + "  " + Money.format(net).leftPadded(10))
        return lines.joined(separator: "\n")
    }
}

/// Money formatting: two decimals, `.` separator, exact (Decimal rounding, bankers' never).
public enum Money {
    /// `12.5` → `"12.50"`, `-149.57` → `"-149.57"`.
    public static func format(_ value: Decimal) -> String {
        var v = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &v, 2, .plain)
        let negative = rounded < 0
        let magnitude = negative ? -rounded : rounded
        let text = NSDecimalNumber(decimal: magnitude).stringValue
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? "0"
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count < 2 { fraction += "0" }
        return (negative ? "-" : "") + whole + "." + fraction.prefix(2)
    }
}

/// Calendar dates in UTC, so a report never shifts a day.
public enum LedgerDates {
    /// A Gregorian calendar in UTC.
    public static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    /// `YYYY-MM-DD` of `date` in UTC.
    public static func day(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// `YYYY-MM` of `date` in UTC.
    public static func month(_ date: Date) -> String { String(day(date).prefix(7)) }

    /// The UTC midnight of a `YYYY-MM-DD` string, or `nil` when it is not a real date.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let components = DateComponents(year: y, month: m, day: d)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
