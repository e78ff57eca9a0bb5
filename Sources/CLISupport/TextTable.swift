/// Aligned columns of text for human output: each column as wide as its widest cell,
/// separated by two spaces, numbers right-aligned.
///
/// ```swift
/// var table = TextTable(["Entity", "Rows"], alignments: [.left, .right])
/// table.append(["Expense", "1200"])
/// print(table.rendered)
/// ```
package struct TextTable: Sendable {
    /// How a column's cells line up.
    package enum Alignment: Sendable { case left, right }

    /// The header cells, or empty for none.
    package let header: [String]
    /// One alignment per column.
    package let alignments: [Alignment]
    /// The rows, each with one cell per column.
    package private(set) var rows: [[String]] = []

    /// A table with `header` cells (empty for none) and per-column alignments (default left).
    package init(_ header: [String], alignments: [Alignment] = []) {
        self.header = header
        self.alignments = alignments
    }

    /// Adds a row.
    package mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as lines joined by newlines, without trailing spaces.
    package var rendered: String {
        let all = (header.isEmpty ? [] : [header]) + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in all { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        return all.map { row in
            var line = row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                let right = i < alignments.count && alignments[i] == .right
                return right ? pad + cell : cell + pad
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}

/// `12345678` → `12,345,678`: digits grouped by thousands for human output.
package func groupedDigits(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return value < 0 ? "-" + out : out
}
