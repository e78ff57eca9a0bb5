import Foundation
import LedgerKit
import Testing

@Suite struct LedgerDemoTests {
    @Test func theDemoReportTotalsTheSampleData() throws {
        let report = try LedgerDemo.makeReport()
        #expect(report.transactions == 10)
        #expect(Money.format(report.out) == "1254.17")
        #expect(Money.format(report.in) == "2400.00")
        #expect(Money.format(report.net) == "1145.83")
        #expect(report.groups.first?.name == "Rent")
    }

    @Test func theDemoTextIsTheSameEveryRun() throws {
        #expect(try LedgerDemo.run() == LedgerDemo.run())
        #expect(try LedgerDemo.run().contains("Groceries         183.07"))
    }

    @Test func moneyFormatsWithTwoDecimals() {
        #expect(Money.format(12.5) == "12.50")
        #expect(Money.format(-149.57) == "-149.57")
        #expect(Money.format(0) == "0.00")
        #expect(Money.format(Decimal(string: "1234567.005")!) == "1234567.01")
    }

    @Test func calendarDatesAreParsedStrictlyInUTC() {
        #expect(LedgerDates.parse("2026-13-01") == nil)
        #expect(LedgerDates.parse("2026-02-30") == nil)
        let d = LedgerDates.parse("2026-11-30")
        #expect(d.map(LedgerDates.day) == "2026-11-30")
        #expect(d?.timeIntervalSince1970 == 1_795_996_800)
    }
}
