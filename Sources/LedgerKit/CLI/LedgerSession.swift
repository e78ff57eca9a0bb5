import CLISupport
import Foundation

/// Opens the ledger a command names, runs the command's work, and turns any failure into
/// one line (exit 1), leaving nothing behind: a ledger file the command created is removed
/// again when the command fails.
enum LedgerSession {
    /// Runs `body` with the ledger of `--file` opened for `access`, then closes it. What the
    /// store noticed on opening (an interrupted save's incomplete last line, transactions
    /// missing at the end, a leftover temporary file) goes to standard error, once. The
    /// ledger's saves carry the running command (`"ledger add"`) as their transaction author.
    static func run<T>(
        _ global: LedgerGlobalOptions, _ environment: LedgerEnvironment, access: LedgerAccess,
        output: CLIOutput, _ body: (Ledger) throws -> T
    ) throws -> T {
        let ledger = try open(global, environment, access: access, output: output)
        defer { ledger.close() }
        do {
            return try body(ledger)
        } catch {
            ledger.discardCreatedFile()
            throw failure(error)
        }
    }

    /// Opens the ledger of `--file` for `access`, reports what the store noticed on standard
    /// error, and makes the running command the author of its saves. The caller closes it.
    static func open(
        _ global: LedgerGlobalOptions, _ environment: LedgerEnvironment, access: LedgerAccess,
        output: CLIOutput
    ) throws -> Ledger {
        let ledger: Ledger
        do {
            ledger = try Ledger(environment.configuration(file: global.file), access: access)
        } catch {
            throw failure(error)
        }
        for notice in ledger.storeNotices { output.err("ledger: notice: \(notice)") }
        ledger.transactionAuthor = RunningCommand.name
        return ledger
    }

    /// `error` as a one-line failure; usage errors stay usage errors.
    static func failure(_ error: any Error) -> CLIError {
        if let error = error as? CLIError { return error }
        // Multi-line messages (a predicate quoted with a caret under the column) become one
        // line: the caret line goes (the message names the column), the rest joins with ": ".
        let lines = CLIOutput.describe(error)
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { line in !line.isEmpty && !line.allSatisfy { $0 == "^" || $0 == " " } }
        return .failure(lines.joined(separator: ": "))
    }
}

/// Text formatting shared by the commands.
enum LedgerText {
    /// `-12.50` for money out, `+2400.00` for money in.
    static func signed(_ record: TransactionRecord) -> String {
        (record.kind == .expense ? "-" : "+") + Money.format(record.amount)
    }

    /// One transaction as a line: short ID, date, signed amount, category, payee, note.
    static func line(_ record: TransactionRecord, id: String? = nil) -> String {
        [
            id ?? String(record.idString.prefix(8)), LedgerDates.day(record.date), signed(record),
            record.category ?? "-", record.payee ?? "", record.note ?? "",
        ].filter { !$0.isEmpty }.joined(separator: "  ")
    }

    /// `1 transaction`, `2 transactions`; `plural` for nouns not made plural by an `s`.
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }
}
