import Foundation
import ObjectGraph

/// One save recorded in a ledger's persistent history: who made it, when, and what it did to
/// the ledger's transactions.
public struct LedgerHistoryEntry: Sendable {
    /// The history transaction's number in the file.
    public var number: Int64
    /// When the save happened.
    public var timestamp: Date
    /// The saving command (`"ledger add"`), or `nil` when none was recorded.
    public var author: String?
    /// The saving process's id.
    public var processID: String
    /// How many objects (of any entity) the save inserted, updated and deleted.
    public var inserted: Int
    /// See ``inserted``.
    public var updated: Int
    /// See ``inserted``.
    public var deleted: Int
    /// What the save did to the ledger's transactions, one change each.
    public var changes: [LedgerHistoryChange]

    /// The object `ledger history --json` prints: `number`, `time` (ISO 8601, UTC),
    /// `author`, `processID`, `inserted`, `updated`, `deleted`.
    public var jsonObject: [String: Any] {
        [
            "number": number, "time": LedgerHistory.time(timestamp),
            "author": author ?? NSNull(), "processID": processID, "inserted": inserted,
            "updated": updated, "deleted": deleted,
        ]
    }
}

/// One change to a ledger transaction in a history entry.
public struct LedgerHistoryChange: Sendable {
    /// What happened to the transaction.
    public enum Kind: String, Sendable {
        case added, edited, deleted
    }

    /// What happened.
    public var kind: Kind
    /// The transaction as it is now (added, edited), or as its tombstone kept it (deleted:
    /// no category, not cleared); `nil` when it no longer exists or left no tombstone.
    public var record: TransactionRecord?
    /// The names of the properties an edit changed.
    public var properties: [String]
}

/// Formatting and tombstones of ledger history.
enum LedgerHistory {
    /// `2026-12-02T07:58:01Z`.
    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// A deleted transaction's record from the values its tombstone preserved.
    static func record(fromTombstone values: [String: AttributeValue]) -> TransactionRecord? {
        guard case .uuid(let id)? = values["id"] else { return nil }
        var record = TransactionRecord(id: id)
        if case .decimal(let amount)? = values["amount"] { record.amount = amount }
        if case .string(let kind)? = values["kind"] {
            record.kind = TransactionKind(rawValue: kind) ?? .expense
        }
        if case .date(let date)? = values["date"] { record.date = date }
        if case .string(let note)? = values["note"] { record.note = note }
        if case .string(let payee)? = values["payee"] { record.payee = payee }
        return record
    }
}

extension Ledger {
    /// The token of the ledger's last history transaction (`nil` for none): what
    /// ``history(after:)`` continues from.
    public func historyToken() -> PersistentHistoryToken? {
        container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
    }

    /// The ledger's history transactions, oldest first: all, or those after `date`.
    ///
    /// - Throws: The store's errors (134091 when the file keeps no history).
    /// - Complexity: O(k) in the transactions returned and their changes.
    public func history(since date: Date? = nil) throws -> [LedgerHistoryEntry] {
        let none: PersistentHistoryToken? = nil
        return try entries(date.map { .fetchHistory(after: $0) } ?? .fetchHistory(after: none))
    }

    /// The history transactions after `token` (all for `nil`), oldest first, and the token to
    /// continue from.
    ///
    /// - Throws: The store's errors (134301 when the history after `token` was deleted).
    public func history(after token: PersistentHistoryToken?) throws -> (
        entries: [LedgerHistoryEntry], token: PersistentHistoryToken?
    ) {
        var last = token
        let entries = try self.entries(.fetchHistory(after: token)) { last = $0.token }
        return (entries, last)
    }

    /// Deletes the history older than `days` days before now (the ledger's clock), so a later
    /// compaction drops it from the file. Returns how many transactions it deleted.
    ///
    /// - Throws: The store's errors.
    @discardableResult
    public func deleteHistory(olderThanDays days: Int) throws -> Int {
        let cutoff = configuration.today().addingTimeInterval(-Double(days) * 86_400)
        let request = PersistentHistoryChangeRequest.deleteHistory(before: cutoff)
        request.resultType = .count
        return try read { context in
            ((try context.execute(request) as? PersistentHistoryResult)?.result as? Int) ?? 0
        }
    }

    private func entries(
        _ request: PersistentHistoryChangeRequest,
        each: (PersistentHistoryTransaction) -> Void = { _ in }
    ) throws -> [LedgerHistoryEntry] {
        try read { context in
            let result = try context.execute(request) as? PersistentHistoryResult
            let transactions = result?.result as? [PersistentHistoryTransaction] ?? []
            return try transactions.map { transaction in
                each(transaction)
                return try entry(transaction, in: context)
            }
        }
    }

    private func entry(
        _ transaction: PersistentHistoryTransaction, in context: ManagedObjectContext
    )
        throws -> LedgerHistoryEntry
    {
        let changes = transaction.changes ?? []
        var entry = LedgerHistoryEntry(
            number: transaction.transactionNumber, timestamp: transaction.timestamp,
            author: transaction.author, processID: transaction.processID,
            inserted: changes.filter { $0.changeType == .insert }.count,
            updated: changes.filter { $0.changeType == .update }.count,
            deleted: changes.filter { $0.changeType == .delete }.count, changes: [])
        for change in changes where change.changedObjectID.entity.name == "Transaction" {
            switch change.changeType {
            case .delete:
                entry.changes.append(
                    LedgerHistoryChange(
                        kind: .deleted,
                        record: change.tombstoneValues.flatMap(
                            LedgerHistory.record(fromTombstone:)),
                        properties: []))
            case .insert, .update:
                let current =
                    (try? context.existingObject(with: change.changedObjectID)) as? Transaction
                entry.changes.append(
                    LedgerHistoryChange(
                        kind: change.changeType == .insert ? .added : .edited,
                        record: current.map(TransactionRecord.init),
                        properties: change.updatedPropertyNames ?? []))
            }
        }
        return entry
    }
}

extension TransactionRecord {
    /// A record of `id` with nothing else known: no amount, an expense dated 1970-01-01.
    init(id: UUID) {
        self.id = id
        amount = 0
        kind = .expense
        date = Date(timeIntervalSince1970: 0)
        note = nil
        payee = nil
        category = nil
        isCleared = false
        receiptPath = nil
        importKey = nil
    }
}
