import Foundation
import ObjectGraph

/// Import options checked and resolved against a file: 0-based columns, the compiled date
/// format, the amount mapping, and where the data rows start.
struct ImportPlan {
    /// How a row's amount and direction are read.
    enum AmountMapping {
        /// One signed column: negative is money out.
        case signed(Int)
        /// An unsigned column whose direction comes from a type column's word.
        case typed(amount: Int, type: Int, debitWord: String)
        /// Money out in one column, money in in another.
        case debitCredit(debit: Int, credit: Int)
    }

    let file: String
    let dateColumn: Int
    let dateFormat: DateFormat
    let amount: AmountMapping
    let descriptionColumns: [Int]
    /// The export's category column, if mapped.
    let categoryColumn: Int?
    /// The header cells (trimmed), or `nil` without a header row.
    let header: [String]?
    /// The number of fields of the first record (the header, if any).
    let width: Int
    /// The fields a row needs: the first record's up to its last non-blank cell, and at
    /// least every mapped column. A row may end early down to this, or run on past
    /// ``width`` with blank fields only (exports add or drop trailing delimiters).
    let minimumWidth: Int
    /// The 1-based line the width was taken from.
    let widthLine: Int
    /// The index of the first data record (1 after a header row).
    let firstDataRecord: Int

    /// The columns that hold amounts, for decimal-style inference.
    var amountColumns: [Int] {
        switch amount {
        case .signed(let c): [c]
        case .typed(let c, _, _): [c]
        case .debitCredit(let d, let c): [d, c]
        }
    }

    /// Whether a data record with `fields` fields has the file's shape.
    func fits(_ record: Int, _ table: CSVTable, blank: (Range<Int>) -> Bool) -> Bool {
        let fields = table.fieldCount(record)
        if fields == width { return true }
        guard fields >= minimumWidth else { return false }
        return fields < width || (width..<fields).allSatisfy { blank(table.range(record, $0)) }
    }

    /// `column 4 ("Amount")` or `column 4`, for messages.
    func label(_ column: Int) -> String {
        guard let header, column < header.count else { return "column \(column + 1)" }
        return "column \(column + 1) (\"\(EchoedText.capped(header[column], limit: 60))\")"
    }

    /// Checks that `options` make sense on their own, before any file is read.
    ///
    /// - Throws: ``LedgerError`` naming the flags that conflict or are missing.
    static func check(_ options: ImportOptions) throws -> DateFormat {
        let o = options
        if o.amountColumn != nil, o.debitColumn != nil || o.creditColumn != nil {
            throw ImportError.options(
                "--amount-column cannot be combined with --debit-column or --credit-column")
        }
        if (o.debitColumn == nil) != (o.creditColumn == nil) {
            throw ImportError.options("--debit-column and --credit-column go together")
        }
        if o.amountColumn == nil, o.debitColumn == nil {
            throw ImportError.options(
                "give --amount-column, or --debit-column with --credit-column")
        }
        if o.typeColumn != nil, o.amountColumn == nil {
            throw ImportError.options("--type-column needs --amount-column")
        }
        if (o.typeColumn == nil) != (o.debitValue == nil) {
            throw ImportError.options("--type-column and --debit-value go together")
        }
        if let word = o.debitValue, word.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ImportError.options("--debit-value must not be empty")
        }
        let all =
            [o.dateColumn]
            + [o.amountColumn, o.typeColumn, o.debitColumn, o.creditColumn].compactMap { $0 }
            + o.descriptionColumns + [o.categoryColumn].compactMap { $0 }
        for column in all {
            switch column {
            case .number(let n) where n < 1:
                throw ImportError.options("\(column) is not a column: columns are numbered from 1")
            case .name(let name) where !o.hasHeader:
                throw ImportError.options(
                    "column \"\(EchoedText.capped(name))\" is named, but --no-header says there are no names"
                )
            default: break
            }
        }
        guard let pattern = o.dateFormat else { return .iso8601 }
        do {
            return try DateFormat(pattern: pattern)
        } catch {
            throw ImportError.options(error.reason)
        }
    }
}
