import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

/// One test per quirk of real exports, each on a fixture in Fixtures/csv/.
@Suite struct CSVImporterQuirkTests {
    private let byName = ImportOptions(
        dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"])

    private func parse(_ file: String, _ options: ImportOptions) throws -> ImportResult {
        try CSVImporter.parse(fileURL: CSVFixtures.url(file), options: options)
    }

    private func signed(_ result: ImportResult) -> [Decimal] { result.rows.map(\.signedAmount) }
    private func days(_ result: ImportResult) -> [String] {
        result.rows.map { CSVTestSupport.day($0.date) }
    }
    private func dec(_ s: String) -> Decimal { CSVTestSupport.dec(s) }

    @Test func aUTF8ByteOrderMarkDoesNotReachTheFirstHeaderName() throws {
        let result = try parse("bom.csv", byName)
        #expect(result.header == ["Date", "Amount", "Payee"])
        #expect(result.encoding == .utf8)
        #expect(signed(result) == [dec("-12.5"), 100])
        #expect(result.rows.map(\.kind) == [.expense, .income])
    }

    @Test(arguments: ["crlf.csv", "cr-only.csv"])
    func crlfAndLoneCRLineEndsSplitRows(_ file: String) throws {
        let result = try parse(file, byName)
        #expect(result.rows.map(\.line) == [2, 3, 4])
        #expect(result.rows.map(\.payee) == ["Bakery", "Kiosk", "Refund"])
        #expect(signed(result) == [dec("-12.5"), dec("-3.2"), 250])
    }

    @Test func quotedFieldsKeepDelimitersQuotesAndLineBreaks() throws {
        var options = byName
        options.descriptionColumns = ["Payee", "Memo"]
        let result = try parse("quoted-fields.csv", options)
        #expect(result.rows.map(\.payee) == ["Smith, Jones & Co", "Corner Shop", "Cafe"])
        #expect(result.rows.map(\.note) == ["Invoice \"March\"", "two line memo", nil])
        #expect(signed(result) == [dec("-1234.5"), -20, -5])
        #expect(result.rows.map(\.line) == [2, 3, 6])
    }

    @Test func semicolonsWithDecimalCommasAreDetectedAndInferred() throws {
        let options = ImportOptions(
            dateColumn: "Buchungsdatum", amountColumn: "Betrag", descriptionColumns: ["Empfänger"],
            dateFormat: "%d.%m.%Y")
        let result = try parse("semicolon-decimal-comma.csv", options)
        #expect(result.delimiter == .semicolon)
        #expect(result.decimalStyle == .comma)
        #expect(signed(result) == [dec("-1234.56"), 120, -5, dec("-7.5")])
        #expect(result.rows.map(\.payee) == ["Miete", "Gutschrift", "Bäckerei", "Kiosk"])
        #expect(days(result) == ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"])
    }

    @Test func tabsAreDetectedEvenWhenCellsHoldCommasAndSemicolons() throws {
        let result = try parse("tab-delimited.csv", byName)
        #expect(result.delimiter == .tab)
        #expect(result.rows.map(\.payee) == ["Bakery, Main St", "Refund; partial"])
        #expect(signed(result) == [dec("-12.5"), 40])
    }

    @Test func latin1BytesAreDetectedAndDecodedIncludingTheEuroSign() throws {
        let options = ImportOptions(
            dateColumn: "Datum", amountColumn: "Betrag", descriptionColumns: ["Empfänger"],
            dateFormat: "%d.%m.%Y")
        let result = try parse("latin1.csv", options)
        #expect(result.encoding == .latin1)
        #expect(result.header == ["Datum", "Betrag", "Empfänger"])
        #expect(result.rows.map(\.payee) == ["Café Müller", "Straße 5"])
        #expect(signed(result) == [dec("-4.2"), dec("-9.99")])
    }

    @Test func parenthesesSymbolsAndCodesMarkAndSurroundAmounts() throws {
        let result = try parse("parenthesised-negatives.csv", byName)
        #expect(
            signed(result) == [
                -85, dec("-12.5"), 3520, dec("-21.59"), dec("0.23"), 10, 5, dec("1000.5"), -3,
                dec("-7.1"),
            ])
        #expect(result.totalOut == dec("129.19"))
        #expect(result.totalIn == dec("4535.73"))
    }

    @Test func thousandsSeparatorsOfEveryKindAroundADecimalPoint() throws {
        let result = try parse("thousands-point.csv", byName)
        #expect(result.decimalStyle == .point)
        #expect(signed(result) == Array(repeating: dec("1234.56"), count: 5) + [dec("-1000000.01")])
    }

    @Test func thousandsSeparatorsAroundADecimalCommaInferredFromALaterRow() throws {
        let result = try parse("thousands-comma.csv", byName)
        #expect(result.decimalStyle == .comma)
        #expect(
            signed(result) == [
                1234, dec("1234.56"), dec("1234.56"), dec("1234.56"), dec("-1000000.01"),
            ])
    }

    @Test func theDecimalCommaOptionOverridesInference() throws {
        var options = byName
        options.decimalStyle = .comma
        let result = try parse("thousands-comma.csv", options)
        #expect(result.rows.count == 5)
        options.decimalStyle = .point
        let error = try #require(throws: LedgerError.self) {
            try parse("thousands-comma.csv", options)
        }
        #expect(error.line == 3)
    }

    @Test func aMissingFinalNewlineLosesNothing() throws {
        let result = try parse("no-final-newline.csv", byName)
        #expect(result.rows.map(\.payee) == ["Bakery", "Kiosk"])
        #expect(signed(result) == [dec("-12.5"), dec("-3.2")])
    }

    @Test func blankLinesAreSkippedAndLineNumbersStayPhysical() throws {
        let result = try parse("blank-lines.csv", byName)
        #expect(result.header == ["Date", "Amount", "Payee"])
        #expect(result.rows.map(\.line) == [4, 8])
        #expect(result.rows.map(\.payee) == ["Bakery", "Kiosk"])
    }

    @Test func debitAndCreditColumnsGiveDirectionAndAZeroCountsAsEmpty() throws {
        let options = ImportOptions(
            dateColumn: "Date", debitColumn: "Debit", creditColumn: "Credit",
            descriptionColumns: ["Text"], dateFormat: "%d.%m.%Y")
        let result = try parse("debit-credit.csv", options)
        #expect(signed(result) == [-950, 3100, dec("1.5")])
        #expect(days(result) == ["2026-02-28", "2026-03-01", "2026-03-02"])
    }

    @Test func aTypeColumnGivesDirectionByTheDebitWordIgnoringCaseSpacesAndSign() throws {
        let options = ImportOptions(
            dateColumn: "Date", amountColumn: "Amount", typeColumn: "Type", debitValue: "debit",
            descriptionColumns: ["Description"], dateFormat: "%m/%d/%y")
        let result = try parse("type-column.csv", options)
        #expect(signed(result) == [dec("-45.1"), 2000, -5])
        #expect(days(result) == ["2026-03-01", "2026-03-02", "2026-03-03"])
    }

    @Test func englishMonthNamesInAnyCaseAndLength() throws {
        let options = ImportOptions(
            dateColumn: "When", amountColumn: "Amount", dateFormat: "%d %b %Y")
        #expect(
            days(try parse("month-names.csv", options)) == [
                "2026-03-01", "2026-09-02", "2026-09-03", "2028-02-29",
            ])
    }

    @Test func twoDigitYearsPivotAt69() throws {
        let options = ImportOptions(
            dateColumn: "Date", amountColumn: "Amount", dateFormat: "%m/%d/%y")
        #expect(
            days(try parse("two-digit-years.csv", options)) == [
                "2068-01-02", "1969-01-02", "1999-12-31", "2000-01-01",
            ])
    }

    @Test func isoDatesWithTimesAndOffsetsKeepTheDateWritten() throws {
        let options = ImportOptions(dateColumn: "Date", amountColumn: "Amount")
        #expect(
            days(try parse("date-time.csv", options)) == [
                "2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04",
            ])
    }

    @Test func trailingBlankFieldsMayComeAndGoButOtherShapesAreBadRows() throws {
        var options = byName
        options.skipBadRows = true
        let result = try parse("trailing-delimiters.csv", options)
        #expect(result.rows.map(\.payee) == ["A", "B", "C"])
        #expect(
            result.skipped == [
                .init(line: 5, reason: "the row has 5 fields, expected 4 like line 1"),
                .init(line: 6, reason: "the row has 2 fields, expected 4 like line 1"),
            ])
    }
}
