import Foundation

/// A new transaction, as `ledger add` describes it.
///
/// ```swift
/// var draft = TransactionDraft(amount: 64.35, category: "Groceries")
/// draft.date = LedgerDates.parse("2026-11-02")
/// draft.payee = "Market Hall"
/// ```
public struct TransactionDraft: Sendable, Hashable {
    /// The amount, positive (at least 0.01).
    public var amount: Decimal
    /// Money out (the default) or in.
    public var kind: TransactionKind
    /// The category's name (matched exactly, else ignoring case); `nil` for none.
    public var category: String?
    /// The calendar date at 00:00 UTC; `nil` for today.
    public var date: Date?
    /// A note.
    public var note: String?
    /// The payee.
    public var payee: String?
    /// A receipt file to copy beside the ledger.
    public var receipt: URL?

    /// A draft with the given values; the rest are unset.
    public init(
        amount: Decimal, kind: TransactionKind = .expense, category: String? = nil,
        date: Date? = nil,
        note: String? = nil, payee: String? = nil, receipt: URL? = nil
    ) {
        self.amount = amount
        self.kind = kind
        self.category = category
        self.date = date
        self.note = note
        self.payee = payee
        self.receipt = receipt
    }
}

/// Changes to a transaction, as `ledger edit` describes them; `nil` leaves a value as is.
public struct TransactionChanges: Sendable, Hashable {
    /// A new amount.
    public var amount: Decimal?
    /// A new direction.
    public var kind: TransactionKind?
    /// A new category name; `""` removes the category.
    public var category: String?
    /// A new calendar date.
    public var date: Date?
    /// A new note; `""` removes it.
    public var note: String?
    /// A new payee; `""` removes it.
    public var payee: String?

    /// No changes; set the properties you want to change.
    public init() {}

    /// Whether nothing would change.
    public var isEmpty: Bool {
        amount == nil && kind == nil && category == nil && date == nil && note == nil
            && payee == nil
    }
}
