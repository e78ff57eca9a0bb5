import Foundation
import ObjectGraph

/// Where a ledger lives and the sources of its IDs and dates.
///
/// ```swift
/// var configuration = LedgerConfiguration(storeURL: URL(fileURLWithPath: "ledger.jsonl"))
/// configuration.today = { Date(timeIntervalSince1970: 1_795_996_800) }   // tests
/// let ledger = try Ledger(configuration, access: .create)
/// ```
///
/// A store URL of `/dev/null` opens a fresh RAM store (nothing persists); any other path
/// the JSON-lines file store. Both run the same code.
public struct LedgerConfiguration: Sendable {
    /// The ledger file, or `/dev/null` for a RAM store.
    public var storeURL: URL
    /// Where receipts are copied; `nil` (the default) means `<stem>.receipts/` beside the
    /// ledger file (`ledger.jsonl` → `ledger.receipts/`). A RAM store has no default, so
    /// `add --receipt` needs this set.
    public var receiptsDirectory: URL?
    /// Makes the `id` of new categories and transactions. Default: random UUIDs.
    public var newID: @Sendable () -> UUID
    /// The current instant; its UTC calendar day is the default transaction date.
    public var today: @Sendable () -> Date
    /// Options for the store (synchronous mode, compaction, lock timeout, clock).
    public var storeOptions: StoreOptions

    /// A configuration for the ledger at `storeURL` with the defaults above.
    public init(storeURL: URL) {
        self.storeURL = storeURL
        self.receiptsDirectory = nil
        self.newID = { RandomUUIDSource.shared.next() }
        self.today = { Date() }
        self.storeOptions = StoreOptions()
    }

    /// Whether ``storeURL`` names the RAM store (`/dev/null`).
    public var isInMemory: Bool { storeURL.standardizedFileURL.path == "/dev/null" }

    /// The directory receipts go to: ``receiptsDirectory``, else the default beside the
    /// file; `nil` for a RAM store without one.
    public var resolvedReceiptsDirectory: URL? {
        if let receiptsDirectory { return receiptsDirectory }
        guard !isInMemory else { return nil }
        let stem = storeURL.deletingPathExtension().lastPathComponent
        return storeURL.deletingLastPathComponent().appendingPathComponent(
            "\(stem).receipts", isDirectory: true)
    }
}

/// What a command needs of the ledger file.
public enum LedgerAccess: Sendable, Hashable {
    /// Read only: the file must exist; nothing is locked or written.
    case read
    /// Read and write: the file must exist.
    case write
    /// Read and write, creating the file when it is missing (`add`, `import`,
    /// `category add`).
    case create
}
