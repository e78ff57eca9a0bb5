import Foundation
import Testing

@testable import LedgerKit

/// The six real bank exports in ../shared/fixtures/csv, mapped as their EXPECTED.md says.
@Suite(.enabled(if: CSVFixtures.sharedAvailable, "../shared/fixtures/csv is absent"))
struct SharedBankExportTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let options: ImportOptions
        let rows: Int
        let out: Decimal
        let income: Decimal
        let delimiter: CSVDelimiter
        let first: String
        let last: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "cantino__reckon__austrian_example.csv",
            options: ImportOptions(
                dateColumn: 3, amountColumn: 5, descriptionColumns: [2], dateFormat: "%d.%m.%Y",
                hasHeader: false, decimalStyle: .comma),
            rows: 13, out: Decimal(string: "353.47")!, income: Decimal(string: "203.90")!,
            delimiter: .semicolon,
            first: "2014-01-22", last: "2014-01-02"),
        Case(
            file: "cantino__reckon__bom_utf8_file.csv",
            options: ImportOptions(
                dateColumn: "Date", amountColumn: "Net",
                descriptionColumns: ["Name", "Item Title"],
                dateFormat: "%m/%d/%Y"),
            rows: 1, out: Decimal(string: "7.49")!, income: 0, delimiter: .comma,
            first: "2019-12-27", last: "2019-12-27"),
        Case(
            file: "cantino__reckon__some_other.csv",
            options: ImportOptions(
                dateColumn: 2, amountColumn: 4, descriptionColumns: [3, 1], dateFormat: "%Y/%m/%d",
                hasHeader: false),
            rows: 9, out: Decimal(string: "229.18")!, income: Decimal(string: "7183.75")!,
            delimiter: .comma,
            first: "2011-12-24", last: "2003-12-24"),
        Case(
            file: "cantino__reckon__tab_delimited_file.csv",
            options: ImportOptions(
                dateColumn: 3, amountColumn: 7, descriptionColumns: [8], dateFormat: "%Y%m%d",
                hasHeader: false, decimalStyle: .comma),
            rows: 2, out: Decimal(string: "15.00")!, income: 0, delimiter: .tab,
            first: "2016-01-02", last: "2016-01-02"),
        Case(
            file: "reubano__csv2ofx__mint.csv",
            options: ImportOptions(
                dateColumn: "Date", amountColumn: "Amount", typeColumn: "Transaction Type",
                debitValue: "debit", descriptionColumns: ["Description", "Notes"],
                dateFormat: "%m/%d/%y"),
            rows: 4, out: Decimal(string: "5000.00")!, income: Decimal(string: "2000.00")!,
            delimiter: .comma,
            first: "2015-06-12", last: "2015-06-14"),
        Case(
            file: "reubano__csv2ofx__ubs-ch-fr_trimmed.csv",
            options: ImportOptions(
                dateColumn: "Date de valeur", debitColumn: "Débit", creditColumn: "Crédit",
                descriptionColumns: ["Description 1", "Description 2", "Description 3"],
                dateFormat: "%d.%m.%Y"),
            rows: 3, out: Decimal(string: "210.00")!, income: Decimal(string: "240.00")!,
            delimiter: .semicolon,
            first: "2019-03-31", last: "2019-04-27"),
    ]

    @Test(arguments: cases)
    func importsTheExpectedRowsAndTotals(_ c: Case) throws {
        let result = try CSVImporter.parse(
            fileURL: CSVFixtures.shared.appendingPathComponent(c.file), options: c.options)
        #expect(result.rows.count == c.rows)
        #expect(result.totalOut == c.out)
        #expect(result.totalIn == c.income)
        #expect(result.skipped.isEmpty)
        #expect(result.delimiter == c.delimiter)
        #expect(result.encoding == .utf8)
        #expect(result.rows.first.map { CSVTestSupport.day($0.date) } == c.first)
        #expect(result.rows.last.map { CSVTestSupport.day($0.date) } == c.last)
        #expect(Set(result.rows.map(\.importKey)).count == c.rows)
    }

    @Test(arguments: cases)
    func importsTheSameFiguresWithTheDecimalStyleInferred(_ c: Case) throws {
        var options = c.options
        options.decimalStyle = nil
        options.delimiter = nil
        let result = try CSVImporter.parse(
            fileURL: CSVFixtures.shared.appendingPathComponent(c.file), options: options)
        #expect(result.rows.count == c.rows)
        #expect(result.totalOut == c.out)
        #expect(result.totalIn == c.income)
    }

    @Test(arguments: cases)
    func importingTwiceYieldsTheSameKeys(_ c: Case) throws {
        let url = CSVFixtures.shared.appendingPathComponent(c.file)
        let first = try CSVImporter.parse(fileURL: url, options: c.options)
        let second = try CSVImporter.parse(
            data: try Data(contentsOf: url), options: c.options, sourceName: c.file)
        #expect(first.rows.map(\.importKey) == second.rows.map(\.importKey))
        #expect(first.rows == second.rows)
    }
}
