import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

/// `Ledger.purge`: one batch delete, then the purged transactions' receipts.
@Suite struct LedgerPurgeTests {
    private struct Seeded {
        let ledger: Ledger
        let old: TransactionRecord
        let recent: TransactionRecord
    }

    /// A file ledger: an old Food expense and a recent one, each with a receipt; old rent
    /// and old income without.
    private func seeded(_ sandbox: LedgerSandbox) throws -> Seeded {
        let ledger = try Ledger(sandbox.configuration(sandbox.url("l.jsonl")), access: .create)
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addCategory(name: "Rent")
        let scan = try sandbox.write("scan.pdf", "%PDF")
        let old = try ledger.addTransaction(
            TransactionDraft(amount: 12, category: "Food", date: day("2025-03-01"), receipt: scan))
        let recent = try ledger.addTransaction(
            TransactionDraft(amount: 7, category: "Food", date: day("2026-03-01"), receipt: scan))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: 800, category: "Rent", date: day("2025-12-31")))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: 2400, kind: .income, date: day("2025-06-01")))
        return Seeded(ledger: ledger, old: old, recent: recent)
    }

    private func receiptExists(_ ledger: Ledger, _ record: TransactionRecord) -> Bool {
        FileManager.default.fileExists(
            atPath: ledger.receiptURL(forStoredPath: record.receiptPath!).path)
    }

    @Test func purgingDeletesTheOldTransactionsThenTheirReceipts() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let s = try seeded(sandbox)
        #expect(try s.ledger.transactions().count == 4)  // registered in the root context
        let result = try s.ledger.purge(before: day("2026-01-01"), matching: TransactionQuery())
        #expect(result.count == 3 && result.out == 812 && result.in == 2400)
        #expect(result.receipts == 1 && result.receiptsRemoved == 1 && result.notices.isEmpty)
        #expect(try s.ledger.transactions().map(\.id) == [s.recent.id])
        #expect(!receiptExists(s.ledger, s.old))
        #expect(receiptExists(s.ledger, s.recent))
        #expect(try s.ledger.categories().map(\.name) == ["Food", "Rent"])
        s.ledger.close()
        let verification = try Ledger.verify(sandbox.configuration(sandbox.url("l.jsonl")))
        #expect(verification.isHealthy && verification.notices.isEmpty)
        #expect(verification.transactions == 1)
    }

    /// Issue 21: `ledger purge` also deletes the history up to the purge, its own transaction
    /// (whose tombstones hold the purged values) included, so the purged values do not linger
    /// as history.
    @Test func purgingDeletesTheHistoryThroughThePurge() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let s = try seeded(sandbox)
        #expect(try s.ledger.history().count >= 6)
        let result = try s.ledger.purge(before: day("2026-01-01"), matching: TransactionQuery())
        #expect(result.notices.isEmpty)
        #expect(try s.ledger.history().isEmpty)
        _ = try s.ledger.addCategory(name: "Travel")
        #expect(try s.ledger.history().count == 1)  // history goes on after the purge
    }

    @Test func aCategoryAndAPredicateNarrowThePurge() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let s = try seeded(sandbox)
        var rent = TransactionQuery()
        rent.category = "Rent"
        #expect(try s.ledger.purge(before: day("2026-01-01"), matching: rent).count == 1)
        var income = TransactionQuery()
        income.predicate = "kind == 'income'"
        #expect(try s.ledger.purge(before: day("2026-01-01"), matching: income).count == 1)
        #expect(try s.ledger.transactions().map(\.id) == [s.old.id, s.recent.id])
        #expect(receiptExists(s.ledger, s.old))
    }

    @Test func aDryRunOrAnEmptySelectionWritesNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let s = try seeded(sandbox)
        let before = try Data(contentsOf: sandbox.url("l.jsonl"))
        let dry = try s.ledger.purge(
            before: day("2026-01-01"), matching: TransactionQuery(), dryRun: true)
        #expect(dry.isDryRun && dry.count == 3 && dry.receipts == 1 && dry.receiptsRemoved == 0)
        #expect(
            try s.ledger.purge(before: day("2000-01-01"), matching: TransactionQuery()).count == 0)
        #expect(try Data(contentsOf: sandbox.url("l.jsonl")) == before)
        #expect(receiptExists(s.ledger, s.old))
    }

    @Test func aBadPredicateOrCategoryFailsBeforeAnythingIsDeleted() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let s = try seeded(sandbox)
        let before = try Data(contentsOf: sandbox.url("l.jsonl"))
        var bad = TransactionQuery()
        bad.predicate = "amount >"
        #expect(throws: ObjectGraphError.self) {
            _ = try s.ledger.purge(before: day("2026-01-01"), matching: bad)
        }
        var missing = TransactionQuery()
        missing.category = "Travel"
        #expect(throws: LedgerError.self) {
            _ = try s.ledger.purge(before: day("2026-01-01"), matching: missing)
        }
        #expect(try Data(contentsOf: sandbox.url("l.jsonl")) == before)
        #expect(receiptExists(s.ledger, s.old))
    }

    @Test func orphanReceiptsAreListedByVerifyAndRemovedByFix() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let s = try seeded(sandbox)
        let configuration = sandbox.configuration(sandbox.url("l.jsonl"))
        // What a crash between the delete's commit and the receipts' removal leaves.
        let orphan = s.ledger.receiptURL(forStoredPath: s.old.receiptPath!)
        let copy = orphan.deletingLastPathComponent().appendingPathComponent("kept.pdf")
        try FileManager.default.copyItem(at: orphan, to: copy)
        _ = try s.ledger.deleteTransactions([s.old.idString])
        s.ledger.close()
        let found = try Ledger.verify(configuration)
        #expect(found.isHealthy)
        #expect(found.notices == ["receipt file l.receipts/kept.pdf belongs to no transaction"])
        #expect(try Ledger.removeOrphanReceipts(configuration) == ["l.receipts/kept.pdf"])
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        #expect(try Ledger.verify(configuration).notices.isEmpty)
        let reopened = try Ledger(configuration, access: .read)
        defer { reopened.close() }
        #expect(receiptExists(reopened, s.recent))
    }
}
