import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@testable import LedgerKit

/// `Ledger.adjustAmounts`: one batch update, checked against the model's rules first.
@Suite struct LedgerAdjustTests {
    /// A ledger (RAM or file) with Food 10.00 and 2.345-like amounts, Rent 800, income 2400.
    private func seeded(_ sandbox: LedgerSandbox, file: Bool) throws -> Ledger {
        let ledger =
            file
            ? try Ledger(sandbox.configuration(sandbox.url("l.jsonl")), access: .create)
            : try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addCategory(name: "Rent")
        _ = try ledger.addTransaction(
            TransactionDraft(amount: dec("10.00"), category: "Food", date: day("2026-01-05")))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: dec("0.05"), category: "Food", date: day("2026-02-05")))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: 800, category: "Rent", date: day("2026-02-01")))
        _ = try ledger.addTransaction(
            TransactionDraft(amount: 2400, kind: .income, date: day("2026-02-01")))
        return ledger
    }

    @Test(arguments: [false, true])
    func multiplyingRoundsToCentsAndMergesIntoTheContext(_ file: Bool) throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try seeded(sandbox, file: file)
        var food = TransactionQuery()
        food.category = "Food"
        // Objects the root context already holds see the new amounts once merged.
        #expect(try ledger.transactions(food).map(\.amount) == [dec("10.00"), dec("0.05")])
        let result = try ledger.adjustAmounts(.multiply(dec("1.15")), matching: food)
        // 10.00 × 1.15 = 11.50; 0.05 × 1.15 = 0.0575 → 0.06 (half away from zero)
        #expect(result.changes.map(\.after) == [dec("11.50"), dec("0.06")])
        #expect(result.totalBefore == dec("10.05") && result.totalAfter == dec("11.56"))
        #expect(try ledger.transactions(food).map(\.amount) == [dec("11.50"), dec("0.06")])
        #expect(try ledger.transactions().map(\.amount).contains(800))
        if file {
            ledger.close()
            let reopened = try Ledger(sandbox.configuration(sandbox.url("l.jsonl")), access: .read)
            defer { reopened.close() }
            #expect(try reopened.transactions(food).map(\.amount) == [dec("11.50"), dec("0.06")])
        }
    }

    /// Foundation's `round(before × factor, 2)`, halves away from zero.
    private func rounded(_ before: Decimal, times factor: Decimal) -> Decimal {
        var product = before * factor
        var result = Decimal()
        NSDecimalRound(&result, &product, 2, .plain)
        return result
    }

    @Test func theReportedChangesAreTheSavedAmountsAndUndoRestoresThem() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Ledger(sandbox.configuration(sandbox.url("l.jsonl")), access: .create)
        // Amounts whose products end in a half cent (0.10 × 1.15 = 0.115), and seeded ones.
        var amounts = ["0.10", "0.30", "0.50", "0.70", "0.90", "0.01", "1999.99"].map(dec)
        var random = SeededRandomNumberGenerator(seed: 41)
        for _ in 0..<113 { amounts.append(Decimal(Int(random.next() % 200_000) + 1) / 100) }
        for (i, amount) in amounts.enumerated() {
            _ = try ledger.addTransaction(
                TransactionDraft(amount: amount, date: day("2026-01-05"), note: "t\(i)"))
        }
        let beforeByID = Dictionary(
            uniqueKeysWithValues: try ledger.transactions().map { ($0.id, $0.amount) })
        let factor = dec("1.15")
        let result = try ledger.adjustAmounts(.multiply(factor), matching: TransactionQuery())
        #expect(result.count == amounts.count)
        for change in result.changes {
            #expect(change.before == beforeByID[change.id], "\(change.id)")
            #expect(change.after == rounded(change.before, times: factor), "\(change.before)")
        }
        #expect(result.changes.contains { $0.before == dec("0.10") && $0.after == dec("0.12") })
        let afterByID = Dictionary(uniqueKeysWithValues: result.changes.map { ($0.id, $0.after) })
        // The context sees what the result reports, and so does a reader of the file.
        #expect(try ledger.transactions().allSatisfy { afterByID[$0.id] == $0.amount })
        let reader = try Ledger(sandbox.configuration(sandbox.url("l.jsonl")), access: .read)
        #expect(try reader.transactions().allSatisfy { afterByID[$0.id] == $0.amount })
        reader.close()
        #expect(try ledger.undo().command == "adjust")
        #expect(try ledger.transactions().allSatisfy { beforeByID[$0.id] == $0.amount })
        ledger.close()
    }

    @Test func aDryRunComputesTheTotalsAndWritesNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try seeded(sandbox, file: true)
        let before = try Data(contentsOf: sandbox.url("l.jsonl"))
        var query = TransactionQuery()
        query.predicate = "kind == 'expense'"
        query.from = day("2026-02-01")
        let result = try ledger.adjustAmounts(.add(dec("1.00")), matching: query, dryRun: true)
        #expect(result.isDryRun && result.count == 2)
        #expect(result.totalBefore == dec("800.05") && result.totalAfter == dec("802.05"))
        #expect(try Data(contentsOf: sandbox.url("l.jsonl")) == before)
        #expect(try ledger.transactions().map(\.amount).contains(dec("0.05")))
    }

    @Test func anAdjustmentBelowTheModelsMinimumIsRefusedNamingTheRowsAndChangesNothing() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try seeded(sandbox, file: true)
        let before = try Data(contentsOf: sandbox.url("l.jsonl"))
        let small = try #require(try ledger.transactions().first { $0.amount == dec("0.05") })
        #expect {
            _ = try ledger.adjustAmounts(.add(dec("-5.00")), matching: TransactionQuery())
        } throws: { error in
            let text = message(of: error)
            return (error as? LedgerError)?.reason == .adjustmentRefused
                && text.contains("1 transaction would")
                && text.contains(String(small.idString.prefix(8)))
                && text.contains("0.05 → -4.95 (below the minimum 0.01)")
                && text.contains("nothing was changed")
        }
        // A factor that rounds a cent down to nothing breaks the same rule.
        #expect(throws: LedgerError.self) {
            _ = try ledger.adjustAmounts(.multiply(dec("0.05")), matching: TransactionQuery())
        }
        #expect(try Data(contentsOf: sandbox.url("l.jsonl")) == before)
    }

    @Test func aModelMaximumIsCheckedToo() throws {
        let model = try LedgerModel.make()
        let amount = try #require(model.entitiesByName["Transaction"]?.attributesByName["amount"])
        #expect(Ledger.brokenRule(.decimal(dec("0.01")), amount) == nil)
        #expect(Ledger.brokenRule(.decimal(0), amount) == "below the minimum 0.01")
        #expect(Ledger.brokenRule(.null, amount) == "not a number")
        let capped = AttributeDescription(
            name: "amount", type: .decimal, isOptional: false, minValue: 0.01, maxValue: 1000)
        #expect(Ledger.brokenRule(.decimal(dec("1000.01")), capped) == "above the maximum 1000")
    }

    @Test func oneBatchWritesOneTransactionLine() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try seeded(sandbox, file: true)
        let lines = {
            try String(contentsOf: sandbox.url("l.jsonl"), encoding: .utf8).split(separator: "\n")
                .count
        }
        let before = try lines()
        _ = try ledger.adjustAmounts(.multiply(2), matching: TransactionQuery())
        #expect(try lines() == before + 1)
        let none = try ledger.adjustAmounts(
            .multiply(2),
            matching: {
                var q = TransactionQuery()
                q.predicate = "amount > 1000000"
                return q
            }())
        #expect(none.count == 0)
        #expect(try lines() == before + 1)
    }

    @Test func theExpressionIsRoundOfTheChange() {
        #expect(
            AmountAdjustment.multiply(dec("1.2")).expression.description == "round(amount * 1.2, 2)"
        )
        #expect(AmountAdjustment.add(dec("-5")).summary == "- 5.00")
    }
}
