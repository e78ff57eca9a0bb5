import CLISupport
import Foundation

/// `ledger delete ID...`: deletes transactions (and their receipts).
enum DeleteCommand {
    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["delete"], summary: "delete transactions", arguments: "ID...",
                positionals: 1...Int.max,
                details:
                    "Each ID is any unique prefix. All or nothing: one unknown ID deletes none. "
                    + "Receipts are removed once the deletion is saved.")
        ) { arguments, output in
            let records = try LedgerSession.run(arguments, environment, access: .write) { ledger in
                try ledger.deleteTransactions(arguments.positionals)
            }
            if arguments.json {
                try output.json(records.map(\.jsonObject))
            } else {
                output.out("deleted \(LedgerText.count(records.count, "transaction"))")
                for record in records { output.out("  " + LedgerText.line(record)) }
            }
        }
    }
}
