import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerReportTests {
    static func sample(_ sandbox: LedgerSandbox) throws -> Ledger {
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addCategory(name: "Salary")
        _ = try ledger.addTransaction(
            TransactionDraft(amount: dec("10.10"), category: "Food", date: day("2026-10-31")))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: dec("20.20"), category: "Food", date: day("2026-11-01")))
        _ = try ledger.addTransaction(
            TransactionDraft(
                amount: 1000, kind: .income, category: "Salary", date: day("2026-11-15")))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: dec("5.05"), date: day("2026-11-30")))
        return ledger
    }

    @Test func byCategoryTotalsOutInAndNet() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let report = try Self.sample(sandbox).report(by: .category)
        #expect(report.transactions == 4)
        #expect(report.out == dec("35.35"))
        #expect(report.in == 1000)
        #expect(report.net == dec("964.65"))
        #expect(report.groups.map(\.name) == ["Food", "(none)", "Salary"])
        #expect(report.groups.map(\.out) == [dec("30.30"), dec("5.05"), 0])
    }

    @Test func byMonthGroupsByUTCCalendarMonthBetweenInclusiveDates() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.sample(sandbox)
        let all = try ledger.report(by: .month)
        #expect(all.groups.map(\.name) == ["2026-10", "2026-11"])
        #expect(all.groups.map(\.transactions) == [1, 3])
        let november = try ledger.report(by: .month, from: day("2026-11-01"), to: day("2026-11-15"))
        #expect(november.transactions == 2)
        #expect(november.out == dec("20.20"))
        #expect(november.in == 1000)
    }

    @Test func anEmptyLedgerReportsZeroes() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let report = try sandbox.ramLedger().report()
        #expect(report.transactions == 0)
        #expect(report.groups.isEmpty)
        #expect(
            report.text(title: "t").contains(
                "transactions" + String(repeating: " ", count: 11) + "0\n"))
    }

    @Test(arguments: LedgerReport.Grouping.allCases)
    func theStoreRowPathAndTheObjectPathGiveTheSameReport(_ grouping: LedgerReport.Grouping) throws
    {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.sample(sandbox)
        _ = try ledger.importCSV(
            CSVFixtures.url("identical-rows.csv"), options: LedgerImportTests.signed)
        for (from, to) in [
            (nil, nil), (day("2026-11-01"), nil), (nil, day("2026-11-01")),
            (day("2026-03-01"), day("2026-11-15")),
        ] {
            let parts = try Ledger.dateRange(from: from, to: to)
            let predicate = parts.isEmpty ? nil : FetchPredicate.and(parts)
            let rows = try ledger.report(by: grouping, from: from, to: to)
            let objects = try ledger.read {
                try ledger.objectReport(in: $0, predicate: predicate, by: grouping)
            }
            #expect(rows == objects)
        }
        #expect(try ledger.report(by: grouping).transactions == 8)
    }

    @Test func calendarArithmeticMatchesTheGregorianCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var mismatches: [String] = []
        var instant = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01
        while instant.timeIntervalSince1970 < 4_102_444_800 {  // 2100-01-01
            let c = calendar.dateComponents([.year, .month, .day], from: instant)
            let expected = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
            if LedgerDates.day(instant) != expected { mismatches.append(expected) }
            instant += 86_400 * 7 + 3_600 * 5
        }
        #expect(mismatches.isEmpty)
        // 2000-02-29
        #expect(LedgerDates.month(Date(timeIntervalSince1970: 951_782_400)) == "2000-02")
        #expect(LedgerDates.day(Date(timeIntervalSince1970: -1)) == "1969-12-31")
    }
}
