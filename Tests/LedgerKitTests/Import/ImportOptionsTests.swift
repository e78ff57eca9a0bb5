import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct ImportOptionsTests {
    @Test(arguments: [
        (
            ImportOptions(dateColumn: 1),
            "give --amount-column, or --debit-column with --credit-column"
        ),
        (
            ImportOptions(dateColumn: 1, amountColumn: 2, debitColumn: 3, creditColumn: 4),
            "--amount-column cannot be combined with --debit-column or --credit-column"
        ),
        (
            ImportOptions(dateColumn: 1, debitColumn: 3),
            "--debit-column and --credit-column go together"
        ),
        (
            ImportOptions(dateColumn: 1, amountColumn: 2, typeColumn: 3),
            "--type-column and --debit-value go together"
        ),
        (
            ImportOptions(dateColumn: 1, amountColumn: 2, debitValue: "D"),
            "--type-column and --debit-value go together"
        ),
        (
            ImportOptions(
                dateColumn: 1, typeColumn: 3, debitValue: "D", debitColumn: 4, creditColumn: 5),
            "--type-column needs --amount-column"
        ),
        (
            ImportOptions(dateColumn: 1, amountColumn: 2, typeColumn: 3, debitValue: " "),
            "--debit-value must not be empty"
        ),
        (
            ImportOptions(dateColumn: 0, amountColumn: 2),
            "column 0 is not a column: columns are numbered from 1"
        ),
        (
            ImportOptions(dateColumn: "Date", amountColumn: 2, hasHeader: false),
            "column \"Date\" is named, but --no-header says there are no names"
        ),
        (
            ImportOptions(dateColumn: 1, amountColumn: 2, dateFormat: "%Y"),
            "--date-format \"%Y\" needs a year (%Y or %y), a month (%m, %b or %B) and a day (%d)"
        ),
    ])
    func contradictoryOrIncompleteOptionsAreRejectedBeforeReading(
        _ options: ImportOptions, _ reason: String
    ) throws {
        let error = try #require(throws: LedgerError.self) {
            try CSVImporter.parse(
                fileURL: URL(fileURLWithPath: "/nonexistent.csv"), options: options)
        }
        #expect(error.reason == .importOptions)
        #expect(error.message == "import options: \(reason)")
    }

    @Test(arguments: [
        ("3", ColumnReference.number(3)), ("Date", .name("Date")), ("3a", .name("3a")),
        ("", .name("")), ("-1", .name("-1")),
    ])
    func columnArgumentsOfDigitsAreNumbersAndAnythingElseANames(
        _ argument: String, _ expected: ColumnReference
    ) {
        #expect(ColumnReference(argument: argument) == expected)
    }

    @Test(arguments: [
        (",", CSVDelimiter.comma), ("comma", .comma), (";", .semicolon), ("\t", .tab),
        ("tab", .tab), ("TAB", .tab), ("\\t", .tab),
    ])
    func readsDelimiterArguments(_ argument: String, _ expected: CSVDelimiter) {
        #expect(CSVDelimiter(argument: argument) == expected)
    }

    @Test func rejectsOtherDelimiters() {
        #expect(CSVDelimiter(argument: "|") == nil)
    }

    @Test func defaultsMatchTheCommandLineDefaults() {
        let options = ImportOptions(dateColumn: 1)
        #expect(options.hasHeader)
        #expect(!options.skipBadRows)
        #expect(options.delimiter == nil && options.encoding == nil && options.decimalStyle == nil)
        #expect(options.dateFormat == nil && options.descriptionColumns.isEmpty)
    }
}
