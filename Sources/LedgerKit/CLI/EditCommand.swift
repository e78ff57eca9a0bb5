import CLISupport
import Foundation

/// `ledger edit ID`: changes a transaction.
enum EditCommand {
    struct Arguments: ParsableArguments {
        @Argument("ID") var id: String
        @Option("--amount", "A", help: "a new amount", transform: .ledgerAmount)
        var amount: Decimal?
        @Flag("--income", help: "make it money in") var income: Bool
        @Flag("--expense", help: "make it money out") var expense: Bool
        @Option("--category", "C", help: "a new category (\"\" for none)") var category: String?
        @Option("--date", "YYYY-MM-DD", help: "a new date", transform: .ledgerDate)
        var date: Date?
        @Option("--note", "N", help: "a new note (\"\" for none)") var note: String?
        @Option("--payee", "P", help: "a new payee (\"\" for none)") var payee: String?
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["edit"], summary: "change a transaction",
            details: "ID is any unique prefix of the transaction's ID, as `ledger list` shows it."
        ) { (arguments: Arguments, global, output) in
            var changes = TransactionChanges()
            changes.amount = arguments.amount
            changes.date = arguments.date
            changes.category = arguments.category
            changes.note = arguments.note
            changes.payee = arguments.payee
            switch (arguments.income, arguments.expense) {
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
            let record = try LedgerSession.run(global, environment, access: .write, output: output)
            { ledger in
                try ledger.editTransaction(arguments.id, changes)
            }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out("updated " + LedgerText.line(record))
            }
        }
    }
}
