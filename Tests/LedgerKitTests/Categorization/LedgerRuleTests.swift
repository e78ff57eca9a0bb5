import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

/// Rules as entities of the ledger file; `categorize` and imports applying them.
@Suite struct LedgerRuleTests {
    /// A RAM ledger with Groceries, Transport and Salary.
    static func ledger(_ sandbox: LedgerSandbox) throws -> Ledger {
        let ledger = try sandbox.ramLedger()
        for name in ["Groceries", "Transport", "Salary"] { _ = try ledger.addCategory(name: name) }
        return ledger
    }

    @Test func rulesAreNumberedInOrderAndKeepTheirNumbersWhenOneIsDeleted() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        let first = try ledger.addRule(pattern: "metro", category: "transport")
        #expect(
            first
                == RuleRecord(
                    number: 1, pattern: "metro", field: .any, isRegex: false, category: "Transport")
        )
        _ = try ledger.addRule(
            pattern: "^market", category: "Groceries", field: .payee, isRegex: true)
        _ = try ledger.addRule(pattern: "salary", category: "Salary", field: .note)
        #expect(try ledger.deleteRule(2).pattern == "^market")
        #expect(try ledger.rules().map(\.number) == [1, 3])
        #expect(try ledger.addRule(pattern: "rail", category: "Transport").number == 4)
        #expect(throws: LedgerError.self) { try ledger.deleteRule(2) }
        #expect(LedgerErrors.unknownRule(2).message == "no rule 2; see `ledger rule list`")
    }

    @Test func aBadRegexOrAnUnknownCategoryAddsNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        let error = #expect(throws: LedgerError.self) {
            try ledger.addRule(pattern: "[a-", category: "Groceries", isRegex: true)
        }
        #expect(
            error?.message.hasPrefix("bad PATTERN \"[a-\": expected a regular expression") == true)
        #expect(throws: LedgerError.self) { try ledger.addRule(pattern: "x", category: "Nope") }
        // The same text without --regex is plain text, and fine.
        #expect(try ledger.addRule(pattern: "[a-", category: "Groceries").number == 1)
        #expect(try ledger.rules().count == 1)
    }

    @Test func deletingACategoryDeletesItsRulesAndBudget() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        _ = try ledger.addRule(pattern: "metro", category: "Transport")
        _ = try ledger.setBudget(category: "Transport", amount: 50)
        _ = try ledger.deleteCategory("Transport")
        #expect(try ledger.rules().isEmpty)
        #expect(try ledger.budgets().isEmpty)
    }

    @Test func categorizeAppliesRulesThenHistoryToUncategorisedOnly() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        func add(_ payee: String, _ category: String?, _ date: String = "2026-10-01") throws {
            _ = try ledger.addTransaction(
                TransactionDraft(amount: 10, category: category, date: day(date), payee: payee))
        }
        try add("MARKET HALL *1111", "Groceries")
        try add("Market Hall 12/10", "Groceries")
        try add("CITY METRO 4411", nil)
        try add("market hall #77", nil, "2026-11-02")
        try add("Bookshop", nil)
        _ = try ledger.addRule(pattern: "metro", category: "Transport")
        let preview = try ledger.categorize(dryRun: true)
        #expect(preview.considered == 3)
        #expect(preview.changes.map(\.decision.description) == ["rule 1", "learned from 2 of 2"])
        #expect(try ledger.transactions().filter { $0.category == nil }.count == 3)
        let limited = try ledger.categorize(where: "date >= CAST('2026-11-01', 'NSDate')")
        #expect(limited.considered == 1)
        #expect(limited.changes.first?.decision.category == "Groceries")
        let rest = try ledger.categorize()
        #expect(rest.considered == 2)
        #expect(rest.byRule == 1 && rest.learned == 0)
        let stored = try ledger.transactions()
        #expect(
            stored.map { $0.category ?? "-" } == [
                "Groceries", "Groceries", "Transport", "-", "Groceries",
            ])
    }

    @Test func theCategoryColumnWinsAndAMissingCategoryIsAnErrorNamingIt() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        _ = try ledger.addRule(pattern: "metro", category: "Transport")
        let csv = try sandbox.write(
            "cats.csv",
            "Date,Payee,Amount,Category\n2026-11-01,City Metro,-2.80,groceries\n"
                + "2026-11-02,City Metro,-2.80,\n2026-11-03,Cinema,-9.00,Fun\n"
                + "2026-11-04,Cinema,-9.00,fun\n")
        var options = ImportOptions(
            dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"])
        options.categoryColumn = "Category"
        let error = #expect(throws: LedgerError.self) {
            try ledger.importCSV(csv, options: options)
        }
        #expect(error?.reason == .unknownCategory)
        #expect(error?.line == 4)
        #expect(
            error?.message.hasSuffix(
                "cats.csv line 4: the category column names a category the ledger lacks: \"Fun\"; "
                    + "add it with `ledger category add`, or pass --create-categories") == true,
            "\(error?.message ?? "")")
        #expect(try ledger.transactions().isEmpty)
        let summary = try ledger.importCSV(csv, options: options, createCategories: true)
        #expect(summary.createdCategories == ["Fun"])
        #expect(summary.decisions.map(\.description) == ["column", "rule 1", "column", "column"])
        #expect(
            try ledger.transactions().map { $0.category ?? "-" } == [
                "Groceries", "Transport", "Fun", "Fun",
            ])
        #expect(try ledger.categories().map(\.name) == ["Fun", "Groceries", "Salary", "Transport"])
    }

    @Test func aVersion1FileMigratesOnTheFirstRuleAdded() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let url = sandbox.url("ledger.jsonl")
        try FileManager.default.copyItem(at: LedgerModelVersionTests.fixture, to: url)
        let ledger = try Ledger(sandbox.configuration(url), access: .write)
        _ = try ledger.addRule(pattern: "market", category: "Groceries")
        _ = try ledger.setBudget(category: "Rent", amount: dec("900"))
        ledger.close()
        let reopened = try Ledger(sandbox.configuration(url), access: .read)
        defer { reopened.close() }
        #expect(try reopened.rules().map(\.category) == ["Groceries"])
        #expect(try reopened.budgets().map(\.monthlyAmount) == [900])
        #expect(try reopened.counts().transactions == 3)
    }
}

/// A dry run without a ledger file still shows the export's own categories.
@Suite struct ImportPreviewCategoryTests {
    @Test func aPreviewShowsCategoryCellsAsTheCategoriesItWouldCreate() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let csv = try sandbox.write(
            "p.csv",
            "Date,Payee,Amount,Category\n2026-11-01,A,-1.00,Fun\n2026-11-02,B,-2.00,\n"
                + "2026-11-03,C,-3.00,fun\n")
        var options = ImportOptions(
            dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"])
        options.categoryColumn = "Category"
        let preview = try Ledger.previewImport(csv, options: options)
        #expect(preview.decisions.map(\.description) == ["column", "none", "column"])
        #expect(preview.decisions.map(\.category) == ["Fun", nil, "fun"])
        #expect(preview.createdCategories == ["Fun"])
    }
}
