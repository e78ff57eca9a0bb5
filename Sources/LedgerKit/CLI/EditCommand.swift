import CLISupport
import Foundation

/// `ledger edit ID`: changes a transaction.
enum EditCommand {
    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["edit"], summary: "change a transaction", arguments: "ID",
                positionals: 1...1,
                options: [
                    .value("--amount", "A", "a new amount"),
                    .flag("--income", "make it money in"),
                    .flag("--expense", "make it money out"),
                    .value("--category", "C", "a new category (\"\" for none)"),
                    .value("--date", "YYYY-MM-DD", "a new date"),
                    .value("--note", "N", "a new note (\"\" for none)"),
                    .value("--payee", "P", "a new payee (\"\" for none)"),
                ],
                details:
                    "ID is any unique prefix of the transaction's ID, as `ledger list` shows it.")
        ) { arguments, output in
            var changes = TransactionChanges()
            changes.amount = try arguments.amount("--amount")
            changes.date = try arguments.date("--date")
            changes.category = arguments.value("--category")
            changes.note = arguments.value("--note")
            changes.payee = arguments.value("--payee")
            switch (arguments.has("--income"), arguments.has("--expense")) {
            case (true, true): throw CLIError.usage("give --income or --expense, not both")
            case (true, false): changes.kind = .income
            case (false, true): changes.kind = .expense
            case (false, false): break
            }
            guard !changes.isEmpty else {
                throw CLIError.usage(
                    "nothing to change: give --amount, --category, --date, --note, --payee, "
                        + "--income or --expense")
            }
            let record = try LedgerSession.run(arguments, environment, access: .write) { ledger in
                try ledger.editTransaction(arguments.positionals[0], changes)
            }
            if arguments.json {
                try output.json(record.jsonObject)
            } else {
                output.out("updated " + LedgerText.line(record))
            }
        }
    }
}
