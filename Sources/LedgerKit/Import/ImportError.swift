import Foundation
import ObjectGraph

/// Factories for the errors an import throws: ``LedgerError``s with the file in `file` and
/// the 1-based physical line in `line`.
enum ImportError {
    /// Options that contradict each other or cannot be used (no file position).
    static func options(_ reason: String) -> LedgerError {
        LedgerError(.importOptions, "import options: \(reason)")
    }

    /// The file could not be read at all: `reason` says why ("is a directory").
    static func unreadable(_ file: String, _ reason: String) -> LedgerError {
        LedgerError(.importFileUnreadable, "\(EchoedText.capped(file)): \(reason)", file: file)
    }

    /// A problem with the whole file at a line (quoting, encoding, header).
    static func file(_ file: String, line: Int, _ reason: String) -> LedgerError {
        LedgerError(.importFileInvalid, "\(file):\(line): \(reason)", file: file, line: line)
    }

    /// A column reference that the header or the first record cannot satisfy.
    static func column(_ file: String, line: Int, _ column: ColumnReference, _ reason: String)
        -> LedgerError
    {
        LedgerError(
            .importColumn, "\(file):\(line): \(column) \(reason)", file: file, line: line)
    }

    /// A row whose `key` (date, amount, …) cell holds `text` that cannot be read.
    static func cell(
        _ file: String, line: Int, key: String, text: String, column: String,
        _ problem: ImportProblem
    ) -> LedgerError {
        LedgerError(
            .importRow,
            "\(file):\(line): bad \(key) \"\(EchoedText.capped(text))\" in \(column): "
                + problem.reason,
            key: key, value: text, file: file, line: line)
    }

    /// A row that cannot be read as a whole (wrong field count, no amount).
    static func row(_ file: String, line: Int, _ problem: ImportProblem) -> LedgerError {
        LedgerError(.importRow, "\(file):\(line): \(problem.reason)", file: file, line: line)
    }

    /// All-or-nothing failure: the first bad row's message and how many more there are;
    /// `errors` (at most ``maxListed`` of the `total`) go under `underlying`.
    static func badRows(_ file: String, _ errors: [LedgerError], total: Int)
        -> LedgerError
    {
        let first = errors[0]
        let more = total == 1 ? "" : " (and \(total - 1) more bad row\(total == 2 ? "" : "s"))"
        return LedgerError(
            .importBadRows,
            "\(first.message)\(more); nothing imported (--skip-bad-rows skips bad rows)",
            key: first.key, value: first.value, file: file, line: first.line,
            underlying: Array(errors.prefix(maxListed)))
    }

    /// How many row errors an all-or-nothing failure lists under `underlying`.
    static let maxListed = 100

    /// The text after the file position, for ``ImportResult/SkippedRow/reason``.
    static func reason(of error: LedgerError) -> String {
        guard let file = error.file, let line = error.line else { return error.message }
        let prefix = "\(file):\(line): "
        return error.message.hasPrefix(prefix)
            ? String(error.message.dropFirst(prefix.count)) : error.message
    }
}
