import CLISupport
import Foundation

/// `ledger add AMOUNT`: records a transaction.
enum AddCommand {
    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["add"], summary: "add a transaction (money out unless --income)",
                arguments: "AMOUNT",
                positionals: 1...1,
                options: [
                    .flag("--income", "money in (default: money out)"),
                    .value("--category", "C", "its category (must exist)"),
                    .value("--date", "YYYY-MM-DD", "its date (default: today)"),
                    .value("--note", "N", "a note"),
                    .value("--payee", "P", "who was paid, or who paid"),
                    .value(
                        "--receipt", "FILE",
                        "a receipt to copy beside the ledger (removed with the transaction)"),
                ],
                details:
                    "AMOUNT is positive, with at most 2 decimals: 12.50. Creates the ledger file if missing."
            )
        ) { arguments, output in
            var draft = TransactionDraft(
                amount: try LedgerValues.amountArgument(arguments.positionals[0]))
            draft.kind = arguments.has("--income") ? .income : .expense
            draft.category = arguments.value("--category")
            draft.date = try arguments.date("--date")
            draft.note = arguments.value("--note")
            draft.payee = arguments.value("--payee")
            draft.receipt = arguments.value("--receipt").map(environment.url)
            let record = try LedgerSession.run(arguments, environment, access: .create) { ledger in
                try ledger.addTransaction(draft)
            }
            if arguments.json {
                try output.json(record.jsonObject)
            } else {
                output.out("added " + LedgerText.line(record))
            }
        }
    }
}

extension LedgerValues {
    /// The `AMOUNT` argument, or a one-line failure.
    static func amountArgument(_ text: String) throws -> Decimal {
        do { return try amount(text) } catch { throw LedgerSession.failure(error) }
    }
}
