import Foundation

/// How to read a bank's CSV export: the file's format and which columns mean what.
///
/// Each property mirrors one `ledger import` flag. Only ``dateColumn`` is required; the
/// amount is mapped by exactly one of three shapes:
/// - ``amountColumn`` alone: a signed amount, negative is money out;
/// - ``amountColumn`` with ``typeColumn`` and ``debitValue``: the amount's magnitude,
///   money out where the type cell equals the debit word (ignoring case and surrounding
///   spaces), money in otherwise;
/// - ``debitColumn`` with ``creditColumn``: unsigned amounts in two columns, one of them
///   empty (or zero) per row.
///
/// ```swift
/// var options = ImportOptions(dateColumn: "Date")
/// options.dateFormat = "%m/%d/%y"
/// options.amountColumn = "Amount"
/// options.typeColumn = "Transaction Type"
/// options.debitValue = "debit"
/// options.descriptionColumns = ["Description", "Notes"]
/// ```
///
/// Description columns, in the order given, become the row's payee and note: the first
/// non-empty one is the payee, the later non-empty ones joined by `" · "` are the note.
/// Each cell is trimmed and its runs of whitespace (line breaks included) become one space.
public struct ImportOptions: Sendable, Hashable {
    /// `--delimiter`: the field separator; `nil` (the default) detects it.
    public var delimiter: CSVDelimiter?
    /// `--encoding`: the text encoding; `nil` (the default) reads UTF-8, falling back to
    /// Latin-1 when the bytes are not valid UTF-8.
    public var encoding: CSVEncoding?
    /// `--decimal-comma` sets `.comma`; `nil` (the default) infers the style per file.
    public var decimalStyle: DecimalStyle?
    /// `--date-format`: a strftime pattern (`%Y %y %m %d %b %B %H %M %S %%`); `nil` (the
    /// default) reads ISO 8601 dates (`2026-03-01`, `20260301`, optionally with a time).
    public var dateFormat: String?
    /// `--header` (`true`, the default) / `--no-header`: whether the first non-blank
    /// record names the columns rather than holding a transaction.
    public var hasHeader: Bool
    /// `--date-column`: the transaction date.
    public var dateColumn: ColumnReference
    /// `--amount-column`: a signed amount, or with ``typeColumn`` an unsigned one.
    public var amountColumn: ColumnReference?
    /// `--type-column`: the direction of ``amountColumn``'s amount.
    public var typeColumn: ColumnReference?
    /// `--debit-value`: the ``typeColumn`` word that means money out (e.g. `debit`).
    public var debitValue: String?
    /// `--debit-column`: money out, unsigned.
    public var debitColumn: ColumnReference?
    /// `--credit-column`: money in, unsigned.
    public var creditColumn: ColumnReference?
    /// `--description-column` (repeatable): joined into payee and note, in this order.
    public var descriptionColumns: [ColumnReference]
    /// `--category-column`: the export's own category, given to the row as its category
    /// (an empty cell leaves the row to the rules and learning); `nil` (the default) for
    /// none. Not part of a row's import key.
    public var categoryColumn: ColumnReference?
    /// `--skip-bad-rows`: skip rows that cannot be read and list them, instead of failing
    /// the whole import (the default, all-or-nothing).
    public var skipBadRows: Bool

    /// Creates options with the given mapping and the defaults above for the rest.
    public init(
        dateColumn: ColumnReference, amountColumn: ColumnReference? = nil,
        typeColumn: ColumnReference? = nil, debitValue: String? = nil,
        debitColumn: ColumnReference? = nil, creditColumn: ColumnReference? = nil,
        descriptionColumns: [ColumnReference] = [], dateFormat: String? = nil,
        hasHeader: Bool = true, delimiter: CSVDelimiter? = nil, encoding: CSVEncoding? = nil,
        decimalStyle: DecimalStyle? = nil, skipBadRows: Bool = false,
        categoryColumn: ColumnReference? = nil
    ) {
        self.categoryColumn = categoryColumn
        self.delimiter = delimiter
        self.encoding = encoding
        self.decimalStyle = decimalStyle
        self.dateFormat = dateFormat
        self.hasHeader = hasHeader
        self.dateColumn = dateColumn
        self.amountColumn = amountColumn
        self.typeColumn = typeColumn
        self.debitValue = debitValue
        self.debitColumn = debitColumn
        self.creditColumn = creditColumn
        self.descriptionColumns = descriptionColumns
        self.skipBadRows = skipBadRows
    }
}
