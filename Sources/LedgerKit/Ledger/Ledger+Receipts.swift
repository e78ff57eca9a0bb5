import Foundation
import ObjectGraph

extension Ledger {
    /// Where the receipt stored as `path` is: `path` when absolute, else relative to the
    /// ledger file's directory.
    public func receiptURL(forStoredPath path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return configuration.storeURL.deletingLastPathComponent().appendingPathComponent(path)
    }

    /// Copies `source` into the receipts directory as `<id>.<extension>`.
    ///
    /// - Returns: the path to store (relative to the ledger's directory when the receipts
    ///   directory is the default one beside it, else absolute) and the copy's URL.
    /// - Throws: ``ObjectGraphError`` `.coreData` (134060) when `source` is not a readable
    ///   file, the ledger has no receipts directory (a RAM store), or the copy fails.
    func storeReceipt(_ source: URL, id: UUID) throws -> (path: String, copy: URL) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory) else {
            throw LedgerError.receipt(source.relativePath, "no such file")
        }
        guard !isDirectory.boolValue else {
            throw LedgerError.receipt(source.relativePath, "is a directory")
        }
        guard let directory = configuration.resolvedReceiptsDirectory else {
            throw LedgerError.needsFile("a receipt")
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
            try FileManager.default.copyItem(at: source, to: copy)
        } catch {
            throw LedgerError.receipt(
                source.relativePath, "cannot copy to \(copy.path): \(error.localizedDescription)")
        }
        let usesDefault = configuration.receiptsDirectory == nil && !isInMemory
        let stored =
            usesDefault ? "\(directory.lastPathComponent)/\(name)" : copy.standardizedFileURL.path
        return (stored, copy)
    }
}
