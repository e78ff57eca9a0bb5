import CLISupport
import Foundation

/// `ledger report`: totals out, in and net, overall and per group, with a bar chart.
enum ReportCommand {
    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["report"], summary: "totals out, in and net, per category or month",
                options: [
                    .value("--by", "month|category", "how to group (default: category)"),
                    .value("--from", "YYYY-MM-DD", "only on or after this date"),
                    .value("--to", "YYYY-MM-DD", "only on or before this date"),
                ],
                details:
                    "--json prints {\"transactions\": N, \"out\": \"…\", \"in\": \"…\", \"net\": \"…\", "
                    + "\"groups\": [{\"name\", \"transactions\", \"out\", \"in\", \"net\"}]}.")
        ) { arguments, output in
            let byText = arguments.value("--by") ?? "category"
            guard let grouping = LedgerReport.Grouping(rawValue: byText) else {
                throw LedgerSession.failure(
                    LedgerError.badValue("--by", byText, expected: "month or category"))
            }
            let from = try arguments.date("--from")
            let to = try arguments.date("--to")
            let (report, path) = try LedgerSession.run(arguments, environment, access: .read) {
                ledger in
                (
                    try ledger.report(by: grouping, from: from, to: to),
                    ledger.configuration.storeURL.relativePath
                )
            }
            if arguments.json {
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
