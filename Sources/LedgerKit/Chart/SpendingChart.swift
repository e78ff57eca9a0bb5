import Foundation

/// Spending by month stacked by category, with income as a line: the data and layout of
/// `ledger report --chart`, drawn as a self-contained SVG (``svg()``) or an HTML page with
/// a legend and a table (``html()``).
///
/// Categories stack from the bottom, largest total first, uncategorised spending last.
/// Colours come from ``ChartColors``. The vertical axis runs from 0 to ``axisMaximum``, a
/// round number at or above the largest month's spending and income; a bar of amount `a`
/// is `a / axisMaximum × plotHeight` pixels high.
public struct SpendingChart: Sendable, Equatable {
    /// A category drawn in the chart.
    public struct Series: Sendable, Equatable {
        /// The category's name (`"(none)"` for uncategorised).
        public var name: String
        /// Its `#RRGGBB` colour in the chart.
        public var color: String
        /// Its spending over every month.
        public var total: Decimal
    }

    /// The title above the chart.
    public var title: String
    /// The months, `YYYY-MM`, oldest first.
    public var months: [String]
    /// The categories, in stacking order (bottom first).
    public var series: [Series]
    /// Money out, by month then series (same orders as ``months`` and ``series``).
    public var spending: [[Decimal]]
    /// Money in, by month.
    public var income: [Decimal]

    /// The whole drawing's size in pixels.
    public static let width = 960.0
    /// The whole drawing's height in pixels.
    public static let height = 540.0
    /// The plot area: left edge, top edge, width and height, in pixels.
    public static let plot = (left: 80.0, top: 56.0, width: 660.0, height: 420.0)

    /// Builds the chart from monthly spending and the categories' own colours (by name).
    init(title: String, spending: MonthlySpending, colors: [String: String]) {
        self.title = title
        months = spending.months
        var totals: [String: Decimal] = [:]
        for perCategory in spending.out.values {
            for (name, amount) in perCategory { totals[name, default: 0] += amount }
        }
        let names = totals.keys.sorted { a, b in
            let (noneA, noneB) = (a == LedgerReport.uncategorised, b == LedgerReport.uncategorised)
            if noneA != noneB { return noneB }
            return (totals[a]!, b) > (totals[b]!, a)
        }
        let assigned = ChartColors.assign(names, own: colors)
        series = zip(names, assigned).map { Series(name: $0, color: $1, total: totals[$0]!) }
        self.spending = months.map { month in names.map { spending.out[month]?[$0] ?? 0 } }
        income = months.map { spending.in[$0] ?? 0 }
    }

    /// The top of the vertical axis: the largest month's spending or income rounded up to
    /// a whole number of ``axisStep``s (at most six); 100 for a chart without money.
    public var axisMaximum: Decimal { axis.maximum }

    /// The distance between two grid lines: the smallest of 1, 2, 2.5 or 5 times a power
    /// of ten that covers the largest month in at most six steps.
    public var axisStep: Decimal { axis.step }

    private var axis: (maximum: Decimal, step: Decimal) {
        let largest = zip(spending, income).map { max($0.reduce(0, +), $1) }.max() ?? 0
        guard largest > 0 else { return (100, 20) }
        let value = NSDecimalNumber(decimal: largest).doubleValue
        var power = Decimal(1)
        let exponent = Int((log10(value / 6)).rounded(.down))
        for _ in 0..<abs(exponent) {
            power = exponent < 0 ? power / 10 : power * 10
        }
        for scale in [1, 2, 2.5, 5, 10, 20] as [Decimal] {
            let step = scale * power
            var count = largest / step
            var whole = Decimal()
            NSDecimalRound(&whole, &count, 0, .up)
            if whole <= 6 { return (whole * step, step) }
        }
        return (largest, largest)
    }

    /// The height in pixels of a bar or point of `amount`: `amount / axisMaximum ×
    /// plot.height`.
    public func pixels(_ amount: Decimal) -> Double {
        let axis = NSDecimalNumber(decimal: axisMaximum).doubleValue
        return NSDecimalNumber(decimal: amount).doubleValue / axis * Self.plot.height
    }
}
