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

    @Test func theDemoShowsARuleALearnedCategoryAndABudgetLine() throws {
        let learning = try LedgerDemo.learn()
        #expect(learning.rule.pattern == "metro")
        #expect(
            learning.decisions.map(\.decision.description) == [
                "rule 1", "learned from 2 of 2", "none",
            ])
        #expect(learning.decisions.map(\.decision.category) == ["Transport", "Groceries", nil])
        let text = try LedgerDemo.run()
        #expect(text.contains("\nrule 1: payee or note contains \"metro\" → Transport\n"))
        #expect(text.contains("  MARKET HALL 0231  → Groceries (learned from 2 of 2)\n"))
        // November's groceries: 183.07 of the sample plus the learned 23.15.
        #expect(
            text.hasSuffix("2026-11  Groceries      150.00      206.22      -56.22  OVER"))
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
