import Foundation

/// A transaction's values, copied out of its context: safe to keep, print and send across
/// threads.
public struct TransactionRecord: Sendable, Hashable {
    /// The transaction's stable identifier.
    public var id: UUID
    /// The amount, positive; ``kind`` says which way it went.
    public var amount: Decimal
    /// Money out or in.
    public var kind: TransactionKind
    /// The calendar date, at 00:00 UTC.
    public var date: Date
    /// The note, if any.
    public var note: String?
    /// The payee, if any.
    public var payee: String?
    /// The category's name, or `nil` when uncategorised.
    public var category: String?
    /// Whether the transaction is reconciled with the bank.
    public var isCleared: Bool
    /// The receipt's path as stored: relative to the ledger file's directory, or absolute.
    public var receiptPath: String?
    /// The import key of the CSV row it came from, if imported.
    public var importKey: String?

    /// Copies the values of `transaction` (on its context's queue).
    init(_ transaction: Transaction) {
        id = transaction.id ?? LedgerValues.nilUUID
        amount = transaction.amount
        kind = transaction.isIncome ? .income : .expense
        date = transaction.date ?? Date(timeIntervalSince1970: 0)
        note = transaction.note
        payee = transaction.payee
        category = transaction.category?.name
        isCleared = transaction.isCleared
        receiptPath = transaction.receiptPath
        importKey = transaction.importKey
    }

    /// The amount with its direction: negative for money out.
    public var signedAmount: Decimal { kind == .expense ? -amount : amount }

    /// The ID as shown and matched: lowercase, with dashes.
    public var idString: String { id.uuidString.lowercased() }

    /// The object `list --json` prints: `id`, `amount` (a decimal string), `kind`, `date`
    /// (`YYYY-MM-DD`), `note`, `payee`, `category` (name or null), `isCleared`.
    public var jsonObject: [String: Any] {
        [
            "id": idString, "amount": Money.format(amount), "kind": kind.rawValue,
            "date": LedgerDates.day(date), "note": note ?? NSNull(), "payee": payee ?? NSNull(),
            "category": category ?? NSNull(), "isCleared": isCleared,
        ]
    }
}

/// A category's values and totals, copied out of its context.
public struct CategoryRecord: Sendable, Hashable {
    /// The category's stable identifier.
    public var id: UUID
    /// The name.
    public var name: String
    /// The `#RRGGBB` colour.
    public var colorHex: String
    /// How many transactions it holds.
    public var transactions: Int
    /// The money out of its transactions.
    public var out: Decimal
    /// The money in of its transactions.
    public var `in`: Decimal

    /// Copies the values and totals of `category` (on its context's queue).
    init(_ category: Category) {
        id = category.id ?? LedgerValues.nilUUID
        name = category.name ?? ""
        colorHex = category.colorHex ?? "#FFFFFF"
        let members = category.transactions
        transactions = members.count
        var out = Decimal(0)
        var income = Decimal(0)
        for t in members { if t.isIncome { income += t.amount } else { out += t.amount } }
        self.out = out
        self.in = income
    }

    /// The object `category list --json` prints: `name`, `color`, `transactions`, and
    /// `out` and `in` as decimal strings.
    public var jsonObject: [String: Any] {
        [
            "name": name, "color": colorHex, "transactions": transactions,
            "out": Money.format(out), "in": Money.format(self.in),
        ]
    }
}
