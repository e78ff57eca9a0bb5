import Foundation

/// What reading a CSV export produced: the rows to insert, the rows skipped, and what was
/// detected about the file.
public struct ImportResult: Sendable, Hashable {
    /// A row left out under ``ImportOptions/skipBadRows``.
    public struct SkippedRow: Sendable, Hashable {
        /// The 1-based physical line the row starts on.
        public var line: Int
        /// Why it could not be read, e.g. `bad date "2026-13-01" in column 1: month 13`.
        public var reason: String

        /// Creates a skipped-row entry.
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// The rows read, in file order.
    public var rows: [ImportedRow]
    /// The rows skipped, in file order (always empty unless skipping was asked for).
    public var skipped: [SkippedRow]
    /// The header cells (trimmed), or `nil` when the file has no header row.
    public var header: [String]?
    /// The delimiter used: the one given, or the one detected.
    public var delimiter: CSVDelimiter
    /// The encoding used: the one given, or the one detected.
    public var encoding: CSVEncoding
    /// The decimal style used: the one given, or the one inferred.
    public var decimalStyle: DecimalStyle
    /// What the importer guessed and a person should check, e.g. that a file that is not
    /// UTF-8 was read as Latin-1 (with the first line that shows it).
    public var warnings: [String]

    /// Creates a result (the importer makes these).
    public init(
        rows: [ImportedRow], skipped: [SkippedRow], header: [String]?,
        delimiter: CSVDelimiter, encoding: CSVEncoding, decimalStyle: DecimalStyle,
        warnings: [String] = []
    ) {
        self.rows = rows
        self.skipped = skipped
        self.header = header
        self.delimiter = delimiter
        self.encoding = encoding
        self.decimalStyle = decimalStyle
        self.warnings = warnings
    }

    /// The sum of the expense rows' amounts (money out), exact.
    ///
    /// - Complexity: O(n) in the number of rows.
    public var totalOut: Decimal {
        rows.reduce(Decimal(0)) { $1.kind == .expense ? $0 + $1.amount : $0 }
    }

    /// The sum of the income rows' amounts (money in), exact.
    ///
    /// - Complexity: O(n) in the number of rows.
    public var totalIn: Decimal {
        rows.reduce(Decimal(0)) { $1.kind == .income ? $0 + $1.amount : $0 }
    }
}
