import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerImportTests {
    static let signed = ImportOptions(
        dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"])

    @Test func identicalRowsAllImportAndASecondImportAddsNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let file = CSVFixtures.url("identical-rows.csv")
        let first = try ledger.importCSV(file, options: Self.signed)
        #expect(first.added.count == 4)
        #expect(first.alreadyPresent == 0)
        #expect(first.out == 10)
        let second = try ledger.importCSV(file, options: Self.signed)
        #expect(second.added.isEmpty)
        #expect(second.alreadyPresent == 4)
        let stored = try ledger.transactions()
        #expect(stored.count == 4)
        #expect(stored.map(\.payee) == ["Coffee", "Coffee", "Tea", "Coffee"])
        #expect(Set(stored.compactMap(\.importKey)).count == 4)
    }

    @Test func aDryRunWritesNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let summary = try ledger.importCSV(
            CSVFixtures.url("identical-rows.csv"), options: Self.signed, dryRun: true)
        #expect(summary.isDryRun)
        #expect(summary.added.count == 4)
        #expect(try ledger.transactions().isEmpty)
        let preview = try Ledger.previewImport(
            CSVFixtures.url("identical-rows.csv"), options: Self.signed)
        #expect(preview.added == summary.added)
    }

    @Test func badRowsFailTheWholeImportUnlessSkipped() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let file = CSVFixtures.url("bad-date.csv")
        #expect {
            _ = try ledger.importCSV(file, options: Self.signed)
        } throws: { error in
            message(of: error).contains(
                ":3: bad date \"2026-13-01\" in column 1 (\"Date\"): month 13 is not 1–12")
        }
        #expect(try ledger.transactions().isEmpty)
        var skipping = Self.signed
        skipping.skipBadRows = true
        let summary = try ledger.importCSV(file, options: skipping)
        #expect(summary.added.count == 2)
        #expect(summary.result.skipped.map(\.line) == [3, 4])
        #expect(try ledger.transactions().map(\.amount) == [1, 4])
    }

    @Test func importedRowsAreEditableAndAReimportKeepsTheEdits() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let file = CSVFixtures.url("identical-rows.csv")
        _ = try ledger.addCategory(name: "Drinks")
        let first = try ledger.importCSV(file, options: Self.signed)
        #expect(first.added.count == 4)
        let tea = try #require(try ledger.transactions().first { $0.payee == "Tea" })
        var changes = TransactionChanges()
        changes.category = "Drinks"
        changes.note = "green"
        _ = try ledger.editTransaction(tea.idString, changes)
        _ = try ledger.importCSV(file, options: Self.signed)
        let after = try #require(try ledger.transactions().first { $0.payee == "Tea" })
        #expect(after.category == "Drinks")
        #expect(after.note == "green")
        #expect(try ledger.transactions().count == 4)
    }
}
