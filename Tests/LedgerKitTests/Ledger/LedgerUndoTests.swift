import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

/// `Ledger.undo()`: the last command's inverse, appended as a new transaction.
@Suite struct LedgerUndoTests {
    private func fileLedger(_ sandbox: LedgerSandbox) throws -> Ledger {
        try Ledger(sandbox.configuration(sandbox.url("ledger.jsonl")), access: .create)
    }

    private func notes(_ ledger: Ledger) throws -> [String] {
        try ledger.transactions(TransactionQuery()).compactMap(\.note).sorted()
    }

    @Test func undoAppendsTheInverseAndGoesOneCommandFurtherBackEachTime() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try fileLedger(sandbox)
        defer { ledger.close() }
        _ = try ledger.addCategory(name: "Food")
        let bread = try ledger.addTransaction(
            TransactionDraft(amount: 5, category: "Food", note: "bread"))
        var changes = TransactionChanges()
        changes.note = "rye"
        _ = try ledger.editTransaction(bread.idString, changes)
        _ = try ledger.deleteTransactions([bread.idString])
        let file = sandbox.url("ledger.jsonl")
        let before = try Data(contentsOf: file)
        #expect(try notes(ledger) == [])
        let undoDelete = try ledger.undo()
        #expect(undoDelete.command == "delete")
        #expect(undoDelete.restored == 1)
        #expect(try notes(ledger) == ["rye"])
        // Append-only: the file only grew, by the undo's transaction line.
        let after = try Data(contentsOf: file)
        #expect(after.prefix(before.count) == before)
        #expect(String(decoding: after.dropFirst(before.count), as: UTF8.self).contains("undo #"))
        #expect(try ledger.undo().command == "edit")
        #expect(try notes(ledger) == ["bread"])
        #expect(try ledger.undo().command == "add")
        #expect(try notes(ledger) == [])
        #expect(try ledger.undo().command == "category add")
        #expect(try ledger.categories().isEmpty)
        #expect { try ledger.undo() } throws: { ($0 as? LedgerError)?.reason == .undoRefused }
    }

    @Test func undoIsRefusedAfterAnotherProgramWroteAndTheFileIsLeftAsItWas() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try fileLedger(sandbox)
        defer { ledger.close() }
        _ = try ledger.addCategory(name: "Food")
        // Another writer of the same file (an app on the store), not a ledger command.
        let store = try #require(ledger.fileStore)
        let model = store.model
        let category = model.entitiesByName["Category"]!
        let row = try #require(
            try store.fetch(StoreFetchRequest(entity: category)).first)
        var renamed = row
        renamed.version += 1
        renamed.values[category.propertiesByName["name"]!.index] = .attribute("Groceries")
        try store.commit(
            StoreChangeSet(
                updated: [renamed], author: "app", contextName: "sync", timestamp: Date()))
        let file = sandbox.url("ledger.jsonl")
        let before = try Data(contentsOf: file)
        #expect {
            try ledger.undo()
        } throws: { error in
            let e = error as? LedgerError
            return e?.reason == .undoRefused && "\(error)".contains("another program")
        }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func purgeIsRefusedSayingWhyAndAdjustIsUndone() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try fileLedger(sandbox)
        defer { ledger.close() }
        _ = try ledger.addTransaction(
            TransactionDraft(amount: dec("10.00"), date: day("2026-01-05"), note: "old"))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: dec("20.00"), date: day("2026-11-05"), note: "new"))
        _ = try ledger.adjustAmounts(.multiply(dec("1.5")), matching: TransactionQuery())
        #expect(try ledger.transactions().map(\.amount).sorted() == [dec("15"), dec("30")])
        #expect(try ledger.undo().command == "adjust")
        #expect(try ledger.transactions().map(\.amount).sorted() == [dec("10"), dec("20")])
        _ = try ledger.purge(before: day("2026-06-01"), matching: TransactionQuery())
        let file = sandbox.url("ledger.jsonl")
        let before = try Data(contentsOf: file)
        #expect {
            try ledger.undo()
        } throws: { error in
            "\(error)".contains(
                "`ledger purge` cannot be undone: its history and receipts are gone")
        }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func aRAMLedgerHasNoHistoryToUndo() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        #expect { try ledger.undo() } throws: { ($0 as? LedgerError)?.reason == .needsFile }
    }
}
