import CLISupport
import Foundation

/// `ledger undo`: undoes the last command by appending its inverse.
enum UndoCommand {
    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["undo"], summary: "undo the last command",
            details:
                "Appends the last command's inverse as a new transaction (the file stays "
                + "append-only); run again to undo the command before. Refused, changing "
                + "nothing, when something other than a ledger command wrote since, when the "
                + "command cannot be undone (purge, or receipts it removed), or when nothing "
                + "was done since the file was created or last compacted."
        ) { (_: NoArguments, global, output) in
            let result = try LedgerSession.run(global, environment, access: .write, output: output)
            { ledger in try ledger.undo() }
            if global.json {
                try output.json([
                    "undone": result.command, "transaction": result.transaction,
                    "restored": result.restored, "reverted": result.reverted,
                    "removed": result.removed,
                ])
            } else {
                output.out(
                    "undid `ledger \(result.command)` (transaction \(result.transaction)): "
                        + "\(LedgerText.count(result.restored, "row")) restored, "
                        + "\(result.reverted) changed back, \(result.removed) removed")
            }
        }
    }
}
