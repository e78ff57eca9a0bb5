import Foundation
import ObjectGraph

/// A single-file expense ledger: categories and transactions in one store, read through a
/// root context and changed through scratchpad child contexts.
///
/// Every change runs in a fresh child context of the root (a scratchpad): the
/// change is made there, then saved in two steps, into the root and from the root to the
/// store. When any step fails the child is discarded and the root rolled back, so a failed
/// command writes nothing. Reads run on the root context.
///
/// ```swift
/// let ledger = try Ledger(LedgerConfiguration(storeURL: URL(fileURLWithPath: "ledger.jsonl")),
///                         access: .create)
/// _ = try ledger.addCategory(name: "Food", colorHex: "#4CAF50")
/// _ = try ledger.addTransaction(TransactionDraft(amount: 12.5, category: "Food"))
/// print(try ledger.report(by: .category).text(title: "Spending"))
/// ```
///
/// A `Ledger` is used from one thread at a time (it is not `Sendable`); it does its work on
/// its contexts' queues with `performAndWait`.
public final class Ledger {
    /// Where the ledger lives and where IDs and dates come from.
    public let configuration: LedgerConfiguration
    /// How the ledger was opened.
    public let access: LedgerAccess
    /// Whether opening created the ledger file (it did not exist before).
    public let didCreateFile: Bool
    let container: PersistentContainer
    /// The root context: reads run here, and scratchpads save into it.
    let context: ManagedObjectContext
    /// The file store, or `nil` for a RAM ledger.
    private let store: JSONLinesStore?
    /// The file store, or `nil` for a RAM ledger (for the ledger's extensions).
    var fileStore: JSONLinesStore? { store }
    /// Whether this ledger created the receipts directory (so a failed command removes it
    /// again when it is still empty).
    var createdReceiptsDirectory = false

    /// Opens the ledger at `configuration.storeURL`.
    ///
    /// Whether the file exists is decided by the store, with the writer lock held: `.create`
    /// creates a missing file then (see ``didCreateFile``); `.write` undoes such a creation
    /// and fails.
    ///
    /// - Parameters:
    ///   - configuration: the store URL (`/dev/null` for a fresh RAM store), receipts
    ///     directory, ID and date sources.
    ///   - access: `.read` and `.write` need the file to exist; `.create` creates it.
    /// - Throws: ``LedgerError`` `.noLedger` when the file is missing (the message says how
    ///   to create one); the store's `ObjectGraphError`s when it cannot be opened
    ///   (`.storeLocked` 134090 while another process writes, `.incompatibleModel`
    ///   134100 for a file of another model, `.storeCorrupt` 259 naming the line,
    ///   `.storeOpenFailed` 134080 for what is not a regular file).
    public init(_ configuration: LedgerConfiguration, access: LedgerAccess) throws {
        let url = configuration.storeURL
        // Only an error message is decided here; nothing is created or removed on it.
        if access != .create, !configuration.isInMemory,
            !FileManager.default.fileExists(atPath: url.path)
        {
            throw LedgerErrors.missingFile(url.relativePath)
        }
        self.configuration = configuration
        self.access = access
        container = PersistentContainer(name: "Ledger", managedObjectModel: try LedgerModel.make())
        let description = PersistentStoreDescription(url: url)
        description.storeOptions = configuration.storeOptions
        // A file of an earlier model version: a reader reads it migrated in memory; a writer
        // migrates the file (keeping FILE.pre-migration) and says so in ``storeNotices``.
        description.storeOptions.modelVersions = try LedgerModel.earlierVersions()
        description.isReadOnly = access == .read && !configuration.isInMemory
        // Ledger files keep persistent history (`ledger history`, `ledger watch`).
        description.tracksPersistentHistory = true
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        store = container.persistentStoreCoordinator.persistentStores.first as? JSONLinesStore
        didCreateFile = store?.didCreateFile ?? false
        if access == .write, let store, store.didCreateFile {
            // The file vanished after the check above: undo the creation, under the lock.
            store.closeRemovingCreatedFile()
            throw LedgerErrors.missingFile(url.relativePath)
        }
        context = container.newBackgroundContext()
        context.name = "ledger"
    }

    /// Creates a new, empty ledger file (`ledger init`).
    ///
    /// - Throws: ``LedgerError`` `.ledgerExists` when the file already exists (also when
    ///   another process created it a moment earlier); the store's errors when it cannot be
    ///   created.
    public static func create(_ configuration: LedgerConfiguration) throws -> Ledger {
        let path = configuration.storeURL.path
        if !configuration.isInMemory, FileManager.default.fileExists(atPath: path) {
            throw LedgerErrors.fileExists(configuration.storeURL.relativePath)
        }
        let ledger = try Ledger(configuration, access: .create)
        if !configuration.isInMemory, !ledger.didCreateFile {
            ledger.close()
            throw LedgerErrors.fileExists(configuration.storeURL.relativePath)
        }
        return ledger
    }

    /// What the file store noticed when it opened the file, one message each: an interrupted
    /// save's incomplete last line (dropped by a writer; reported by a reader while no writer
    /// holds the file), transactions missing at the end, a leftover temporary file, an upgrade
    /// of the file's format. Empty for a RAM ledger.
    public var storeNotices: [String] { store?.recoveryNotices ?? [] }

    /// The author recorded with the ledger's saves in the file's history (the `ledger` command
    /// sets the command, `"ledger add"`); `nil` records none.
    public var transactionAuthor: String? {
        get { context.performAndWait { context.transactionAuthor } }
        set { context.performAndWait { context.transactionAuthor = newValue } }
    }

    /// Whether the ledger is a RAM store (`/dev/null`): nothing persists.
    public var isInMemory: Bool { configuration.isInMemory }

    /// Closes the store, releasing the file's writer lock. Idempotent; the ledger cannot be
    /// used afterwards.
    public func close() {
        for store in container.persistentStoreCoordinator.persistentStores {
            // Closing releases the lock even when the final sync fails; `close()` reports
            // nothing, as before.
            try? container.persistentStoreCoordinator.remove(store)
        }
    }

    /// Undoes what a failed command created, then closes the ledger: a receipts directory
    /// this ledger created (when it is empty again) and the ledger file, when this ledger
    /// created it and nothing was saved to it.
    ///
    /// Both are removed while the writer lock is still held, and the file only when its path
    /// still names the file this ledger created (see
    /// `JSONLinesStore.closeRemovingCreatedFile()`); the lock file stays. A ledger that
    /// created nothing is just closed.
    public func discardCreatedFile() {
        if createdReceiptsDirectory, let receipts = configuration.resolvedReceiptsDirectory {
            // rmdir: removes the directory only when it is empty.
            _ = rmdir(receipts.path)
        }
        store?.closeRemovingCreatedFile()
        close()
    }

    // MARK: Contexts

    /// Runs `body` on the root context's queue.
    func read<T>(_ body: (ManagedObjectContext) throws -> T) throws -> T {
        try context.performAndWait { try body(context) }
    }

    /// Runs `body` in a fresh scratchpad child context, then saves in two steps: into the
    /// root, then to the store. On any error the scratchpad is discarded and the root
    /// rolled back, so nothing is written.
    ///
    /// The save records `command` (`"add"`, `"category rename"`, …) as its context name,
    /// `ledger COMMAND`, in the file's transaction line: what `ledger undo` reads back.
    func change<T>(_ command: String, _ body: (ManagedObjectContext) throws -> T) throws -> T {
        let draft = ManagedObjectContext(concurrencyType: .privateQueue)
        draft.parent = context
        draft.name = "ledger draft"
        let result = try draft.performAndWait { () throws -> T in
            let value = try body(draft)
            try draft.save()
            return value
        }
        try context.performAndWait {
            context.name = LedgerUndo.contextName(command)
            defer { context.name = "ledger" }
            do {
                try context.save()
            } catch {
                context.rollback()
                throw error
            }
        }
        return result
    }
}
