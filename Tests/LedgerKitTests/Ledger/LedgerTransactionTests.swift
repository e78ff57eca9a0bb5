import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerTransactionTests {
    @Test func addStoresEveryValueAndDefaultsTheDateToToday() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        let added = try ledger.addTransaction(
            TransactionDraft(
                amount: dec("12.50"), category: "Food", note: " lunch ", payee: "Noodle Bar"))
        #expect(added.amount == dec("12.50"))
        #expect(added.kind == .expense)
        #expect(
            LedgerDates.day(added.date)
                == LedgerDates.day(LedgerValues.calendarDay(of: LedgerSandbox.today)))
        #expect(added.note == "lunch")
        #expect(added.payee == "Noodle Bar")
        #expect(added.category == "Food")
        #expect(added.isCleared == false)
        #expect(try ledger.transactions() == [added])
    }

    @Test func anUnknownCategoryFailsAndAddsNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        #expect {
            _ = try ledger.addTransaction(TransactionDraft(amount: 1, category: "Food"))
        } throws: { error in
            message(of: error)
                == "no category named \"Food\"; add it with `ledger category add Food`"
        }
        #expect(try ledger.transactions().isEmpty)
    }

    @Test func anAmountBelowTheMinimumFailsValidationWithItsRule() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        #expect {
            _ = try ledger.addTransaction(TransactionDraft(amount: 0))
        } throws: { error in
            (error as NSError).code == 1620
                && message(of: error) == "Transaction.amount must be at least 0.01; got 0"
        }
        #expect(try ledger.transactions().isEmpty)
    }

    @Test func editChangesOnlyWhatIsGiven() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        let t = try ledger.addTransaction(
            TransactionDraft(
                amount: 5, category: "Food", date: day("2026-11-02"), note: "n", payee: "p"))
        var changes = TransactionChanges()
        changes.amount = dec("7.25")
        changes.payee = "Corner Shop"
        let edited = try ledger.editTransaction(String(t.idString.prefix(6)), changes)
        #expect(edited.amount == dec("7.25"))
        #expect(edited.payee == "Corner Shop")
        #expect(edited.note == "n")
        #expect(edited.category == "Food")
        #expect(LedgerDates.day(edited.date) == "2026-11-02")
        var clearing = TransactionChanges()
        clearing.category = ""
        clearing.note = ""
        clearing.kind = .income
        clearing.date = day("2026-10-31")
        let cleared = try ledger.editTransaction(t.idString, clearing)
        #expect(cleared.category == nil)
        #expect(cleared.note == nil)
        #expect(cleared.kind == .income)
        #expect(LedgerDates.day(cleared.date) == "2026-10-31")
        #expect(try ledger.transactions() == [cleared])
    }

    @Test func aFailedEditChangesNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let t = try ledger.addTransaction(TransactionDraft(amount: 5, payee: "p"))
        var changes = TransactionChanges()
        changes.payee = "q"
        changes.amount = dec("0.001")
        #expect {
            _ = try ledger.editTransaction(t.idString, changes)
        } throws: { ($0 as? ObjectGraphError)?.reason == .numberTooSmall }
        changes.amount = nil
        changes.category = "Missing"
        #expect {
            _ = try ledger.editTransaction(t.idString, changes)
        } throws: { ($0 as? LedgerError)?.reason == .unknownCategory }
        #expect(throws: LedgerError.self) {
            _ = try ledger.editTransaction(t.idString, changes)
        }
        #expect(try ledger.transactions() == [t])
    }

    @Test func deleteAndClearTakeSeveralPrefixesAndFailWholeOnABadOne() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let a = try ledger.addTransaction(TransactionDraft(amount: 1))
        let b = try ledger.addTransaction(TransactionDraft(amount: 2))
        let c = try ledger.addTransaction(TransactionDraft(amount: 3))
        let toggled = try ledger.toggleCleared([
            a.idString, String(b.idString.prefix(8)), a.idString,
        ])
        #expect(toggled.map(\.id) == [a.id, b.id])
        #expect(toggled.map(\.isCleared) == [true, true])
        #expect(try ledger.toggleCleared([b.idString]).map(\.isCleared) == [false])
        #expect(throws: LedgerError.self) {
            _ = try ledger.deleteTransactions([c.idString, "zz"])
        }
        #expect(try ledger.transactions().count == 3)
        let deleted = try ledger.deleteTransactions([c.idString, a.idString])
        #expect(deleted.map(\.amount) == [3, 1])
        #expect(try ledger.transactions().map(\.id) == [b.id])
    }
}
