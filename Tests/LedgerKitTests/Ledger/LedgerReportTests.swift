import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerReportTests {
    static func sample(_ sandbox: LedgerSandbox) throws -> Ledger {
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addCategory(name: "Salary")
        _ = try ledger.addTransaction(TransactionDraft(amount: dec("10.10"), category: "Food", date: day("2026-10-31")))
        _ = try ledger.addTransaction(TransactionDraft(amount: dec("20.20"), category: "Food", date: day("2026-11-01")))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: 1000, kind: .income, category: "Salary", date: day("2026-11-15")))
        _ = try ledger.addTransaction(TransactionDraft(amount: dec("5.05"), date: day("2026-11-30")))
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
        #expect(report.text(title: "t").contains("transactions" + String(repeating: " ", count: 11) + "0\n"))
    }
}
