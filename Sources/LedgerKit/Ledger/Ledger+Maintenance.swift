import Foundation
import ObjectGraph

/// What compacting a ledger file did.
public struct LedgerCompaction: Sendable, Hashable {
    /// The file's size before, in bytes.
    public var bytesBefore: Int
    /// The file's size after, in bytes.
    public var bytesAfter: Int
}

/// What checking a ledger file found.
public struct LedgerVerification: Sendable {
    /// The file, as given.
    public var file: String
    /// Everything wrong: damaged lines (`line N: …`), dangling references, missing receipts.
    public var problems: [String]
    /// Remarks that are not damage: an interrupted last save, receipt files no transaction
    /// names.
    public var notices: [String]
    /// How many transactions and categories the file holds (when it could be read).
    public var transactions: Int?
    /// How many categories the file holds (when it could be read).
    public var categories: Int?
    /// How many transactions have a receipt.
    public var receipts: Int
    /// The store's sizes (when the whole file replayed).
    public var statistics: JSONLinesStoreStatistics?

    /// Whether nothing is wrong.
    public var isHealthy: Bool { problems.isEmpty }

    /// The object `verify --json` prints.
    public var jsonObject: [String: Any] {
        [
            "file": file, "healthy": isHealthy, "problems": problems, "notices": notices,
            "transactions": transactions ?? NSNull(), "categories": categories ?? NSNull(),
            "receipts": receipts,
            "fileBytes": statistics?.fileBytes ?? NSNull(),
            "liveBytes": statistics?.liveBytes ?? NSNull(),
        ]
    }
}

extension Ledger {
    /// Rewrites the ledger file as a snapshot of its live rows (atomically: temporary file,
    /// sync, rename).
    ///
    /// - Throws: ``LedgerError`` `.needsFile` for a RAM ledger; the store's `ObjectGraphError`s:
    ///   `.readOnlyStore` (134030) for one opened read-only, `.storeOperationFailed` (134070)
    ///   when writing fails (the old file is intact).
    public func compact() throws -> LedgerCompaction {
        guard
            let store = container.persistentStoreCoordinator.persistentStores.first
                as? JSONLinesStore
        else {
            throw LedgerErrors.needsFile("compact")
        }
        let before = try store.statistics().fileBytes
        try store.compact()
        return LedgerCompaction(bytesBefore: before, bytesAfter: try store.statistics().fileBytes)
    }

    /// Checks the ledger file without changing it or taking its lock: every line's checksum
    /// and syntax, the replay, every reference, that the file holds this ledger's model, and
    /// that every receipt file exists.
    ///
    /// - Throws: ``LedgerError`` `.noLedger` when the file does not exist, `.needsFile` for the
    ///   RAM store; damage is reported in the result, not thrown.
    public static func verify(_ configuration: LedgerConfiguration) throws -> LedgerVerification {
        let url = configuration.storeURL
        guard !configuration.isInMemory else { throw LedgerErrors.needsFile("verify") }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LedgerErrors.missingFile(url.relativePath)
        }
        let store = JSONLinesStore.verify(at: url)
        var result = LedgerVerification(
            file: url.relativePath, problems: store.problems.map(\.description),
            notices: store.warnings.map(\.description),
            transactions: store.statistics?.rowCounts["Transaction"],
            categories: store.statistics?.rowCounts["Category"],
            receipts: 0, statistics: store.statistics)
        guard store.isHealthy else { return result }
        let versions = try LedgerModel.earlierVersions() + [LedgerModel.make()]
        if let hashes = store.metadata?.entityVersionHashes,
            !versions.contains(where: { $0.entityVersionHashesByName == hashes })
        {
            result.problems.append(
                "the file holds another model (entities \(hashes.keys.sorted())), not a ledger's")
            return result
        }
        let ledger = try Ledger(configuration, access: .read)
        defer { ledger.close() }
        try ledger.checkReceipts(into: &result)
        return result
    }

    /// Adds a problem per missing receipt and a notice per receipt file no transaction names.
    private func checkReceipts(into result: inout LedgerVerification) throws {
        let named = try transactions().compactMap { t in t.receiptPath.map { (t, $0) } }
        result.receipts = named.count
        var expected = Set<String>()
        for (transaction, path) in named {
            let file = receiptURL(forStoredPath: path).standardizedFileURL
            expected.insert(file.path)
            if !FileManager.default.fileExists(atPath: file.path) {
                result.problems.append(
                    "transaction \(transaction.idString): receipt \(path) is missing")
            }
        }
        guard let directory = configuration.resolvedReceiptsDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return }
        for name in names.sorted()
        where !expected.contains(directory.appendingPathComponent(name).standardizedFileURL.path) {
            result.notices.append(
                "receipt file \(directory.lastPathComponent)/\(name) belongs to no transaction")
        }
    }
}
