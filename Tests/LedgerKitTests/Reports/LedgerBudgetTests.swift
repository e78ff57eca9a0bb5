import Foundation
import Testing

@testable import LedgerKit

/// Monthly budgets and the report by month that shows them.
@Suite struct LedgerBudgetTests {
    static func ledger(_ sandbox: LedgerSandbox) throws -> Ledger {
        let ledger = try sandbox.ramLedger()
        for name in ["Groceries", "Eating out"] { _ = try ledger.addCategory(name: name) }
        for (date, amount, category, kind) in [
            ("2026-10-03", "120.00", "Groceries", TransactionKind.expense),
            ("2026-10-20", "95.50", "Groceries", .expense),
            ("2026-10-21", "10.00", "Groceries", .income),
            ("2026-10-22", "30.00", "Eating out", .expense),
            ("2026-11-02", "80.25", "Groceries", .expense),
            ("2026-11-05", "12.00", nil, .expense),
        ] as [(String, String, String?, TransactionKind)] {
            _ = try ledger.addTransaction(
                TransactionDraft(
                    amount: dec(amount), kind: kind, category: category, date: day(date)))
        }
        return ledger
    }

    @Test func setReplacesAndDeleteRemovesABudget() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        _ = try ledger.setBudget(category: "groceries", amount: 150)
        let replaced = try ledger.setBudget(category: "Groceries", amount: 200)
        #expect(replaced.category == "Groceries")
        #expect(try ledger.budgets().map(\.monthlyAmount) == [200])
        #expect(try ledger.deleteBudget(category: "Groceries").monthlyAmount == 200)
        let error = #expect(throws: LedgerError.self) {
            try ledger.deleteBudget(category: "Groceries")
        }
        #expect(error?.reason == .unknownBudget)
        #expect(throws: LedgerError.self) { try ledger.setBudget(category: "Nope", amount: 5) }
        #expect(try ledger.budgets().isEmpty)
    }

    @Test func theReportByMonthShowsBudgetSpentAndLeftPerMonth() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        _ = try ledger.setBudget(category: "Groceries", amount: 200)
        _ = try ledger.setBudget(category: "Eating out", amount: dec("40.00"))
        let report = try ledger.report(by: .month)
        #expect(report.groups.map(\.name) == ["2026-10", "2026-11"])
        // Spent counts money out only: the 10.00 refund is income, not subtracted.
        #expect(
            report.groups[0].budgets == [
                BudgetLine(category: "Eating out", budget: 40, spent: 30),
                BudgetLine(category: "Groceries", budget: 200, spent: dec("215.50")),
            ])
        #expect(report.groups[0].budgets[1].isOver)
        #expect(report.groups[0].budgets[1].left == dec("-15.50"))
        #expect(report.groups[1].budgets.map(\.spent) == [0, dec("80.25")])
        let json = try #require(report.jsonObject["groups"] as? [[String: Any]])
        let october = try #require(json[0]["budget"] as? [String: [String: Any]])
        #expect(october["Groceries"]?["amount"] as? String == "200.00")
        #expect(october["Groceries"]?["spent"] as? String == "215.50")
        #expect(october["Groceries"]?["left"] as? String == "-15.50")
        #expect(october["Groceries"]?["over"] as? Bool == true)
        #expect(october["Eating out"]?["over"] as? Bool == false)
        // By category there are no budget lines.
        #expect(try ledger.report(by: .category).groups.allSatisfy { $0.budgets.isEmpty })
        // The object path (unsaved changes in the root) gives the same numbers.
        let objects = try ledger.read { context in
            try ledger.budgetLines(
                months: ["2026-10"], spending: ledger.monthlySpending())
        }
        #expect(objects["2026-10"] == report.groups[0].budgets)
    }

    @Test func overBudgetLinesAreMarkedAlwaysAndRedOnlyWithColour() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        _ = try ledger.setBudget(category: "Groceries", amount: 200)
        let report = try ledger.report(by: .month)
        let plain = report.budgetLines(color: false)
        #expect(
            plain == [
                "budgets  category       budget       spent        left",
                "2026-10  Groceries      200.00      215.50      -15.50  OVER",
                "2026-11  Groceries      200.00       80.25      119.75",
            ])
        let coloured = report.budgetLines(color: true)
        #expect(coloured[1] == "\u{1B}[31m" + plain[1] + "\u{1B}[0m")
        #expect(coloured[2] == plain[2])
        #expect(try ledger.report(by: .category).budgetLines(color: true).isEmpty)
    }
}
