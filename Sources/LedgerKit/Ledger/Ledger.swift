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
    /// Whether `FILE.lock` existed before opening (so only a lock file this ledger made is
    /// removed with a file it created).
    private let lockFileExisted: Bool

    /// Opens the ledger at `configuration.storeURL`.
    ///
    /// - Parameters:
    ///   - configuration: the store URL (`/dev/null` for a fresh RAM store), receipts
    ///     directory, ID and date sources.
    ///   - access: `.read` and `.write` need the file to exist; `.create` creates it.
    /// - Throws: ``LedgerError`` `.noLedger` when the file is missing (the message says how
    ///   to create one); the store's `ObjectGraphError`s when it cannot be opened
    ///   (`.storeLocked` 134090 while another process writes, `.incompatibleModel`
    ///   134100 for a file of another model, `.storeCorrupt` 259 naming the line).
    public init(_ configuration: LedgerConfiguration, access: LedgerAccess) throws {
        let url = configuration.storeURL
        let exists = configuration.isInMemory || FileManager.default.fileExists(atPath: url.path)
        guard exists || access == .create else { throw LedgerErrors.missingFile(url.relativePath) }
        self.configuration = configuration
        self.access = access
        self.didCreateFile = !exists
        let lockFileExisted = FileManager.default.fileExists(atPath: url.path + ".lock")
        self.lockFileExisted = lockFileExisted
        container = PersistentContainer(name: "Ledger", managedObjectModel: try LedgerModel.make())
        let description = PersistentStoreDescription(url: url)
        description.storeOptions = configuration.storeOptions
        description.isReadOnly = access == .read && !configuration.isInMemory
        container.persistentStoreDescriptions = [description]
        do {
            try container.loadPersistentStores()
        } catch {
            if !exists { Self.removeCreatedFiles(configuration, lockFileExisted: lockFileExisted) }
            throw error
        }
        context = container.newBackgroundContext()
        context.name = "ledger"
    }

    /// Creates a new, empty ledger file (`ledger init`).
    ///
    /// - Throws: ``LedgerError`` `.ledgerExists` when the file already exists;
    ///   the store's errors when it cannot be created.
    public static func create(_ configuration: LedgerConfiguration) throws -> Ledger {
        let path = configuration.storeURL.path
        if !configuration.isInMemory, FileManager.default.fileExists(atPath: path) {
            throw LedgerErrors.fileExists(configuration.storeURL.relativePath)
        }
        return try Ledger(configuration, access: .create)
    }

    /// Whether the ledger is a RAM store (`/dev/null`): nothing persists.
    public var isInMemory: Bool { configuration.isInMemory }

    /// Closes the store, releasing the file's writer lock. Idempotent; the ledger cannot be
    /// used afterwards.
    public func close() {
        for store in container.persistentStoreCoordinator.persistentStores {
            (store as? JSONLinesStore)?.close()
            container.persistentStoreCoordinator.remove(store)
        }
    }

    /// Removes the ledger file again when this ledger created it (a command that failed
    /// must leave nothing behind); does nothing otherwise.
    public func discardCreatedFile() {
        guard didCreateFile, !isInMemory else { return }
        close()
        Self.removeCreatedFiles(configuration, lockFileExisted: lockFileExisted)
    }

    // MARK: Contexts

    /// Runs `body` on the root context's queue.
    func read<T>(_ body: (ManagedObjectContext) throws -> T) throws -> T {
        try context.performAndWait { try body(context) }
    }

    /// Runs `body` in a fresh scratchpad child context, then saves in two steps: into the
    /// root, then to the store. On any error the scratchpad is discarded and the root
    /// rolled back, so nothing is written.
    func change<T>(_ body: (ManagedObjectContext) throws -> T) throws -> T {
        let draft = ManagedObjectContext(concurrencyType: .privateQueue)
        draft.parent = context
        draft.name = "ledger draft"
        let result = try draft.performAndWait { () throws -> T in
            let value = try body(draft)
            try draft.save()
            return value
        }
        try context.performAndWait {
            do {
                try context.save()
            } catch {
                context.rollback()
                throw error
            }
        }
        return result
    }

    private static func removeCreatedFiles(
        _ configuration: LedgerConfiguration, lockFileExisted: Bool
    ) {
        let path = configuration.storeURL.path
        try? FileManager.default.removeItem(atPath: path)
        if !lockFileExisted { try? FileManager.default.removeItem(atPath: path + ".lock") }
        if let receipts = configuration.resolvedReceiptsDirectory,
            (try? FileManager.default.contentsOfDirectory(atPath: receipts.path))?.isEmpty == true
        {
            try? FileManager.default.removeItem(at: receipts)
        }
    }
}
