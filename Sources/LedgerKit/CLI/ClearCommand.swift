import CLISupport
import Foundation

/// `ledger clear ID...`: toggles whether transactions are cleared (reconciled).
enum ClearCommand {
    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["clear"], summary: "toggle whether transactions are cleared",
                arguments: "ID...",
                positionals: 1...Int.max, details: "Each ID is any unique prefix. All or nothing.")
        ) { arguments, output in
            let records = try LedgerSession.run(arguments, environment, access: .write) { ledger in
                try ledger.toggleCleared(arguments.positionals)
            }
            if arguments.json {
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
