import Foundation

extension SpendingChart {
    /// The chart as a standalone HTML page: the SVG inline, then a legend (each category's
    /// colour and total) and a table of spending per month and category with income and
    /// totals. No scripts, fonts or external files; styles are inline.
    ///
    /// - Complexity: O(months × categories).
    public func html() -> String {
        let e = ChartMarkup.escape
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(e(title))</title>
            <style>
            body { font-family: sans-serif; color: #212121; margin: 24px; }
            table { border-collapse: collapse; margin-top: 16px; }
            th, td { padding: 4px 10px; border-bottom: 1px solid #E0E0E0; }
            td.amount, th.amount { text-align: right; font-variant-numeric: tabular-nums; }
            ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 8px 20px; }
            .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; }
            </style>
            </head>
            <body>

            """
        out += svgElement()
        out += "<ul class=\"legend\">\n"
        for series in series {
            out +=
                "<li><span class=\"swatch\" style=\"background: \(series.color)\"></span>"
                + "\(e(series.name)) (\(Money.format(series.total)))</li>\n"
        }
        out +=
            "<li><span class=\"swatch\" style=\"background: \(ChartColors.income)\"></span>"
            + "Income (\(Money.format(income.reduce(0, +))))</li>\n</ul>\n"
        out += "<table>\n<thead><tr><th>month</th>"
        for series in series { out += "<th class=\"amount\">\(e(series.name))</th>" }
        out +=
            "<th class=\"amount\">spent</th><th class=\"amount\">income</th></tr></thead>\n<tbody>\n"
        for (m, month) in months.enumerated() {
            out += "<tr><td>\(month)</td>"
            for amount in spending[m] { out += "<td class=\"amount\">\(Money.format(amount))</td>" }
            out +=
                "<td class=\"amount\">\(Money.format(spending[m].reduce(0, +)))</td>"
                + "<td class=\"amount\">\(Money.format(income[m]))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</body>\n</html>\n"
        return out
    }
}
