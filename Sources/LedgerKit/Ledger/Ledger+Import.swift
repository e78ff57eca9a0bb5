import Foundation
import ObjectGraph

/// What importing a CSV export did (or, for a dry run, would do).
public struct ImportSummary: Sendable {
    /// The CSV file, as given.
    public var file: String
    /// What the importer read: every row, the skipped rows, the detected format.
    public var result: ImportResult
    /// The rows added (or that a dry run would add): those whose import key the ledger did
    /// not hold yet.
    public var added: [ImportedRow]
    /// How many rows the ledger already held (imported before).
    public var alreadyPresent: Int
    /// Whether nothing was written.
    public var isDryRun: Bool

    /// Money out of the added rows.
    public var out: Decimal {
        added.reduce(Decimal(0)) { $1.kind == .expense ? $0 + $1.amount : $0 }
    }
    /// Money in of the added rows.
    public var `in`: Decimal {
        added.reduce(Decimal(0)) { $1.kind == .income ? $0 + $1.amount : $0 }
    }

    /// The object `import --json` prints.
    public var jsonObject: [String: Any] {
        [
            "file": file, "rows": result.rows.count, "imported": added.count,
            "alreadyPresent": alreadyPresent, "dryRun": isDryRun,
            "out": Money.format(out), "in": Money.format(self.in),
            "skipped": result.skipped.map {
                ["line": $0.line, "reason": $0.reason] as [String: Any]
            },
            "delimiter": result.delimiter.description, "encoding": result.encoding.description,
            "decimal": result.decimalStyle.description, "warnings": result.warnings,
        ]
    }
}

/// How far an import has got, for progress reports on large files.
public enum ImportProgress: Sendable, Hashable {
    /// This many data rows of the file's total have been read (every
    /// ``CSVImporter/progressInterval`` rows and once at the end).
    case read(Int, of: Int)
    /// This many new transactions are being saved.
    case saving(Int)
}

extension Ledger {
    /// Imports a bank's CSV export: reads every row, then adds, in one scratchpad saved in
    /// two steps, the rows whose import key the ledger does not hold yet, so importing the
    /// same file again adds nothing (and keeps any edits made since).
    ///
    /// - Parameters:
    ///   - fileURL: the CSV file.
    ///   - options: its format and column mapping.
    ///   - dryRun: read and compare only; write nothing.
    ///   - progress: called as rows are read and before the save, on the caller's thread.
    /// - Throws: ``LedgerError`` — the importer's errors (`.importOptions`, `.importBadRows`, …)
    ///   naming file, line and reason (nothing is imported); store errors.
    /// - Complexity: O(rows + transactions).
    public func importCSV(
        _ fileURL: URL, options: ImportOptions, dryRun: Bool = false,
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        try importRows(
            Self.readCSV(fileURL, options: options, progress: progress), from: fileURL,
            dryRun: dryRun, progress: progress)
    }

    /// Reads every row of a CSV export, needing no ledger: a command reads its file before
    /// it opens (or creates) the ledger, so a file that cannot be read creates nothing.
    ///
    /// - Throws: the importer's `.coreData` (134060) errors naming file, line and reason.
    static func readCSV(
        _ fileURL: URL, options: ImportOptions, progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportResult {
        try CSVImporter.parse(
            fileURL: fileURL, options: options,
            progress: progress.map { report in
                { report(.read($0, of: $1)) }
            })
    }

    /// Adds the rows of `result` (read from `fileURL` by ``readCSV(_:options:progress:)``)
    /// whose import key the ledger does not hold yet, as ``importCSV(_:options:dryRun:progress:)``.
    func importRows(
        _ result: ImportResult, from fileURL: URL, dryRun: Bool = false,
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        let known = try importKeys()
        let fresh = result.rows.filter { !known.contains($0.importKey) }
        let summary = ImportSummary(
            file: fileURL.relativePath, result: result, added: fresh,
            alreadyPresent: result.rows.count - fresh.count, isDryRun: dryRun)
        guard !dryRun, !fresh.isEmpty else { return summary }
        progress?(.saving(fresh.count))
        try change { context in
            for row in fresh {
                let transaction = Transaction(context: context)
                transaction.id = configuration.newID()
                transaction.amount = row.amount
                transaction.kind = row.kind.rawValue
                transaction.date = row.date
                transaction.payee = row.payee
                transaction.note = row.note
                transaction.importKey = row.importKey
            }
        }
        return summary
    }

    /// What importing `fileURL` into an empty ledger would add: a dry run that needs no
    /// ledger file.
    ///
    /// - Throws: the importer's errors, as ``importCSV(_:options:dryRun:progress:)``.
    public static func previewImport(
        _ fileURL: URL, options: ImportOptions, progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        preview(try readCSV(fileURL, options: options, progress: progress), from: fileURL)
    }

    /// The dry run of ``previewImport(_:options:progress:)`` for rows already read.
    static func preview(_ result: ImportResult, from fileURL: URL) -> ImportSummary {
        ImportSummary(
            file: fileURL.relativePath, result: result, added: result.rows, alreadyPresent: 0,
            isDryRun: true)
    }

    /// The import keys the ledger holds: read from the store's rows when the root context has
    /// no unsaved changes, else from the objects.
    private func importKeys() throws -> Set<String> {
        try read { context in
            guard let (rows, entity) = try savedRows("Transaction", in: context),
                let slot = entity.propertiesByName["importKey"]?.index
            else {
                return Set(try Self.allTransactions(in: context).lazy.compactMap(\.importKey))
            }
            var keys = Set<String>()
            for row in rows {
                if case .string(let key) = row.values[slot].attributeValue { keys.insert(key) }
            }
            return keys
        }
    }
}
