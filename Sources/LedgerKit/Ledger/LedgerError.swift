import Foundation
import ObjectGraph

/// Factories for the errors the ledger itself throws: `ObjectGraphError`s whose message is
/// one line naming what is wrong and, where it helps, what to do.
///
/// Bad values a person typed are `.validation` (1550) with the key and value; things that
/// do not exist or cannot be done are `.coreData` (134060).
enum LedgerError {
    /// A value typed for `key` (an option such as `--date`) that cannot be read.
    static func badValue(_ key: String, _ text: String, expected: String) -> ObjectGraphError {
        ObjectGraphError(
            .validation, "bad \(key) \"\(EchoedText.capped(text))\": expected \(expected)",
            key: key,
            value: .string(text))
    }

    /// No ledger file at `path` for a command that reads one.
    static func missingFile(_ path: String) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "no ledger at \(EchoedText.capped(path)); create one with `ledger init` (or pass --file PATH)",
            file: path)
    }

    /// `ledger init` over an existing file.
    static func fileExists(_ path: String) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "\(EchoedText.capped(path)) already exists; use it, or pass --file PATH for a new ledger",
            file: path)
    }

    /// A category name that matches none.
    static func unknownCategory(_ name: String) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            name.count > EchoedText.limit
                ? "no category named \"\(EchoedText.capped(name))\""
                : "no category named \"\(name)\"; add it with `ledger category add \(Self.quoted(name))`",
            entityName: "Category", key: "name", value: .string(name))
    }

    /// A category name already taken (ignoring case).
    static func duplicateCategory(_ name: String, existing: String) -> ObjectGraphError {
        ObjectGraphError(
            .constraintConflict,
            "a category named \"\(EchoedText.capped(existing))\" already exists",
            entityName: "Category", key: "name", value: .string(name))
    }

    /// `category delete --rule deny` on a category that still has transactions.
    static func deleteDenied(_ name: String, transactions: Int) -> ObjectGraphError {
        ObjectGraphError(
            .validationRelationshipDeniedDelete,
            "category \"\(EchoedText.capped(name))\" still has \(transactions) transaction\(transactions == 1 ? "" : "s") "
                + "(rule deny); move or delete \(transactions == 1 ? "it" : "them") first, "
                + "or use --rule nullify or cascade",
            entityName: "Category", key: "transactions")
    }

    /// An ID prefix that matches no transaction.
    static func unknownID(_ prefix: String) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "no transaction with an ID starting \"\(EchoedText.capped(prefix))\"; see `ledger list`",
            entityName: "Transaction", key: "id", value: .string(prefix))
    }

    /// An ID prefix that matches several transactions.
    static func ambiguousID(_ prefix: String, candidates: [String]) -> ObjectGraphError {
        let shown = candidates.prefix(5).joined(separator: ", ")
        let more = candidates.count > 5 ? ", …" : ""
        return ObjectGraphError(
            .coreData,
            "ID prefix \"\(EchoedText.capped(prefix))\" is ambiguous: it matches \(candidates.count) transactions "
                + "(\(shown)\(more)); give more characters",
            entityName: "Transaction", key: "id", value: .string(prefix))
    }

    /// A receipt file that cannot be used.
    static func receipt(_ path: String, _ reason: String) -> ObjectGraphError {
        ObjectGraphError(
            .coreData, "receipt \(EchoedText.capped(path)): \(reason)", key: "receiptPath",
            file: path)
    }

    /// An operation the RAM store cannot do (compaction, verification, receipts).
    static func needsFile(_ what: String) -> ObjectGraphError {
        ObjectGraphError(.coreData, "\(what) needs a ledger file; /dev/null is a RAM store")
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
