import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct CSVReaderTests {
    private func read(_ text: String, _ delimiter: CSVDelimiter = .comma) throws -> CSVTable {
        try CSVReader(delimiter: delimiter.byte, file: "t.csv").read(Array(text.utf8))
    }

    private func records(_ table: CSVTable) -> [[String]] { (0..<table.count).map(table.strings) }

    @Test func splitsRecordsAtLFCRLFAndLoneCR() throws {
        let table = try read("a,b\nc,d\r\ne,f\rg,h")
        #expect(records(table) == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]])
        #expect(table.recordLines == [1, 2, 3, 4])
    }

    @Test func quotedFieldsHoldDelimitersDoubledQuotesAndLineBreaks() throws {
        let table = try read("\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\nlf\"\nnext,row,,\n")
        #expect(
            records(table) == [
                ["x,y", "say \"hi\"", "two\nlines", "cr\r\nlf"], ["next", "row", "", ""],
            ])
        #expect(table.recordLines == [1, 4])
    }

    @Test func spacesAfterAClosingQuoteAreIgnored() throws {
        #expect(records(try read("\"a\"  ,b\n")) == [["a", "b"]])
    }

    @Test func aQuoteInsideAnUnquotedFieldIsAnOrdinaryCharacter() throws {
        #expect(records(try read("5\" pipe,b\n")) == [["5\" pipe", "b"]])
    }

    @Test func blankRecordsAreSkippedButCountTowardLineNumbers() throws {
        let table = try read("\n\na,b\n  \n,\n\"\",\"\"\r\n\rc,d\n\n")
        #expect(records(table) == [["a", "b"], ["c", "d"]])
        #expect(table.recordLines == [3, 8])
    }

    @Test func theLastRecordNeedsNoLineBreak() throws {
        #expect(records(try read("a,b\nc,d")) == [["a", "b"], ["c", "d"]])
        #expect(records(try read("a,\"b\"")) == [["a", "b"]])
    }

    @Test func aTrailingDelimiterMakesAnEmptyLastField() throws {
        #expect(records(try read("a,b,\n")) == [["a", "b", ""]])
    }

    @Test func anEmptyInputHasNoRecords() throws {
        #expect(try read("").count == 0)
        #expect(try read("\r\n\n").count == 0)
    }

    @Test func tabAndSemicolonDelimitersSplitOnlyOnTheirByte() throws {
        #expect(records(try read("a,1\tb;2\n", .tab)) == [["a,1", "b;2"]])
        #expect(records(try read("a,1;b\t2\n", .semicolon)) == [["a,1", "b\t2"]])
    }

    @Test func anUnclosedQuoteIsAnErrorAtTheLineItOpens() throws {
        let error = try #require(throws: LedgerError.self) {
            try read("a,b\nc,\"open\nstill\n")
        }
        #expect(error.reason == .importFileInvalid)
        #expect(error.line == 2)
        #expect(error.file == "t.csv")
        #expect(error.message == "t.csv:2: a quoted field opened here is never closed")
    }

    @Test func textAfterAClosingQuoteIsAnError() throws {
        let error = try #require(throws: LedgerError.self) { try read("a\n\"b\"c,d\n") }
        #expect(error.line == 2)
        #expect(error.message.contains("after the closing quote"))
    }

    @Test(arguments: [
        ("a,b,c\n1,2,3\n", CSVDelimiter.comma),
        ("a;b;c\n1;2,5;3\n", .semicolon),
        ("a\tb\n1\t2,5\n", .tab),
        ("a;b,c\n", .semicolon),
        ("a\tb;c\n", .tab),
        ("a\tb,c\n", .tab),
        ("\"x;y;z\",b\n\"1;2\",3\n", .comma),
        ("single\ncolumn\n", .comma),
    ])
    func detectsTheDelimiterByCountingOutsideQuotesPreferringTabThenSemicolon(
        _ text: String, _ expected: CSVDelimiter
    ) {
        #expect(CSVReader.detectDelimiter(in: Array(text.utf8)) == expected)
    }

    @Test func detectionLooksOnlyAtTheFirstRecords() {
        let head = String(repeating: "a;b\n", count: CSVReader.detectionRecords)
        let tail = String(repeating: "a,b,c,d,e,f\n", count: 50)
        #expect(CSVReader.detectDelimiter(in: Array((head + tail).utf8)) == .semicolon)
    }
}
