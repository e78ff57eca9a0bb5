import Foundation
import ObjectGraph

extension ImportPlan {
    /// Resolves `options` against the records of `table`.
    ///
    /// - Throws: ``LedgerError`` for a header-less file that needs one, a column
    ///   number beyond the first record, or a name the header does not hold.
    init(options: ImportOptions, dateFormat: DateFormat, table: CSVTable, file: String) throws {
        if options.hasHeader, table.count == 0 {
            throw ImportError.file(
                file, line: 1, "the file is empty, but a header row was expected")
        }
        let header =
            options.hasHeader
            ? table.strings(0).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } : nil
        let width = table.count > 0 ? table.fieldCount(0) : 0
        let line = table.count > 0 ? table.recordLines[0] : 1
        func resolve(_ column: ColumnReference) throws -> Int {
            switch column {
            case .number(let n):
                guard table.count == 0 || n <= width else {
                    throw ImportError.column(
                        file, line: line, column,
                        "is beyond the \(width) column\(width == 1 ? "" : "s") of line \(line)")
                }
                return n - 1
            case .name(let name):
                return try Self.find(name, in: header ?? [], file: file, line: line)
            }
        }
        let amount: AmountMapping
        switch (
            options.amountColumn, options.typeColumn, options.debitValue, options.debitColumn,
            options.creditColumn
        ) {
        case (let a?, let t?, let word?, _, _):
            amount = .typed(
                amount: try resolve(a), type: try resolve(t),
                debitWord: word.trimmingCharacters(in: .whitespaces).lowercased())
        case (let a?, _, _, _, _):
            amount = .signed(try resolve(a))
        case (_, _, _, let d?, let c?):
            amount = .debitCredit(debit: try resolve(d), credit: try resolve(c))
        default:
            throw ImportError.options(
                "give --amount-column, or --debit-column with --credit-column")
        }
        let dateColumn = try resolve(options.dateColumn)
        let descriptionColumns = try options.descriptionColumns.map(resolve)
        let categoryColumn = try options.categoryColumn.map(resolve)
        var significant = width
        while significant > 0,
            table.bytes[table.range(0, significant - 1)].allSatisfy({ $0 == 0x20 || $0 == 0x09 })
        {
            significant -= 1
        }
        let mapped: [Int] =
            switch amount {
            case .signed(let a): [a]
            case .typed(let a, let t, _): [a, t]
            case .debitCredit(let d, let c): [d, c]
            }
        let lastMapped =
            ([dateColumn] + mapped + descriptionColumns + [categoryColumn].compactMap { $0 }).max()
            ?? 0
        self.init(
            file: file, dateColumn: dateColumn, dateFormat: dateFormat, amount: amount,
            descriptionColumns: descriptionColumns, categoryColumn: categoryColumn, header: header,
            width: width,
            minimumWidth: max(significant, lastMapped + 1), widthLine: line,
            firstDataRecord: options.hasHeader ? 1 : 0)
    }

    /// The 0-based index of the header cell `name`: an exact match (after trimming), else
    /// the only case-insensitive one.
    private static func find(_ name: String, in header: [String], file: String, line: Int) throws
        -> Int
    {
        let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let exact = header.indices.filter { header[$0] == wanted }
        let matches =
            exact.isEmpty
            ? header.indices.filter { header[$0].caseInsensitiveCompare(wanted) == .orderedSame }
            : exact
        if matches.count == 1 { return matches[0] }
        let reference = ColumnReference.name(name)
        if matches.count > 1 {
            let numbers = matches.map { String($0 + 1) }.joined(separator: ", ")
            throw ImportError.column(
                file, line: line, reference, "is ambiguous: columns \(numbers) have that name")
        }
        throw ImportError.column(
            file, line: line, reference,
            "is not in the header row (\(EchoedText.list(header)))")
    }
}
