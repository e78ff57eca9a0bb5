import Foundation
import ObjectGraph

extension Ledger {
    /// Adds a transaction; with a receipt, copies the file into the receipts directory first
    /// (and removes the copy again when the save fails).
    ///
    /// - Throws: ``LedgerError`` — `.unknownCategory`, `.receiptUnusable`; the model's
    ///   validation errors as `ObjectGraphError`s (1620 amount below 0.01, …).
    public func addTransaction(_ draft: TransactionDraft) throws -> TransactionRecord {
        let id = configuration.newID()
        let receipt = try draft.receipt.map { try storeReceipt($0, id: id) }
        do {
            return try change("add") { context in
                let transaction = Transaction(context: context)
                transaction.id = id
                transaction.amount = draft.amount
                transaction.kind = draft.kind.rawValue
                transaction.date = draft.date ?? LedgerValues.calendarDay(of: configuration.today())
                transaction.note = Self.nonEmpty(draft.note)
                transaction.payee = Self.nonEmpty(draft.payee)
                transaction.receiptPath = receipt?.path
                if let name = draft.category {
                    transaction.category = try Self.requireCategory(name, in: context)
                }
                return TransactionRecord(transaction)
            }
        } catch {
            if let receipt { try? FileManager.default.removeItem(at: receipt.copy) }
            throw error
        }
    }

    /// Changes the transaction whose ID starts with `idPrefix`.
    ///
    /// - Throws: ``LedgerError`` — `.unknownTransaction` or `.ambiguousID` for the ID prefix,
    ///   `.unknownCategory`; the model's validation errors as `ObjectGraphError`s.
    public func editTransaction(_ idPrefix: String, _ changes: TransactionChanges) throws
        -> TransactionRecord
    {
        let ids = try resolve([idPrefix])
        return try change("edit") { context in
            let transaction = try Self.transactions(ids, in: context)[0]
            if let amount = changes.amount { transaction.amount = amount }
            if let kind = changes.kind { transaction.kind = kind.rawValue }
            if let date = changes.date { transaction.date = date }
            if let note = changes.note { transaction.note = Self.nonEmpty(note) }
            if let payee = changes.payee { transaction.payee = Self.nonEmpty(payee) }
            if let name = changes.category {
                transaction.category =
                    name.isEmpty ? nil : try Self.requireCategory(name, in: context)
            }
            return TransactionRecord(transaction)
        }
    }

    /// Deletes the transactions whose IDs start with the given prefixes, in one save; their
    /// receipt files are removed once the deletion is saved.
    ///
    /// - Returns: the deleted transactions, in the order given (each once).
    /// - Throws: ``LedgerError`` `.unknownTransaction` or `.ambiguousID` for a prefix;
    ///   nothing is deleted then.
    public func deleteTransactions(_ idPrefixes: [String]) throws -> [TransactionRecord] {
        let ids = try resolve(idPrefixes)
        return try change("delete") { context in
            let doomed = try Self.transactions(ids, in: context)
            let records = doomed.map(TransactionRecord.init)
            for transaction in doomed { context.delete(transaction) }
            return records
        }
    }

    /// Toggles `isCleared` on the transactions whose IDs start with the given prefixes.
    ///
    /// - Returns: the transactions with their new state, in the order given (each once).
    /// - Throws: as ``deleteTransactions(_:)``.
    public func toggleCleared(_ idPrefixes: [String]) throws -> [TransactionRecord] {
        let ids = try resolve(idPrefixes)
        return try change("clear") { context in
            try Self.transactions(ids, in: context).map { transaction in
                transaction.isCleared.toggle()
                return TransactionRecord(transaction)
            }
        }
    }

    /// The transaction whose ID starts with `idPrefix`.
    ///
    /// - Throws: as ``deleteTransactions(_:)``.
    public func transaction(_ idPrefix: String) throws -> TransactionRecord {
        let ids = try resolve([idPrefix])
        return try read { TransactionRecord(try Self.transactions(ids, in: $0)[0]) }
    }

    /// The shortest prefix (at least `minimum` hex digits) that names each of `ids`
    /// unambiguously among all the ledger's transactions, by ID.
    ///
    /// - Throws: store errors.
    /// - Complexity: O(n log n) in the number of transactions.
    public func shortIDs(for ids: [UUID], minimum: Int = 8) throws -> [UUID: String] {
        IDPrefixIndex(try transactionIdentities().map(\.id)).shortPrefixes(
            of: ids, minimum: minimum)
    }

    // MARK: Helpers

    static func allTransactions(in context: ManagedObjectContext) throws -> [Transaction] {
        try context.fetch(FetchRequest<Transaction>(entityName: "Transaction"))
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
        else {
            return nil
        }
        return trimmed
    }
}
