import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

/// Bad rows and bad mappings: each error names the file, the line and the reason.
@Suite struct CSVImporterErrorTests {
    private let options = ImportOptions(
        dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"])

    private func failure(_ file: String, _ options: ImportOptions) throws -> LedgerError {
        try #require(throws: LedgerError.self) {
            try CSVImporter.parse(fileURL: CSVFixtures.url(file), options: options)
        }
    }

    private func path(_ file: String) -> String { CSVFixtures.url(file).relativePath }

    @Test func badDatesFailTheImportNamingTheFirstLineAndListingEveryBadRow() throws {
        let error = try failure("bad-date.csv", options)
        let file = path("bad-date.csv")
        #expect(error.reason == .importBadRows)
        #expect((error as NSError).domain == LedgerError.errorDomain)
        #expect(error.underlying.first?.reason == .importRow)
        #expect(error.file == file)
        #expect(error.line == 3)
        #expect(error.key == "date")
        #expect(
            error.message
                == "\(file):3: bad date \"2026-13-01\" in column 1 (\"Date\"): month 13 is not 1–12 "
                + "(and 1 more bad row); nothing imported (--skip-bad-rows skips bad rows)")
        #expect(error.underlying.map(\.line) == [3, 4])
        #expect(
            error.underlying[1].message
                == "\(file):4: bad date \"2026-02-30\" in column 1 (\"Date\"): day 30 is not 1–28 in February 2026"
        )
    }

    @Test func skippingBadRowsReturnsTheGoodOnesAndListsTheOthers() throws {
        var skipping = options
        skipping.skipBadRows = true
        let result = try CSVImporter.parse(
            fileURL: CSVFixtures.url("bad-date.csv"), options: skipping)
        #expect(result.rows.map(\.payee) == ["Good", "Good"])
        #expect(result.rows.map(\.line) == [2, 5])
        #expect(
            result.skipped == [
                .init(
                    line: 3,
                    reason: "bad date \"2026-13-01\" in column 1 (\"Date\"): month 13 is not 1–12"),
                .init(
                    line: 4,
                    reason:
                        "bad date \"2026-02-30\" in column 1 (\"Date\"): day 30 is not 1–28 in February 2026"
                ),
            ])
    }

    @Test func badAmountsNameTheLineTheCellAndTheReason() throws {
        var skipping = options
        skipping.skipBadRows = true
        let result = try CSVImporter.parse(
            fileURL: CSVFixtures.url("bad-amount.csv"), options: skipping)
        #expect(result.rows.count == 1)
        #expect(
            result.skipped == [
                .init(
                    line: 3,
                    reason: "bad amount \"twelve\" in column 2 (\"Amount\"): unexpected \"twelve\""),
                .init(
                    line: 4,
                    reason:
                        "bad amount \"1.2.3\" in column 2 (\"Amount\"): \".\" after the decimal separator"
                ),
                .init(
                    line: 5,
                    reason:
                        "bad amount \"0.00\" in column 2 (\"Amount\"): 0 is below the minimum amount 0.01"
                ),
            ])
        let error = try failure("bad-amount.csv", options)
        #expect(error.line == 3)
        #expect(error.key == "amount")
        #expect(error.value == "twelve")
    }

    @Test func raggedRowsAreBadRowsEvenWhenTheMappedColumnsArePresent() throws {
        var skipping = options
        skipping.skipBadRows = true
        let result = try CSVImporter.parse(
            fileURL: CSVFixtures.url("ragged.csv"), options: skipping)
        #expect(result.rows.map(\.line) == [2, 5])
        #expect(
            result.skipped == [
                .init(line: 3, reason: "the row has 2 fields, expected 3 like line 1"),
                .init(line: 4, reason: "the row has 4 fields, expected 3 like line 1"),
            ])
        #expect(try failure("ragged.csv", options).line == 3)
    }

    @Test func anUnclosedQuoteFailsEvenWhenSkippingBadRows() throws {
        var skipping = options
        skipping.skipBadRows = true
        let error = try failure("unterminated-quote.csv", skipping)
        #expect(error.line == 3)
        #expect(
            error.message
                == "\(path("unterminated-quote.csv")):3: a quoted field opened here is never closed"
        )
    }

    @Test func aColumnNameNotInTheHeaderIsAnErrorListingTheHeader() throws {
        var wrong = options
        wrong.amountColumn = "Amout"
        let error = try failure("crlf.csv", wrong)
        #expect(error.line == 1)
        #expect(
            error.message == "\(path("crlf.csv")):1: column \"Amout\" is not in the header row "
                + "(\"Date\", \"Amount\", \"Payee\")")
    }

    @Test func aColumnNameMatchesCaseInsensitivelyWhenNoCellMatchesExactly() throws {
        var lower = options
        lower.amountColumn = "amount"
        #expect(
            try CSVImporter.parse(fileURL: CSVFixtures.url("crlf.csv"), options: lower).rows.count
                == 3)
    }

    @Test func aNameTwoHeaderCellsShareIsAmbiguous() throws {
        let error = try #require(throws: LedgerError.self) {
            try CSVTestSupport.parse(
                "Date,Amount,amount\n2026-03-01,1,2\n",
                ImportOptions(dateColumn: "Date", amountColumn: "AMOUNT"))
        }
        #expect(
            error.message
                == "test.csv:1: column \"AMOUNT\" is ambiguous: columns 2, 3 have that name")
    }

    @Test func aColumnNumberBeyondTheFirstRecordIsAnError() throws {
        let error = try #require(throws: LedgerError.self) {
            try CSVTestSupport.parse(
                "\n2026-03-01,1\n", ImportOptions(dateColumn: 1, amountColumn: 3, hasHeader: false))
        }
        #expect(error.message == "test.csv:2: column 3 is beyond the 2 columns of line 2")
    }

    @Test func anEmptyFileWithAHeaderExpectedIsAnErrorAndWithoutOneHasNoRows() throws {
        let error = try #require(throws: LedgerError.self) {
            try CSVTestSupport.parse("\n\n", options)
        }
        #expect(error.message == "test.csv:1: the file is empty, but a header row was expected")
        let result = try CSVTestSupport.parse(
            "", ImportOptions(dateColumn: 1, amountColumn: 2, hasHeader: false))
        #expect(result.rows.isEmpty && result.skipped.isEmpty)
    }

    @Test func debitAndCreditCellsMustHoldExactlyOneAmount() throws {
        let mapping = ImportOptions(
            dateColumn: 1, debitColumn: 2, creditColumn: 3, hasHeader: false, skipBadRows: true)
        let result = try CSVTestSupport.parse(
            "2026-03-01,1.00,2.00\n2026-03-02,,\n2026-03-03,0,0\n2026-03-04,x,\n", mapping)
        #expect(result.rows.isEmpty)
        #expect(
            result.skipped == [
                .init(line: 1, reason: "both the debit and the credit column hold an amount"),
                .init(line: 2, reason: "neither the debit nor the credit column holds an amount"),
                .init(line: 3, reason: "neither the debit nor the credit column holds an amount"),
                .init(line: 4, reason: "bad amount \"x\" in column 2: unexpected \"x\""),
            ])
    }

    @Test func anEmptyTypeCellIsABadRow() throws {
        let mapping = ImportOptions(
            dateColumn: 1, amountColumn: 2, typeColumn: 3, debitValue: "D", hasHeader: false)
        let error = try #require(throws: LedgerError.self) {
            try CSVTestSupport.parse("2026-03-01,5, \n", mapping)
        }
        #expect(error.key == "type")
        #expect(
            error.message.hasPrefix("test.csv:1: bad type \"\" in column 3: the type cell is empty")
        )
    }

    @Test func anUnreadableFileIsAnErrorNamingIt() throws {
        let error = try failure("does-not-exist.csv", options)
        #expect(error.message == "\(path("does-not-exist.csv")): does not exist")
    }

    @Test func aForcedUTF8EncodingRejectsLatin1Bytes() throws {
        let mapping = ImportOptions(dateColumn: "Datum", amountColumn: "Betrag", encoding: .utf8)
        let error = try failure("latin1.csv", mapping)
        #expect(error.line == 1)
        #expect(error.message.contains("byte 0xE4 is not valid UTF-8"))
    }

    @Test func allOrNothingListsAtMostAHundredRowsButCountsThemAll() throws {
        let text = "Date,Amount\n" + String(repeating: "bad,1\n", count: 150)
        let error = try #require(throws: LedgerError.self) {
            try CSVTestSupport.parse(
                text, ImportOptions(dateColumn: "Date", amountColumn: "Amount"))
        }
        #expect(error.underlying.count == 100)
        #expect(error.message.contains("(and 149 more bad rows)"))
    }
}
