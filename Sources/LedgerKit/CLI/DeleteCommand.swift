import CLISupport
import Foundation

/// `ledger delete ID...`: deletes transactions (and their receipts).
enum DeleteCommand {
    struct Arguments: ParsableArguments {
        @Argument("ID") var ids: [String]
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["delete"], summary: "delete transactions",
            details:
                "Each ID is any unique prefix. All or nothing: one unknown ID deletes none. "
                + "Receipts are removed once the deletion is saved."
        ) { (arguments: Arguments, global, output) in
            let records = try LedgerSession.run(global, environment, access: .write, output: output)
            { ledger in
                try ledger.deleteTransactions(arguments.ids)
            }
            if global.json {
                try output.json(records.map(\.jsonObject))
            } else {
                output.out("deleted \(LedgerText.count(records.count, "transaction"))")
                for record in records { output.out("  " + LedgerText.line(record)) }
            }
        }
    }
}
