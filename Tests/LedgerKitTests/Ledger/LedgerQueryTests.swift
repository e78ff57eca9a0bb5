import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerQueryTests {
    static func sample(_ sandbox: LedgerSandbox) throws -> Ledger {
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addCategory(name: "Rent")
        _ = try ledger.addTransaction(
            TransactionDraft(
                amount: 950, category: "Rent", date: day("2026-11-01"), payee: "Landlord"))
        _ = try ledger.addTransaction(
            TransactionDraft(
                amount: dec("64.35"), category: "Food", date: day("2026-11-02"),
                payee: "market hall"))
        _ = try ledger.addTransaction(
            TransactionDraft(
                amount: dec("2.80"), date: day("2026-10-30"), note: "metro", payee: "City Metro"))
        _ = try ledger.addTransaction(
            TransactionDraft(
                amount: 2400, kind: .income, date: day("2026-11-15"), payee: "Employer"))
        _ = try ledger.addTransaction(
            TransactionDraft(
                amount: dec("41.12"), category: "Food", date: day("2026-11-09"),
                payee: "Corner Shop"))
        return ledger
    }

    @Test func byDefaultEverythingComesOldestFirst() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let all = try Self.sample(sandbox).transactions()
        #expect(
            all.map { LedgerDates.day($0.date) } == [
                "2026-10-30", "2026-11-01", "2026-11-02", "2026-11-09", "2026-11-15",
            ])
    }

    @Test func wherePredicatesUseThePredicateLanguage() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.sample(sandbox)
        var query = TransactionQuery()
        query.predicate = "amount > 40 AND kind == 'expense' AND category.name ==[c] 'food'"
        #expect(try ledger.transactions(query).map(\.payee) == ["market hall", "Corner Shop"])
        query.predicate = "payee CONTAINS[c] 'METRO' OR note == 'metro'"
        #expect(try ledger.transactions(query).map(\.amount) == [dec("2.80")])
        query.predicate = "category == nil"
        #expect(try ledger.transactions(query).count == 2)
        query.predicate = "date >= CAST('2026-11-09', 'NSDate')"
        #expect(try ledger.transactions(query).map(\.payee) == ["Corner Shop", "Employer"])
    }

    @Test func aBadPredicateFailsNamingWhere() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.sample(sandbox)
        var query = TransactionQuery()
        query.predicate = "amount >"
        #expect {
            _ = try ledger.transactions(query)
        } throws: { ($0 as? ObjectGraphError)?.reason == .predicateSyntax }
        query.predicate = "colour == 'red'"
        #expect {
            _ = try ledger.transactions(query)
        } throws: { error in message(of: error).contains("colour") }
    }

    @Test func categoryAndDateFiltersCombineWithTheLimit() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.sample(sandbox)
        var query = TransactionQuery()
        query.category = "food"
        #expect(try ledger.transactions(query).map(\.payee) == ["market hall", "Corner Shop"])
        query.category = nil
        query.from = day("2026-11-01")
        query.to = day("2026-11-09")
        #expect(try ledger.transactions(query).count == 3)
        query.limit = 2
        #expect(try ledger.transactions(query).map(\.payee) == ["Landlord", "market hall"])
        query.category = "Nope"
        #expect(throws: LedgerError.self) { _ = try ledger.transactions(query) }
    }

    @Test func sortKeysOrderTheResults() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.sample(sandbox)
        var query = TransactionQuery()
        query.sort = [try TransactionSort(argument: "amount:desc")]
        #expect(
            try ledger.transactions(query).map(\.amount) == [
                2400, 950, dec("64.35"), dec("41.12"), dec("2.80"),
            ])
        query.sort = [TransactionSort(.payee)]
        #expect(
            try ledger.transactions(query).map(\.payee) == [
                "City Metro", "Corner Shop", "Employer", "Landlord", "market hall",
            ])
        query.sort = [TransactionSort(.category), TransactionSort(.amount)]
        #expect(
            try ledger.transactions(query).map(\.category) == [nil, nil, "Food", "Food", "Rent"])
        query.sort = [
            try TransactionSort(argument: "KIND:desc"), TransactionSort(.date, ascending: false),
        ]
        #expect(try ledger.transactions(query).first?.kind == .income)
    }

    @Test func badSortArgumentsAreRefused() {
        for bad in ["colour", "amount:up", ""] {
            #expect(throws: LedgerError.self) { _ = try TransactionSort(argument: bad) }
        }
        #expect((try? TransactionSort(argument: "cleared"))?.description == "cleared")
        #expect((try? TransactionSort(argument: "date:desc"))?.description == "date:desc")
    }
}
