import Foundation
import ObjectGraph

/// The formats `ledger export` writes.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// RFC 4180 CSV with a header row, one transaction per row, by date.
    case csv
    /// One JSON object: `categories` and `transactions` arrays.
    case json
}

extension Ledger {
    /// The CSV export: a header `id,date,amount,kind,category,payee,note,cleared,receipt`
    /// and one row per transaction, by date, CRLF-free (`\n` line ends). Amounts are
    /// unsigned decimal strings; `kind` says which way; `cleared` is `true`/`false`.
    ///
    /// The file imports back with `ledger import FILE --date-column date --amount-column
    /// amount --type-column kind --debit-value expense --description-column payee
    /// --description-column note`.
    ///
    /// - Throws: store errors.
    public func exportCSV() throws -> String {
        var lines = ["id,date,amount,kind,category,payee,note,cleared,receipt"]
        for t in try transactions() {
            let fields = [
                t.idString, LedgerDates.day(t.date), Money.format(t.amount), t.kind.rawValue,
                t.category ?? "", t.payee ?? "", t.note ?? "", t.isCleared ? "true" : "false",
                t.receiptPath ?? "",
            ]
            lines.append(fields.map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON export: `{"categories": [{"name", "color"}], "transactions": [...]}`, each
    /// transaction as `list --json` prints it plus `receipt` and `importKey`.
    ///
    /// - Throws: store errors.
    public func exportObject() throws -> [String: Any] {
        let categories = try self.categories().map { ["name": $0.name, "color": $0.colorHex] }
        let transactions = try transactions().map { t -> [String: Any] in
            var object = t.jsonObject
            object["receipt"] = t.receiptPath ?? NSNull()
            object["importKey"] = t.importKey ?? NSNull()
            return object
        }
        return ["categories": categories, "transactions": transactions]
    }

    /// `text` as a CSV field: quoted when it holds a comma, quote, line break or
    /// surrounding spaces, with quotes doubled.
    static func csvField(_ text: String) -> String {
        let needsQuotes =
            text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " "
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
