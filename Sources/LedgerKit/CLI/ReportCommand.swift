import CLISupport
import Foundation

/// `ledger report`: totals out, in and net, overall and per group, with a bar chart.
enum ReportCommand {
    struct Arguments: ParsableArguments {
        @Option(
            "--by", "month|category", help: "how to group",
            transform: .ledgerChoice(expected: "month or category") {
                LedgerReport.Grouping(rawValue: $0)
            })
        var grouping = LedgerReport.Grouping.category
        @Option(
            "--from", "YYYY-MM-DD", help: "only on or after this date", transform: .ledgerDate)
        var from: Date?
        @Option("--to", "YYYY-MM-DD", help: "only on or before this date", transform: .ledgerDate)
        var to: Date?
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["report"], summary: "totals out, in and net, per category or month",
            details:
                "--json prints {\"transactions\": N, \"out\": \"…\", \"in\": \"…\", \"net\": \"…\", "
                + "\"groups\": [{\"name\", \"transactions\", \"out\", \"in\", \"net\"}]}."
        ) { (arguments: Arguments, global, output) in
            let grouping = arguments.grouping
            let from = arguments.from
            let to = arguments.to
            let (report, path) = try LedgerSession.run(
                global, environment, access: .read, output: output
            ) {
                ledger in
                (
                    try ledger.report(by: grouping, from: from, to: to),
                    ledger.configuration.storeURL.relativePath
                )
            }
            if global.json {
                try output.json(report.jsonObject)
                return
            }
            var title = "\(path): by \(grouping.rawValue)"
            if from != nil || to != nil {
                title +=
                    ", " + (from.map(LedgerDates.day) ?? "…") + " to "
                    + (to.map(LedgerDates.day) ?? "…")
            }
            output.out(report.text(title: title))
        }
    }
}
