import Foundation
import Testing

@testable import LedgerKit

@Suite struct CSVImporterProgressTests {
    /// `count` distinct rows: dates cycle through 2026, amounts through cents, some repeat.
    static func largeExport(rows count: Int) -> Data {
        var text = "Date;Amount;Payee;Memo\r\n"
        for i in 0..<count {
            let day = 1 + i % 28
            let month = 1 + (i / 28) % 12
            let cents = (i * 7919) % 250_000 + 1
            let sign = i % 5 == 0 ? "+" : "-"
            let fraction = cents % 100 < 10 ? "0\(cents % 100)" : "\(cents % 100)"
            text += "\(day).\(month).2026;\(sign)\(cents / 100),\(fraction) EUR;"
            text += "\"Shop \(i % 97); branch\";Memo \(i % 13)\r\n"
        }
        return Data(text.utf8)
    }

    @Test func reportsProgressEveryIntervalAndAtTheEnd() throws {
        let options = ImportOptions(
            dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee", "Memo"],
            dateFormat: "%d.%m.%Y")
        var reports: [Int] = []
        let result = try CSVImporter.parse(data: Self.largeExport(rows: 2_001), options: options) {
            done, total in
            #expect(total == 2_001)
            reports.append(done)
        }
        #expect(reports == [1_000, 2_000, 2_001])
        #expect(result.rows.count == 2_001)
        #expect(result.delimiter == .semicolon)
        #expect(result.decimalStyle == .comma)
        #expect(Set(result.rows.map(\.importKey)).count == 2_001)
        #expect(result.rows[1].payee == "Shop 1; branch")
        #expect(result.rows[1].note == "Memo 1")
        #expect(result.rows[1].line == 3)
    }
}
