import Foundation

/// One transaction read from a CSV row, validated and ready to insert.
///
/// ``amount`` is always positive (at least 0.01); ``kind`` says which way the money went.
/// ``date`` is a calendar date at 00:00 UTC, so grouping by UTC day never shifts it.
/// ``importKey`` identifies the row across imports of the same export (see
/// ``CSVImporter``), and is what makes a second import add nothing.
public struct ImportedRow: Sendable, Hashable {
    /// Which way the money went.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Money out (a debit, a negative signed amount).
        case expense
        /// Money in (a credit, a positive signed amount).
        case income
    }

    /// The 1-based physical line the row starts on.
    public var line: Int
    /// The calendar date, at 00:00 UTC.
    public var date: Date
    /// The amount, positive, exact, with trailing fraction zeros dropped (`18.00` is `18`).
    public var amount: Decimal
    /// Money out (`.expense`) or in (`.income`).
    public var kind: Kind
    /// The first non-empty description column, whitespace-normalized; `nil` if none.
    public var payee: String?
    /// The later non-empty description columns joined by `" · "`; `nil` if none.
    public var note: String?
    /// The export's category cell (`--category-column`), whitespace-normalized; `nil` when
    /// not mapped or empty.
    public var category: String?
    /// 32 lowercase hex digits, stable across runs and platforms (see ``CSVImporter``).
    public var importKey: String

    /// Creates a row (the importer makes these; tests and previews may too).
    public init(
        line: Int, date: Date, amount: Decimal, kind: Kind, payee: String?, note: String?,
        importKey: String, category: String? = nil
    ) {
        self.category = category
        self.line = line
        self.date = date
        self.amount = amount
        self.kind = kind
        self.payee = payee
        self.note = note
        self.importKey = importKey
    }

    /// The amount with its direction: negative for money out.
    public var signedAmount: Decimal { kind == .expense ? -amount : amount }
}
