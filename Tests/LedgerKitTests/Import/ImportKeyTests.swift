import Foundation
import Testing

@testable import LedgerKit

@Suite struct ImportKeyTests {
    private let options = ImportOptions(
        dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"])

    @Test func keysFollowTheDocumentedRecipeSoTheyAreStableAcrossRunsAndPlatforms() throws {
        let result = try CSVImporter.parse(
            fileURL: CSVFixtures.url("identical-rows.csv"), options: options)
        // First 16 bytes of SHA-256("2026-03-01␟-2.5␟<payee>␟<occurrence>"), ␟ = U+001F.
        #expect(
            result.rows.map(\.importKey) == [
                "007458be9e4af57e1568f7e449322710",  // Coffee, occurrence 0
                "5001340965e96acf8cdc80227d3712cb",  // Coffee, occurrence 1
                "48c32809bdc7416563d3bc08b9b3dd0d",  // Tea, occurrence 0
                "d85403c4ece634fc8a20a9101e293ddb",  // Coffee, occurrence 2
            ])
    }

    @Test func identicalRowsAllImportWithDistinctKeys() throws {
        let result = try CSVImporter.parse(
            fileURL: CSVFixtures.url("identical-rows.csv"), options: options)
        #expect(result.rows.count == 4)
        #expect(Set(result.rows.map(\.importKey)).count == 4)
        #expect(result.totalOut == Decimal(10))
    }

    @Test func reimportingTheSameFileYieldsTheSameKeys() throws {
        let url = CSVFixtures.url("identical-rows.csv")
        let first = try CSVImporter.parse(fileURL: url, options: options)
        let second = try CSVImporter.parse(fileURL: url, options: options)
        #expect(first.rows.map(\.importKey) == second.rows.map(\.importKey))
    }

    @Test func theKeyDependsOnTheOccurrenceAmongIdenticalRowsNotOnTheLine() throws {
        let a = try CSVTestSupport.parse("Date,Amount,Payee\n2026-03-01,-2.50,Coffee\n", options)
        let b = try CSVTestSupport.parse(
            "Date,Amount,Payee\n\n\n2026-03-02,-1,Tea\n2026-03-01,-2.50,Coffee\n", options)
        #expect(a.rows[0].importKey == b.rows[1].importKey)
        #expect(a.rows[0].line != b.rows[1].line)
    }

    @Test func equalAmountsAndNormalizedDescriptionsGiveEqualKeys() throws {
        let a = try CSVTestSupport.parse(
            "Date,Amount,Payee\n2026-03-01,-2.50,Corner Shop\n", options)
        let b = try CSVTestSupport.parse(
            "Date;Amount;Payee\n2026-03-01T10:00:00Z;\"(2,5 EUR)\";\"  Corner \n Shop \"\n",
            ImportOptions(
                dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"],
                decimalStyle: .comma))
        #expect(a.rows[0].importKey == b.rows[0].importKey)
    }

    @Test(arguments: [
        "Date,Amount,Payee\n2026-03-02,-2.50,Coffee\n",
        "Date,Amount,Payee\n2026-03-01,2.50,Coffee\n",
        "Date,Amount,Payee\n2026-03-01,-2.51,Coffee\n",
        "Date,Amount,Payee\n2026-03-01,-2.50,coffee\n",
    ])
    func aDifferentDateAmountDirectionOrDescriptionGivesADifferentKey(_ text: String) throws {
        let base = try CSVTestSupport.parse("Date,Amount,Payee\n2026-03-01,-2.50,Coffee\n", options)
        #expect(try CSVTestSupport.parse(text, options).rows[0].importKey != base.rows[0].importKey)
    }

    @Test func descriptionCellsKeepTheirPositionsInTheKey() throws {
        let mapping = ImportOptions(
            dateColumn: 1, amountColumn: 2, descriptionColumns: [3, 4], hasHeader: false)
        let a = try CSVTestSupport.parse("2026-03-01,-1,Shop,\n", mapping)
        let b = try CSVTestSupport.parse("2026-03-01,-1,,Shop\n", mapping)
        #expect(a.rows[0].payee == "Shop" && b.rows[0].payee == "Shop")
        #expect(a.rows[0].importKey != b.rows[0].importKey)
    }
}
