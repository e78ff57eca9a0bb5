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
    /// - Parameter progress: told the rows written of the rows in the snapshot (see
    ///   `JSONLinesStore.compact(progress:)`); `nil` reports nothing.
    public func compact(progress: ((_ written: Int, _ total: Int) -> Void)? = nil) throws
        -> LedgerCompaction
    {
        guard
            let store = container.persistentStoreCoordinator.persistentStores.first
                as? JSONLinesStore
        else {
            throw LedgerErrors.needsFile("compact")
        }
        let before = try store.statistics().fileBytes
        if let progress { try store.compact(progress: progress) } else { try store.compact() }
        return LedgerCompaction(bytesBefore: before, bytesAfter: try store.statistics().fileBytes)
    }

    /// Checks the ledger file without changing it or taking its lock: every line's checksum
    /// and syntax, the replay, every reference, that the file holds this ledger's model, and
    /// that every receipt file exists.
    ///
    /// - Parameter progress: told the rows whose references are checked of the rows the file
    ///   holds, once the file is read and replayed (see `JSONLinesStore.verify(at:progress:)`);
    ///   `nil` reports nothing.
    /// - Throws: ``LedgerError`` `.noLedger` when the file does not exist, `.needsFile` for the
    ///   RAM store; damage is reported in the result, not thrown.
    public static func verify(
        _ configuration: LedgerConfiguration,
        progress: ((_ checked: Int, _ total: Int) -> Void)? = nil
    ) throws -> LedgerVerification {
        let url = configuration.storeURL
        guard !configuration.isInMemory else { throw LedgerErrors.needsFile("verify") }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LedgerErrors.missingFile(url.relativePath)
        }
        let store =
            progress.map { JSONLinesStore.verify(at: url, progress: $0) }
            ?? JSONLinesStore.verify(at: url)
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
        for (transaction, path) in named
        where !FileManager.default.fileExists(atPath: receiptFile(path)) {
            result.problems.append(
                "transaction \(transaction.idString): receipt \(path) is missing")
        }
        for name in try orphanReceipts() {
            result.notices.append("receipt file \(name) belongs to no transaction")
        }
    }

    /// The receipt files in the receipts directory that no transaction names, as
    /// `receipts/NAME`, sorted.
    func orphanReceipts() throws -> [String] {
        guard let directory = configuration.resolvedReceiptsDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        let expected = Set(try transactionReceiptPaths().map(receiptFile))
        return names.sorted().filter {
            !expected.contains(directory.appendingPathComponent($0).standardizedFileURL.path)
        }.map { "\(directory.lastPathComponent)/\($0)" }
    }

    /// Removes the receipt files no transaction names (left by a purge or a deletion
    /// interrupted between its commit and the files' removal), holding the writer lock so no
    /// command adds a receipt meanwhile (`ledger verify --fix`).
    ///
    /// - Returns: the files removed, as `receipts/NAME`.
    /// - Throws: ``LedgerError`` `.noLedger`, `.needsFile`; the store's errors when it cannot
    ///   be opened for writing (`.storeLocked` 134090); a removal's error (the files before it
    ///   are removed).
    public static func removeOrphanReceipts(_ configuration: LedgerConfiguration) throws
        -> [String]
    {
        guard !configuration.isInMemory else { throw LedgerErrors.needsFile("verify --fix") }
        let ledger = try Ledger(configuration, access: .write)
        defer { ledger.close() }
        guard let directory = configuration.resolvedReceiptsDirectory else { return [] }
        let orphans = try ledger.orphanReceipts()
        for name in orphans {
            try FileManager.default.removeItem(
                at: directory.deletingLastPathComponent().appendingPathComponent(name))
        }
        return orphans
    }
}
