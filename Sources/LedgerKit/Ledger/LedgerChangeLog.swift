import Foundation
import ObjectGraph

/// One save in the ledger's history: which command made it and what it changed.
struct LedgerLoggedChange {
    /// The transaction's number in the file.
    let number: Int64
    /// The saving context's author and name (`ledger add`, `ledger undo #12`, …).
    let author: String?
    let contextName: String?
    let inserted: [StoreRow]
    let updated: [StoreRow]
    let deleted: [ManagedObjectID]
    /// Each updated or deleted row as it was before the save.
    let replaced: [ManagedObjectID: StoreRow]

    /// The ledger command that made the save (`"add"`, `"category rename"`, `"undo #12"`), or
    /// `nil` when something other than a ledger command wrote it.
    var command: String? {
        guard let name = contextName, name.hasPrefix(LedgerUndo.prefix) else { return nil }
        return String(name.dropFirst(LedgerUndo.prefix.count))
    }
}

/// What `ledger undo` needs to know of the ledger's history: every save since the file was
/// created or last compacted, oldest first, with the rows each replaced.
///
/// Today the file store's own log provides it (``StoreFileChangeLog``: each transaction line
/// records its context's name and its changes); persistent history can take its place behind
/// this protocol.
protocol LedgerChangeLog {
    /// The saves, oldest first.
    func changes() throws -> [LedgerLoggedChange]
}

/// The history a ledger file's transaction lines hold.
struct StoreFileChangeLog: LedgerChangeLog {
    let store: JSONLinesStore

    func changes() throws -> [LedgerLoggedChange] {
        try store.transactionLog().map { t in
            LedgerLoggedChange(
                number: t.number, author: t.author, contextName: t.contextName,
                inserted: t.inserted, updated: t.updated, deleted: t.deleted,
                replaced: t.replaced)
        }
    }
}
