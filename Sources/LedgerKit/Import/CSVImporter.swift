import Foundation
import ObjectGraph

/// Reads bank CSV exports into validated ``ImportedRow``s, ready to insert as transactions.
///
/// Engine-independent: it reads bytes and returns values; the ledger inserts the rows
/// through a context (and its `importKey` uniqueness constraint skips rows already there).
/// The file may be UTF-8 (with or without a byte-order mark) or Latin-1; LF, CR LF or CR
/// line ends; `,` `;` or TAB delimited; with quoted fields holding delimiters, quotes and
/// line breaks. Blank lines are skipped. ``ImportOptions`` maps the columns.
///
/// ```swift
/// var options = ImportOptions(dateColumn: 3, amountColumn: 5, descriptionColumns: [2])
/// options.hasHeader = false
/// options.dateFormat = "%d.%m.%Y"
/// let result = try CSVImporter.parse(fileURL: url, options: options)
/// print(result.rows.count, result.totalOut, result.totalIn)
/// ```
///
/// Every row must have the shape of the first record (the header, if any): as many fields,
/// give or take trailing blank ones. A row that cannot be read fails the whole import,
/// naming the file, line and reason, unless
/// ``ImportOptions/skipBadRows`` is set: then it is left out and listed in
/// ``ImportResult/skipped``. Each row's ``ImportedRow/importKey`` hashes its date, signed
/// amount and description cells plus its occurrence index among identical rows of the
/// file, so identical rows in one export all import, and importing the export again yields
/// the same keys.
public enum CSVImporter {
    /// How many rows pass between two progress reports.
    public static let progressInterval = 1_000

    /// Reads the CSV file at `fileURL`.
    ///
    /// - Parameters:
    ///   - fileURL: a file URL; messages name it by its `relativePath`.
    ///   - options: the format and column mapping.
    ///   - progress: called on the caller's thread with the number of data rows done and
    ///     the file's number of data rows, every ``progressInterval`` rows and once at the end.
    /// - Returns: the rows, the skipped rows and what was detected.
    /// - Throws: ``LedgerError`` (`.importFileUnreadable`, `.importOptions`, `.importColumn`,
    ///   `.importFileInvalid`, `.importBadRows`): an unreadable file,
    ///   contradictory options, an unknown column, malformed quoting, invalid UTF-8 when
    ///   UTF-8 was asked for, or bad rows unless skipped (the first one's file, line and
    ///   reason in the message and `file`/`line`, every one under `underlying`, up to 100).
    /// - Complexity: O(n) in the file's size.
    public static func parse(
        fileURL: URL, options: ImportOptions, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ImportResult {
        let name = fileURL.relativePath
        _ = try ImportPlan.check(options)
        let data: Data
        do {
            data = try InputFile.contents(of: fileURL)
        } catch let failure as InputFile.Failure {
            throw ImportError.unreadable(name, failure.reason)
        }
        return try parse(data: data, options: options, sourceName: name, progress: progress)
    }

    /// Reads CSV bytes held in memory (benchmarks, tests, stdin).
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - options: the format and column mapping.
    ///   - sourceName: the name messages give the input, like a file name.
    ///   - progress: as in ``parse(fileURL:options:progress:)``.
    /// - Throws: as ``parse(fileURL:options:progress:)``, except for unreadable files.
    /// - Complexity: O(n) in the size of `data`.
    public static func parse(
        data: Data, options: ImportOptions, sourceName: String = "<data>",
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ImportResult {
        let dateFormat = try ImportPlan.check(options)
        let (bytes, encoding, warnings) = try TextDecoding.decode(
            data, forced: options.encoding, file: sourceName)
        let delimiter = options.delimiter ?? CSVReader.detectDelimiter(in: bytes)
        let table = try CSVReader(delimiter: delimiter.byte, file: sourceName).read(bytes)
        let plan = try ImportPlan(
            options: options, dateFormat: dateFormat, table: table, file: sourceName)
        let (style, inferredAt) = options.decimalStyle.map { ($0, nil) } ?? inferStyle(table, plan)
        var converter = RowConverter(
            plan: plan, parser: AmountParser(style: style, inferredAt: inferredAt),
            expectedRows: table.count)
        var rows: [ImportedRow] = []
        var skipped: [ImportResult.SkippedRow] = []
        var errors: [LedgerError] = []
        var errorCount = 0
        rows.reserveCapacity(max(0, table.count - plan.firstDataRecord))
        table.bytes.withUnsafeBufferPointer { p in
            var done = 0
            let records = plan.firstDataRecord..<max(plan.firstDataRecord, table.count)
            for record in records {
                do throws(LedgerError) {
                    rows.append(try converter.convert(record, table, p))
                } catch {
                    errorCount += 1
                    if options.skipBadRows {
                        skipped.append(
                            .init(
                                line: table.recordLines[record],
                                reason: ImportError.reason(of: error)))
                    } else if errors.count < ImportError.maxListed {
                        errors.append(error)
                    }
                }
                done += 1
                if done % progressInterval == 0 { progress?(done, records.count) }
            }
            progress?(done, records.count)
        }
        if !errors.isEmpty { throw ImportError.badRows(sourceName, errors, total: errorCount) }
        return ImportResult(
            rows: rows, skipped: skipped, header: plan.header, delimiter: delimiter,
            encoding: encoding, decimalStyle: style, warnings: warnings)
    }

    /// The decimal style the first settling amount cell implies, with its line; `.point`
    /// when no cell settles it.
    private static func inferStyle(_ table: CSVTable, _ plan: ImportPlan) -> (DecimalStyle, Int?) {
        table.bytes.withUnsafeBufferPointer { p in
            for record in plan.firstDataRecord..<max(plan.firstDataRecord, table.count)
            where plan.fits(
                record, table, blank: { Text.isBlank(UnsafeBufferPointer(rebasing: p[$0])) })
            {
                for column in plan.amountColumns {
                    let cell = UnsafeBufferPointer(rebasing: p[table.range(record, column)])
                    if let style = DecimalInference.evidence(cell) {
                        return (style, table.recordLines[record])
                    }
                }
            }
            return (.point, nil)
        }
    }
}
