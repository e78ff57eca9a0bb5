import CLISupport
import Foundation

/// `ledger history`: the ledger's own saves, with author and time.
enum HistoryCommand {
    struct Arguments: ParsableArguments {
        @Option(
            "--since", "YYYY-MM-DD", help: "only saves after this day began (UTC)",
            transform: .ledgerDate)
        var since: Date?
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["history"], summary: "list the ledger's saves: number, time, command and counts",
            details:
                "One line per save recorded in the file's persistent history, oldest first: its "
                + "number, time (UTC), the command that made it, and how many objects it "
                + "inserted, updated and deleted. History older than `compact --keep-history` "
                + "kept is gone."
        ) { (arguments: Arguments, global, output) in
            let entries = try LedgerSession.run(global, environment, access: .read, output: output)
            { ledger in
                try ledger.history(since: arguments.since)
            }
            if global.json {
                try output.json(entries.map(\.jsonObject))
                return
            }
            var rows = [["#", "time", "author", "inserted", "updated", "deleted"]]
            for entry in entries {
                rows.append([
                    String(entry.number), LedgerHistory.time(entry.timestamp),
                    entry.author ?? "-", String(entry.inserted), String(entry.updated),
                    String(entry.deleted),
                ])
            }
            if entries.isEmpty {
                output.out("no history")
            } else {
                output.table(rows, rightAligned: [0, 3, 4, 5])
            }
        }
    }
}
