import Foundation
import ObjectGraph

/// What `ledger purge` deleted (or, with `--dry-run`, would delete).
public struct LedgerPurge: Sendable {
    /// Transactions dated before this calendar day were selected.
    public var before: Date
    /// How many transactions were selected.
    public var count: Int
    /// The selected expenses' total.
    public var out: Decimal
    /// The selected income's total.
    public var `in`: Decimal
    /// How many of them had a receipt file.
    public var receipts: Int
    /// How many receipt files were removed after the deletion committed.
    public var receiptsRemoved: Int
    /// Receipt files that could not be removed (they stay as orphans that `ledger verify`
    /// lists and `ledger verify --fix` removes), one message each.
    public var notices: [String]
    /// Whether nothing was written (`--dry-run`).
    public var isDryRun: Bool

    /// The object `purge --json` prints: `{dryRun, before, count, out, in, receipts,
    /// receiptsRemoved, notices}`.
    public var jsonObject: [String: Any] {
        [
            "dryRun": isDryRun, "before": LedgerDates.day(before), "count": count,
            "out": Money.format(out), "in": Money.format(self.in), "receipts": receipts,
            "receiptsRemoved": receiptsRemoved, "notices": notices,
        ]
    }
}

extension Ledger {
    /// Deletes the transactions dated before `date` that `query` selects with one batch
    /// delete, then removes their receipt files.
    ///
    /// One `BatchDeleteRequest` (result type `.resultTypeObjectIDs`) deletes the rows in one
    /// transaction line; the deleted IDs are merged into the root context with
    /// `mergeChanges(fromRemoteContextSave:into:)`. Only after that commit are the purged
    /// transactions' receipt files removed (never one a surviving transaction names): a crash
    /// in between leaves orphan files, which `ledger verify` lists and `ledger verify --fix`
    /// removes, never a transaction without its receipt. The pause point `purge.committed`
    /// lies between the two steps. Then the history up to and including the purge is deleted,
    /// so the purged values leave the file at the next compaction.
    ///
    /// - Parameters:
    ///   - date: transactions dated strictly before this calendar day are purged.
    ///   - query: further conditions (predicate, category; dates, sort and limit are ignored).
    ///   - dryRun: count only; write and remove nothing.
    ///   - progress: told the rows scanned of the rows selected, before the delete.
    /// - Returns: what was purged.
    /// - Throws: ``LedgerError`` `.unknownCategory`; a predicate's `ObjectGraphError`; the
    ///   store's errors (the file and the receipts are unchanged).
    /// - Complexity: O(n) in the ledger's transactions.
    public func purge(
        before date: Date, matching query: TransactionQuery, dryRun: Bool = false,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> LedgerPurge {
        var filter = query
        (filter.from, filter.to) = (nil, nil)
        let selection = try batchSelection(
            filter, extra: [try FetchPredicate(format: "date < %@", date)])
        let (amount, kind, receipt) = (
            selection.slot("amount"), selection.slot("kind"), selection.slot("receiptPath")
        )
        var result = LedgerPurge(
            before: date, count: selection.rows.count, out: 0, in: 0, receipts: 0,
            receiptsRemoved: 0, notices: [], isDryRun: dryRun)
        var paths: [String] = []
        for (i, row) in selection.rows.enumerated() {
            if i % 4096 == 4095 { progress?(i + 1, selection.rows.count) }
            let value = BatchSelection.decimal(row, amount)
            if row.values[kind].attributeValue == .string(TransactionKind.income.rawValue) {
                result.in += value
            } else {
                result.out += value
            }
            if case .string(let path) = row.values[receipt].attributeValue { paths.append(path) }
        }
        result.receipts = paths.count
        progress?(selection.rows.count, selection.rows.count)
        guard !dryRun, !selection.rows.isEmpty else { return result }
        let ids: [ManagedObjectID] = try context.performAndWait {
            let request = FetchRequest<Transaction>(entityName: "Transaction")
            request.predicate = selection.predicate
            let delete = BatchDeleteRequest(fetchRequest: request)
            delete.resultType = .resultTypeObjectIDs
            // The transaction line records the command, for `ledger undo` (which refuses it).
            context.name = LedgerUndo.contextName("purge")
            defer { context.name = "ledger" }
            return try context.execute(delete).result as? [ManagedObjectID] ?? []
        }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [context])
        PausePoints.reach("purge.committed")
        (result.receiptsRemoved, result.notices) = try removeReceipts(paths)
        result.notices += deleteHistoryThroughPurge()
        return result
    }

    /// Deletes the persistent history up to and including the purge's own transaction
    /// (ledger files track history), so the purged transactions' values are kept neither as
    /// history nor as the purge's tombstones: the next compaction drops them from the file.
    /// Returns a notice when it fails (the purge has committed).
    private func deleteHistoryThroughPurge() -> [String] {
        let stores = container.persistentStoreCoordinator.persistentStores
        do {
            for store in stores where store.tracksHistory {
                _ = try store.deleteHistory(before: try store.currentHistoryTransactionNumber() + 1)
            }
            return []
        } catch {
            return [
                "the history up to the purge could not be deleted (\(error.localizedDescription)); "
                    + "`ledger compact --keep-history 0` deletes it"
            ]
        }
    }

    /// Removes the receipt files stored as `paths`, except any a transaction still names.
    ///
    /// - Returns: how many were removed, and a message per file that could not be.
    func removeReceipts(_ paths: [String]) throws -> (removed: Int, notices: [String]) {
        guard !paths.isEmpty else { return (0, []) }
        let named = Set(try transactionReceiptPaths().map(receiptFile))
        var removed = 0
        var notices: [String] = []
        for path in paths {
            let file = receiptFile(path)
            guard !named.contains(file) else { continue }
            do {
                try FileManager.default.removeItem(atPath: file)
                removed += 1
            } catch CocoaError.fileNoSuchFile {
                continue
            } catch {
                notices.append(
                    "receipt \(EchoedText.capped(path)) could not be removed "
                        + "(\(error.localizedDescription)); `ledger verify --fix` removes it")
            }
        }
        return (removed, notices)
    }

    /// The standardized path of the receipt stored as `path`.
    func receiptFile(_ path: String) -> String {
        receiptURL(forStoredPath: path).standardizedFileURL.path
    }

    /// Every receipt path the saved transactions name.
    func transactionReceiptPaths() throws -> [String] {
        try read { context in
            let predicate = try FetchPredicate(format: "receiptPath != nil")
            guard
                let (rows, entity) = try savedRows(
                    "Transaction", in: context, predicate: predicate),
                let slot = entity.propertiesByName["receiptPath"]?.index
            else {
                return try context.fetch(FetchRequest<Transaction>(entityName: "Transaction"))
                    .compactMap(\.receiptPath)
            }
            return rows.compactMap { row in
                if case .string(let path) = row.values[slot].attributeValue { return path }
                return nil
            }
        }
    }
}
