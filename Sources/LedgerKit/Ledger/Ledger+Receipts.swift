import Foundation
import ObjectGraph

extension Ledger {
    /// Where the receipt stored as `path` is: `path` when absolute, else relative to the
    /// ledger file's directory.
    public func receiptURL(forStoredPath path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return configuration.storeURL.deletingLastPathComponent().appendingPathComponent(path)
    }

    /// The largest receipt copied (64 MiB): more is refused, so a device such as `/dev/zero`
    /// cannot fill the disk.
    static let maximumReceiptBytes = 64 << 20

    /// Checks, before anything is opened or created, that the receipt to copy exists.
    ///
    /// - Throws: ``LedgerError`` `.receiptUnusable` naming the file when it does not.
    public static func checkReceipt(_ source: URL) throws {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw LedgerErrors.receipt(source.relativePath, "does not exist")
        }
    }

    /// Copies `source` into the receipts directory as `<id>.<extension>`.
    ///
    /// The copy is always a new regular file with the ledger file's permission bits, whatever
    /// `source` is: a regular file, or a device or pipe read to its end (`/dev/stdin`).
    ///
    /// - Returns: the path to store (relative to the ledger's directory when the receipts
    ///   directory is the default one beside it, else absolute) and the copy's URL.
    /// - Throws: ``LedgerError`` `.receiptUnusable` when `source` cannot be read (a
    ///   directory, missing, more than ``maximumReceiptBytes``) or the copy fails;
    ///   `.needsFile` when the ledger has no receipts directory (a RAM store).
    func storeReceipt(_ source: URL, id: UUID) throws -> (path: String, copy: URL) {
        try Self.checkReceipt(source)
        guard let directory = configuration.resolvedReceiptsDirectory else {
            throw LedgerErrors.needsFile("a receipt")
        }
        let ext = source.pathExtension
        let name = id.uuidString.lowercased() + (ext.isEmpty ? "" : ".\(ext)")
        let copy = directory.appendingPathComponent(name)
        do {
            if !FileManager.default.fileExists(atPath: directory.path) {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true)
                createdReceiptsDirectory = true
            }
        } catch {
            throw LedgerErrors.receipt(
                source.relativePath,
                "cannot create \(directory.path): \(error.localizedDescription)")
        }
        let mode =
            (isInMemory ? nil : InputFile.permissions(atPath: configuration.storeURL.path))
            ?? 0o644
        do {
            try InputFile.copy(source, to: copy, mode: mode, limit: Self.maximumReceiptBytes)
        } catch let failure as InputFile.Failure {
            throw LedgerErrors.receipt(source.relativePath, failure.reason)
        }
        let usesDefault = configuration.receiptsDirectory == nil && !isInMemory
        let stored =
            usesDefault ? "\(directory.lastPathComponent)/\(name)" : copy.standardizedFileURL.path
        return (stored, copy)
    }
}
