import CLISupport
import Foundation

/// `ledger categorize`: gives uncategorised transactions a category by the rules and the
/// payees' history.
enum CategorizeCommand {
    struct Arguments: ParsableArguments {
        @Option(
            "--where", "PREDICATE",
            help: "only transactions matching this predicate, as in `ledger list --where`")
        var predicate: String?
        @Flag("--dry-run", help: "show what each would get, and why; write nothing")
        var dryRun: Bool
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["categorize"], summary: "categorise uncategorised transactions by rules and history",
            details: """
                Each uncategorised transaction gets the category of the first matching rule, \
                else the one its payee (ignoring case, digits, dates and card numbers such as \
                *1234) had at least twice and for most of its categorised transactions, else none.
                --json prints {"considered", "categorized", "byRule", "learned", "dryRun", \
                "changes": [{"id", "date", "payee", "category", "reason"}]}.
                """
        ) { (arguments: Arguments, global, output) in
            let access: LedgerAccess = arguments.dryRun ? .read : .write
            let summary = try LedgerSession.run(global, environment, access: access, output: output)
            { ledger in
                try ledger.categorize(where: arguments.predicate, dryRun: arguments.dryRun)
            }
            if global.json {
                try output.json(summary.jsonObject)
                return
            }
            if !summary.changes.isEmpty {
                let rows = summary.changes.map { change in
                    [
                        String(change.transaction.idString.prefix(8)),
                        LedgerDates.day(change.transaction.date),
                        LedgerText.signed(change.transaction),
                        CLIOutput.visible(change.transaction.payee ?? ""),
                        CLIOutput.visible(change.decision.category ?? ""),
                        change.decision.description,
                    ]
                }
                output.table(
                    [["id", "date", "amount", "payee", "category", "why"]] + rows,
                    rightAligned: [2])
            }
            let verb = summary.isDryRun ? "would categorise" : "categorised"
            let left = summary.considered - summary.changes.count
            output.out(
                "\(verb) \(summary.changes.count) of \(LedgerText.count(summary.considered, "uncategorised transaction")) "
                    + "(\(summary.byRule) by rule, \(summary.learned) learned); \(left) left"
                    + (summary.isDryRun ? "; nothing written" : ""))
        }
    }
}
