import CLISupport
import Foundation
import ObjectGraph

/// `ledger report`: totals out, in and net, overall and per group, with a bar chart; by
/// month, the budgets; with `--chart`, an SVG or HTML chart file.
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
        @Option(
            "--chart", "FILE.svg|FILE.html",
            help: "also draw spending by month, stacked by category, with income as a line",
            transform: ArgumentTransform<String>.ledgerChoice(
                expected: "a file name ending .svg or .html"
            ) { path in
                let lower = path.lowercased()
                return lower.hasSuffix(".svg") || lower.hasSuffix(".html") ? path : nil
            })
        var chart: String?
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["report"], summary: "totals out, in and net, per category or month",
            details: """
                --json prints {"transactions": N, "out": "…", "in": "…", "net": "…", \
                "groups": [{"name", "transactions", "out", "in", "net"}]}; by month a group with \
                budgets adds "budget": {"CATEGORY": {"amount", "spent", "left", "over"}}.
                --chart writes a self-contained SVG (or an HTML page with a legend and table), \
                replacing FILE; with --json the object adds "chart": FILE.
                Over-budget lines end with OVER, in red on a terminal unless NO_COLOR is set.
                """
        ) { (arguments: Arguments, global, output) in
            let grouping = arguments.grouping
            let from = arguments.from
            let to = arguments.to
            var title = "by \(grouping.rawValue)"
            if from != nil || to != nil {
                title +=
                    ", " + (from.map(LedgerDates.day) ?? "…") + " to "
                    + (to.map(LedgerDates.day) ?? "…")
            }
            let (report, path, chart) = try LedgerSession.run(
                global, environment, access: .read, output: output
            ) {
                ledger in
                (
                    try ledger.report(by: grouping, from: from, to: to),
                    ledger.configuration.storeURL.relativePath,
                    try arguments.chart.map { _ in
                        try ledger.chart(
                            title: "Spending by month" + chartRange(from: from, to: to),
                            from: from, to: to)
                    }
                )
            }
            if let chart, let file = arguments.chart {
                try write(chart, to: file, environment)
            }
            if global.json {
                var object = report.jsonObject
                if let file = arguments.chart { object["chart"] = file }
                try output.json(object)
                return
            }
            output.out(report.text(title: "\(path): \(title)"))
            let budgets = report.budgetLines(color: environment.allowsColor)
            if !budgets.isEmpty {
                output.out("")
                for line in budgets { output.out(line) }
            }
            if let file = arguments.chart {
                output.out("chart written to \(CLIOutput.visible(file))")
            }
        }
    }

    /// `, 2026-01-01 to 2026-06-30`, `, from 2026-01-01`, `, to 2026-06-30` or nothing.
    static func chartRange(from: Date?, to: Date?) -> String {
        switch (from.map(LedgerDates.day), to.map(LedgerDates.day)) {
        case (let from?, let to?): ", \(from) to \(to)"
        case (let from?, nil): ", from \(from)"
        case (nil, let to?): ", to \(to)"
        case (nil, nil): ""
        }
    }

    /// Writes the chart to `file` atomically (a temporary file renamed over it), as SVG or
    /// HTML by its extension.
    private static func write(
        _ chart: SpendingChart, to file: String, _ environment: LedgerEnvironment
    )
        throws
    {
        let text = file.lowercased().hasSuffix(".html") ? chart.html() : chart.svg()
        do {
            try Data(text.utf8).write(to: environment.url(file), options: .atomic)
        } catch {
            throw CLIError.failure(
                "cannot write the chart to \(EchoedText.capped(file)): "
                    + ((error as NSError).localizedFailureReason ?? error.localizedDescription))
        }
    }
}
