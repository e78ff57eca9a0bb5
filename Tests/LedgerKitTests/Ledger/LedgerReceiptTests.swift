import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerReceiptTests {
    @Test func aReceiptIsCopiedAndRemovedOnlyOnceTheDeletionIsSaved() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let source = try sandbox.write("scan.pdf", "%PDF receipt")
        let t = try ledger.addTransaction(TransactionDraft(amount: 9, receipt: source))
        let stored = try #require(t.receiptPath)
        let copy = ledger.receiptURL(forStoredPath: stored)
        #expect(copy.lastPathComponent == t.idString + ".pdf")
        #expect(try String(contentsOf: copy, encoding: .utf8) == "%PDF receipt")
        #expect(FileManager.default.fileExists(atPath: source.path))
        _ = try ledger.deleteTransactions([t.idString])
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }

    @Test func aFailedAddRemovesTheCopyAgain() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let source = try sandbox.write("scan.png", "png")
        #expect(throws: LedgerError.self) {
            _ = try ledger.addTransaction(
                TransactionDraft(amount: 9, category: "Missing", receipt: source))
        }
        let receipts = sandbox.url("receipts")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: receipts.path)) ?? [] == [])
    }

    @Test func aMissingReceiptFileFailsAndAddsNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        #expect {
            _ = try ledger.addTransaction(
                TransactionDraft(amount: 9, receipt: sandbox.url("nope.pdf")))
        } throws: { error in message(of: error).hasSuffix("nope.pdf: does not exist") }
        #expect(try ledger.transactions().isEmpty)
    }

    @Test func aChildContextSaveOrADiscardedDeletionKeepsTheReceipt() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        let t = try ledger.addTransaction(
            TransactionDraft(amount: 9, receipt: try sandbox.write("r.txt", "r")))
        let copy = ledger.receiptURL(forStoredPath: try #require(t.receiptPath))
        let draft = ManagedObjectContext(concurrencyType: .privateQueue)
        draft.parent = ledger.context
        try draft.performAndWait {
            for transaction in try Ledger.allTransactions(in: draft) { draft.delete(transaction) }
            try draft.save()
        }
        #expect(FileManager.default.fileExists(atPath: copy.path))
        ledger.context.performAndWait { ledger.context.rollback() }
        #expect(FileManager.default.fileExists(atPath: copy.path))
        #expect(try ledger.transactions().count == 1)
    }

    @Test func aRAMLedgerWithoutAReceiptsDirectoryRefusesReceipts() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Ledger(
            sandbox.configuration(URL(fileURLWithPath: "/dev/null")), access: .create)
        #expect {
            _ = try ledger.addTransaction(
                TransactionDraft(amount: 9, receipt: try sandbox.write("r.txt", "r")))
        } throws: { error in
            message(of: error) == "a receipt needs a ledger file; /dev/null is a RAM store"
        }
    }
}
