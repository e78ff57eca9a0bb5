import Foundation

extension SpendingChart {
    /// The chart as a standalone SVG document: no scripts, fonts or external files; every
    /// bar a `rect` of class `bar` with `data-month`, `data-category` and `data-amount`,
    /// the income a `polyline` of class `income` with a `circle` per month.
    ///
    /// - Complexity: O(months × categories).
    public func svg() -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement()
    }

    /// The `svg` element alone, for embedding in HTML.
    func svgElement() -> String {
        let p = Self.plot
        let n = ChartMarkup.number
        let e = ChartMarkup.escape
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(Self.width))" \
            height="\(n(Self.height))" viewBox="0 0 \(n(Self.width)) \(n(Self.height))" \
            font-family="sans-serif" font-size="12" \
            data-axis-maximum="\(Money.format(axisMaximum))" data-plot-height="\(n(p.height))">
            <title>\(e(title))</title>
            <rect x="0" y="0" width="\(n(Self.width))" height="\(n(Self.height))" fill="#FFFFFF"/>
            <text x="\(n(p.left))" y="28" font-size="16" font-weight="bold" fill="#212121">\(e(title))</text>

            """
        // Grid lines and the amounts along the vertical axis.
        let bottom = p.top + p.height
        let ticks = NSDecimalNumber(decimal: axisMaximum / axisStep).intValue
        for tick in 0...max(1, ticks) {
            let amount = axisStep * Decimal(tick)
            let y = bottom - pixels(amount)
            out += """
                <line x1="\(n(p.left))" y1="\(n(y))" x2="\(n(p.left + p.width))" y2="\(n(y))" \
                stroke="\(tick == 0 ? "#616161" : "#E0E0E0")" stroke-width="1"/>
                <text x="\(n(p.left - 8))" y="\(n(y + 4))" text-anchor="end" fill="#616161">\
                \(Money.format(amount))</text>

                """
        }
        guard !months.isEmpty else {
            return out + """
                <text x="\(n(p.left + p.width / 2))" y="\(n(p.top + p.height / 2))" \
                text-anchor="middle" fill="#616161">no transactions</text>
                </svg>

                """
        }
        let slot = p.width / Double(months.count)
        let barWidth = min(64, slot * 0.6)
        let labelEvery = max(1, Int((Double(months.count) / 12).rounded(.up)))
        var points: [(Double, Double, Decimal)] = []
        for (m, month) in months.enumerated() {
            let x = p.left + slot * Double(m) + (slot - barWidth) / 2
            var top = bottom
            for (s, series) in series.enumerated() where spending[m][s] > 0 {
                let amount = spending[m][s]
                let height = pixels(amount)
                top -= height
                out += """
                    <rect class="bar" x="\(n(x))" y="\(n(top))" width="\(n(barWidth))" \
                    height="\(n(height))" fill="\(series.color)" data-month="\(month)" \
                    data-category="\(e(series.name))" data-amount="\(Money.format(amount))">\
                    <title>\(month) \(e(series.name)): \(Money.format(amount))</title></rect>

                    """
            }
            if m % labelEvery == 0 {
                out += """
                    <text x="\(n(x + barWidth / 2))" y="\(n(bottom + 18))" text-anchor="middle" \
                    fill="#424242">\(month)</text>

                    """
            }
            points.append((x + barWidth / 2, bottom - pixels(income[m]), income[m]))
        }
        let line = points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
        out += """
            <polyline class="income" points="\(line)" fill="none" stroke="\(ChartColors.income)" \
            stroke-width="2.5" stroke-linejoin="round"/>

            """
        for (month, point) in zip(months, points) {
            out += """
                <circle class="income" cx="\(n(point.0))" cy="\(n(point.1))" r="4" \
                fill="#FFFFFF" stroke="\(ChartColors.income)" stroke-width="2" \
                data-month="\(month)" data-amount="\(Money.format(point.2))">\
                <title>\(month) income: \(Money.format(point.2))</title></circle>

                """
        }
        return out + legend() + "</svg>\n"
    }

    /// The most categories the legend names; past it, the last line says how many more
    /// (the HTML page's legend and table list them all).
    static let legendLimit = 18

    /// The legend at the right: a swatch and name per category, then the income line.
    private func legend() -> String {
        let n = ChartMarkup.number
        let x = Self.plot.left + Self.plot.width + 24
        var y = Self.plot.top
        var out = ""
        let shown =
            series.count > Self.legendLimit ? series.prefix(Self.legendLimit - 1) : series[...]
        for series in shown {
            let name = ChartMarkup.escape(EchoedLabel.cut(series.name, 22))
            out += """
                <rect x="\(n(x))" y="\(n(y))" width="14" height="14" fill="\(series.color)"/>
                <text x="\(n(x + 20))" y="\(n(y + 11))" fill="#212121">\(name)</text>

                """
            y += 22
        }
        if shown.count < series.count {
            out += """
                <text x="\(n(x))" y="\(n(y + 11))" fill="#616161">\
                + \(series.count - shown.count) more</text>

                """
            y += 22
        }
        out += """
            <line x1="\(n(x))" y1="\(n(y + 7))" x2="\(n(x + 14))" y2="\(n(y + 7))" \
            stroke="\(ChartColors.income)" stroke-width="2.5"/>
            <text x="\(n(x + 20))" y="\(n(y + 11))" fill="#212121">Income</text>

            """
        return out
    }
}

/// Labels cut to fit a legend.
enum EchoedLabel {
    /// `text` when it has at most `limit` characters, else its first `limit - 1` and `…`.
    static func cut(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
