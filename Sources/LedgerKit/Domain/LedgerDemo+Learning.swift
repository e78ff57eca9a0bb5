import Foundation
import ObjectGraph
import ObjectGraphTesting

extension LedgerDemo {
    /// What the learning part of the demo found: the rule, the new transactions'
    /// categories and why, and November's budget lines.
    public struct Learning: Sendable {
        /// The demo's rule.
        public var rule: RuleRecord
        /// Each new transaction's payee and its decision, by date.
        public var decisions: [(payee: String, decision: CategoryDecision)]
        /// The budget lines of the demo's month.
        public var report: LedgerReport

        /// The lines `ledger demo` prints.
        public var lines: [String] {
            let width = decisions.map(\.payee.count).max() ?? 0
            return [
                "", "Categorisation and budgets (the same sample, RAM store)",
                "rule \(rule.number): payee or note contains \"\(rule.pattern)\" → \(rule.category)",
            ]
                + decisions.map { payee, decision in
                    "  " + payee.padding(toLength: width, withPad: " ", startingAt: 0) + "  → "
                        + (decision.category ?? "-") + " (\(decision))"
                } + [""] + report.budgetLines(color: false)
        }

        /// `{"rule": {…}, "categorized": [{"payee", "category", "reason"}], "budgets":
        /// [{"month", "category", "amount", "spent", "left", "over"}]}`.
        public var jsonObject: [String: Any] {
            [
                "rule": rule.jsonObject,
                "categorized": decisions.map { payee, decision -> [String: Any] in
                    var object = decision.jsonObject
                    object["payee"] = payee
                    return object
                },
                "budgets": report.groups.flatMap { group in
                    group.budgets.map { line -> [String: Any] in
                        var object = line.jsonObject
                        object["month"] = group.name
                        object["category"] = line.category
                        return object
                    }
                },
            ]
        }
    }

    /// Builds the sample ledger on a RAM store through the ``Ledger`` API, adds a rule
    /// (`metro` → Transport) and a Groceries budget of 150.00, adds three uncategorised
    /// transactions and categorises them: one by the rule, one learned from the payee's
    /// history, one left alone. Deterministic.
    ///
    /// - Throws: ``LedgerError`` or ``ObjectGraphError`` if the sample data is refused (a bug).
    public static func learn() throws -> Learning {
        var configuration = LedgerConfiguration(storeURL: URL(fileURLWithPath: "/dev/null"))
        let ids = SeededUUIDGenerator(seed: 2026, stream: "demo learning")
        configuration.newID = { ids.next() }
        configuration.today = { LedgerDates.parse("2026-11-30")! }
        let ledger = try Ledger(configuration, access: .create)
        defer { ledger.close() }
        for (name, color) in sampleCategories {
            _ = try ledger.addCategory(name: name, colorHex: color)
        }
        for (day, amount, kind, category, payee) in sampleTransactions {
            _ = try ledger.addTransaction(
                TransactionDraft(
                    amount: Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))!,
                    kind: kind, category: category, date: LedgerDates.parse(day), payee: payee))
        }
        let rule = try ledger.addRule(pattern: "metro", category: "Transport")
        _ = try ledger.setBudget(category: "Groceries", amount: 150)
        for (day, amount, payee) in [
            ("2026-11-27", "2.80", "CITY METRO *4411"), ("2026-11-28", "23.15", "MARKET HALL 0231"),
            ("2026-11-29", "9.99", "Kiosk #12"),
        ] {
            _ = try ledger.addTransaction(
                TransactionDraft(
                    amount: Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))!,
                    date: LedgerDates.parse(day), payee: payee))
        }
        let preview = try ledger.categorize(dryRun: true)
        _ = try ledger.categorize()
        let decided = Dictionary(
            uniqueKeysWithValues: preview.changes.map { ($0.transaction.payee ?? "", $0.decision) })
        let decisions = ["CITY METRO *4411", "MARKET HALL 0231", "Kiosk #12"].map {
            (payee: $0, decision: decided[$0] ?? .uncategorised)
        }
        return Learning(rule: rule, decisions: decisions, report: try ledger.report(by: .month))
    }
}
