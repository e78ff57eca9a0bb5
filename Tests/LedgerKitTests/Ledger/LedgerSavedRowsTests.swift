import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerSavedRowsTests {
    @Test func savedRowsAndObjectsGiveTheSameIdentitiesAndKeys() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.importCSV(
            CSVFixtures.url("identical-rows.csv"), options: LedgerImportTests.signed)
        _ = try ledger.addTransaction(TransactionDraft(amount: 3))
        let fromRows = try ledger.transactionIdentities()
        let fromObjects = try ledger.read { context in
            try Ledger.allTransactions(in: context).map { ($0.id!, $0.objectID) }
        }
        #expect(fromRows.map(\.id) == fromObjects.map(\.0))
        #expect(fromRows.map(\.objectID) == fromObjects.map(\.1))
        #expect(try ledger.read { try ledger.savedRows("Transaction", in: $0)?.rows.count } == 5)
    }

    @Test func unsavedChangesInTheRootSendReadsToTheObjects() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addTransaction(TransactionDraft(amount: 3, date: day("2026-11-01")))
        let bypassed = try ledger.read { context -> Bool in
            let pending = Transaction(context: context)
            pending.id = UUID()
            pending.amount = 4
            pending.date = day("2026-11-02")
            return try ledger.savedRows("Transaction", in: context) != nil
        }
        #expect(!bypassed)
        #expect(try ledger.report().transactions == 2)
        #expect(try ledger.report().out == 7)
        #expect(try ledger.transactionIdentities().count == 2)
        ledger.context.performAndWait { ledger.context.rollback() }
        #expect(try ledger.report().transactions == 1)
    }
}
