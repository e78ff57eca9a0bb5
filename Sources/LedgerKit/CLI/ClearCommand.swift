import CLISupport
import Foundation

/// `ledger clear ID...`: toggles whether transactions are cleared (reconciled).
enum ClearCommand {
    struct Arguments: ParsableArguments {
        @Argument("ID") var ids: [String]
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["clear"], summary: "toggle whether transactions are cleared",
            details: "Each ID is any unique prefix. All or nothing."
        ) { (arguments: Arguments, global, output) in
            let records = try LedgerSession.run(global, environment, access: .write, output: output)
            { ledger in
                try ledger.toggleCleared(arguments.ids)
            }
            if global.json {
                try output.json(records.map(\.jsonObject))
            } else {
                for record in records {
                    output.out(
                        (record.isCleared ? "cleared   " : "uncleared ") + LedgerText.line(record))
                }
            }
        }
    }
}
