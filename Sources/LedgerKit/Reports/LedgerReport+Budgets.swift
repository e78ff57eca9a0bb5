import CLISupport
import Foundation

extension LedgerReport {
    /// The marker an over-budget line always ends with, coloured or not.
    static let overMarker = "OVER"

    /// The budget table of a report by month: per month and budgeted category, the budget,
    /// what was spent and what is left; over-budget lines end with ``overMarker`` and,
    /// with `color`, are red (ANSI). Empty when no month has budget lines.
    ///
    /// Category names have their control characters made visible.
    public func budgetLines(color: Bool) -> [String] {
        let rows = groups.flatMap { group in group.budgets.map { (group.name, $0) } }
        guard !rows.isEmpty else { return [] }
        let names = rows.map { CLIOutput.visible($0.1.category) }
        let width = max(8, names.map(\.count).max() ?? 0)
        func pad(_ text: String) -> String {
            text.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        var lines = [
            "budgets  " + pad("category") + "  " + "budget".leftPadded(10) + "  "
                + "spent".leftPadded(10) + "  " + "left".leftPadded(10)
        ]
        for ((month, line), name) in zip(rows, names) {
            var text =
                month.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + pad(name) + "  "
                + Money.format(line.budget).leftPadded(10) + "  "
                + Money.format(line.spent).leftPadded(10) + "  "
                + Money.format(line.left).leftPadded(10)
            if line.isOver {
                text += "  " + Self.overMarker
                if color { text = "\u{1B}[31m" + text + "\u{1B}[0m" }
            }
            lines.append(text)
        }
        return lines
    }
}
