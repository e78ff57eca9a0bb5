import Foundation
import ObjectGraph

/// What `ledger undo` undid.
public struct LedgerUndoResult: Sendable {
    /// The command undone, as typed after `ledger` (`"add"`, `"category rename"`, …).
    public let command: String
    /// The file's transaction number of the save undone.
    public let transaction: Int64
    /// How many rows the undo inserted again (rows the command had deleted).
    public let restored: Int
    /// How many rows the undo changed back to their values before the command.
    public let reverted: Int
    /// How many rows the undo deleted (rows the command had inserted).
    public let removed: Int
}

/// How undo tags and reads the ledger's saves.
enum LedgerUndo {
    /// Every ledger command's save is named `ledger COMMAND`.
    static let prefix = "ledger "

    static func contextName(_ command: String) -> String { prefix + command }

    /// The transaction number an undo save undid (`ledger undo #12`), if `change` is one.
    static func undoneNumber(_ change: LedgerLoggedChange) -> Int64? {
        guard let command = change.command, command.hasPrefix("undo #") else { return nil }
        return Int64(command.dropFirst("undo #".count))
    }

    /// Commands whose saves cannot be inverted, and why.
    static let withoutInverse = [
        "purge": "its history and receipts are gone (a purge is final)"
    ]
}

extension Ledger {
    /// Undoes the last ledger command still in effect by appending its inverse as a new
    /// transaction: the file stays append-only, and the undo is itself in the log.
    ///
    /// Saves undone before are skipped, so undoing again goes one command further back. The
    /// file's log since it was created or last compacted is what can be undone.
    ///
    /// - Returns: what was undone.
    /// - Throws: ``LedgerError`` `.undoRefused`, writing nothing, when there is nothing to
    ///   undo, when the last save was not made by a ledger command (another program wrote
    ///   since), when the command has no inverse (`purge`) or removed receipt files, or when
    ///   its rows changed since; `.needsFile` for a RAM ledger.
    public func undo() throws -> LedgerUndoResult {
        guard let store = fileStore else { throw LedgerErrors.needsFile("undo") }
        let log: any LedgerChangeLog = StoreFileChangeLog(store: store)
        var undone = Set<Int64>()
        var target: LedgerLoggedChange?
        for change in try log.changes().reversed() {
            if let number = LedgerUndo.undoneNumber(change) {
                undone.insert(number)
            } else if !undone.contains(change.number) {
                target = change
                break
            }
        }
        guard let target else {
            throw LedgerErrors.undoRefused(
                "nothing to undo: no command has changed the ledger since it was created or last "
                    + "compacted")
        }
        guard let command = target.command else {
            throw LedgerErrors.undoRefused(
                "the last change (transaction \(target.number), by "
                    + "\(target.contextName ?? target.author ?? "an unnamed writer")) was not made "
                    + "by a ledger command: another program has written since")
        }
        if let reason = LedgerUndo.withoutInverse[command] {
            throw LedgerErrors.undoRefused("`ledger \(command)` cannot be undone: \(reason)")
        }
        let changes = try inverse(of: target, command: command, in: store)
        try store.commit(changes)
        try read { $0.reset() }
        removeReceipts(droppedBy: changes, target: target)
        return LedgerUndoResult(
            command: command, transaction: target.number, restored: changes.inserted.count,
            reverted: changes.updated.count, removed: changes.deleted.count)
    }

    /// The change set that puts back what `target` changed, checked against the rows now.
    private func inverse(
        of target: LedgerLoggedChange, command: String, in store: JSONLinesStore
    ) throws -> StoreChangeSet {
        func changedSince(_ id: ManagedObjectID) -> LedgerError {
            LedgerErrors.undoRefused(
                "`ledger \(command)` (transaction \(target.number)) cannot be undone: "
                    + "\(id.entity.name) \(id.primaryKey) was changed since")
        }
        let receipt = id(of: "receiptPath", in: "Transaction")
        var changes = StoreChangeSet(
            author: "ledger", contextName: LedgerUndo.contextName("undo #\(target.number)"),
            timestamp: configuration.today())
        for row in target.inserted {
            guard let now = try store.row(for: row.objectID), now.values == row.values else {
                throw changedSince(row.objectID)
            }
            changes.deleted.append((row.objectID, now.version))
        }
        for row in target.updated {
            guard let now = try store.row(for: row.objectID), now.values == row.values,
                var old = target.replaced[row.objectID]
            else { throw changedSince(row.objectID) }
            if let receipt, row.objectID.entity.name == "Transaction",
                old.values[receipt] != row.values[receipt],
                old.values[receipt] != .attribute(.null)
            {
                throw LedgerErrors.undoRefused(
                    "`ledger \(command)` cannot be undone: the receipt it replaced is gone")
            }
            old.version = now.version + 1
            changes.updated.append(old)
        }
        for id in target.deleted {
            guard try store.row(for: id) == nil, var old = target.replaced[id] else {
                throw changedSince(id)
            }
            if let receipt, id.entity.name == "Transaction",
                old.values[receipt] != .attribute(.null)
            {
                throw LedgerErrors.undoRefused(
                    "`ledger \(command)` cannot be undone: the receipts it removed are gone")
            }
            old.version = 1
            changes.inserted.append(old)
        }
        return changes
    }

    /// Removes the receipt files the undone command had added (the rows that named them are
    /// gone or point elsewhere again), as `ledger delete` removes a deleted row's receipt.
    private func removeReceipts(droppedBy changes: StoreChangeSet, target: LedgerLoggedChange) {
        guard let receipt = id(of: "receiptPath", in: "Transaction") else { return }
        var added: [String] = []
        for row in target.inserted where row.objectID.entity.name == "Transaction" {
            if case .attribute(.string(let path)) = row.values[receipt] { added.append(path) }
        }
        for row in target.updated where row.objectID.entity.name == "Transaction" {
            if case .attribute(.string(let path)) = row.values[receipt],
                target.replaced[row.objectID]?.values[receipt] != row.values[receipt]
            {
                added.append(path)
            }
        }
        for path in added {
            try? FileManager.default.removeItem(at: receiptURL(forStoredPath: path))
        }
    }

    /// The slot of `key` in `entity`.
    private func id(of key: String, in entity: String) -> Int? {
        container.managedObjectModel.entitiesByName[entity]?.propertiesByName[key]?.index
    }
}
