import Foundation
import ObjectGraph

/// Factories for the errors the ledger itself throws: ``LedgerError``s whose message is one
/// line naming what is wrong and, where it helps, what to do.
enum LedgerErrors {
    /// A value typed for `key` (an option such as `--date`) that cannot be read.
    static func badValue(_ key: String, _ text: String, expected: String) -> LedgerError {
        LedgerError(
            .badValue, "bad \(key) \"\(EchoedText.capped(text))\": expected \(expected)",
            key: key, value: text)
    }

    /// No ledger file at `path` for a command that reads one.
    static func missingFile(_ path: String) -> LedgerError {
        LedgerError(
            .noLedger,
            "no ledger at \(EchoedText.capped(path)); create one with `ledger init` (or pass --file PATH)",
            file: path)
    }

    /// `ledger init` over an existing file.
    static func fileExists(_ path: String) -> LedgerError {
        LedgerError(
            .ledgerExists,
            "\(EchoedText.capped(path)) already exists; use it, or pass --file PATH for a new ledger",
            file: path)
    }

    /// A category name that matches none.
    static func unknownCategory(_ name: String) -> LedgerError {
        LedgerError(
            .unknownCategory,
            name.count > EchoedText.limit
                ? "no category named \"\(EchoedText.capped(name))\""
                : "no category named \"\(name)\"; add it with `ledger category add \(Self.quoted(name))`",
            entityName: "Category", key: "name", value: name)
    }

    /// A category name already taken (ignoring case).
    static func duplicateCategory(_ name: String, existing: String) -> LedgerError {
        LedgerError(
            .duplicateCategory,
            "a category named \"\(EchoedText.capped(existing))\" already exists",
            entityName: "Category", key: "name", value: name)
    }

    /// `category delete --rule deny` on a category that still has transactions.
    static func deleteDenied(_ name: String, transactions: Int) -> LedgerError {
        LedgerError(
            .categoryInUse,
            "category \"\(EchoedText.capped(name))\" still has \(transactions) transaction\(transactions == 1 ? "" : "s") "
                + "(rule deny); move or delete \(transactions == 1 ? "it" : "them") first, "
                + "or use --rule nullify or cascade",
            entityName: "Category", key: "transactions")
    }

    /// An ID prefix that matches no transaction.
    static func unknownID(_ prefix: String) -> LedgerError {
        LedgerError(
            .unknownTransaction,
            "no transaction with an ID starting \"\(EchoedText.capped(prefix))\"; see `ledger list`",
            entityName: "Transaction", key: "id", value: prefix)
    }

    /// An ID prefix that matches several transactions.
    static func ambiguousID(_ prefix: String, candidates: [String]) -> LedgerError {
        let shown = candidates.prefix(5).joined(separator: ", ")
        let more = candidates.count > 5 ? ", …" : ""
        return LedgerError(
            .ambiguousID,
            "ID prefix \"\(EchoedText.capped(prefix))\" is ambiguous: it matches \(candidates.count) transactions "
                + "(\(shown)\(more)); give more characters",
            entityName: "Transaction", key: "id", value: prefix)
    }

    /// A receipt file that cannot be used.
    static func receipt(_ path: String, _ reason: String) -> LedgerError {
        LedgerError(
            .receiptUnusable, "receipt \(EchoedText.capped(path)): \(reason)", key: "receiptPath",
            file: path)
    }

    /// An adjustment refused before anything was written: `rows` describes each transaction
    /// whose new value of `key` breaks a rule (the first five are named).
    static func adjustmentRefused(_ adjustment: String, key: String, rows: [String])
        -> LedgerError
    {
        let shown = rows.prefix(5).joined(separator: "; ")
        let more = rows.count > 5 ? "; and \(rows.count - 5) more" : ""
        return LedgerError(
            .adjustmentRefused,
            "adjust \(adjustment) refused: \(rows.count) transaction\(rows.count == 1 ? "" : "s") "
                + "would break the model's rules for \(key) (\(shown)\(more)); nothing was changed",
            entityName: "Transaction", key: key)
    }

    /// A store whose model is not a ledger's.
    static func notALedger(_ what: String) -> LedgerError {
        LedgerError(.notALedger, "\(what): the store's model is not a ledger's")
    }

    /// An operation the RAM store cannot do (compaction, verification, receipts).
    static func needsFile(_ what: String) -> LedgerError {
        LedgerError(.needsFile, "\(what) needs a ledger file; /dev/null is a RAM store")
    }

    /// A name quoted for a shell when it holds anything but letters, digits and `-_.`.
    static func quoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
