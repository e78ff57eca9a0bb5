import Foundation
import ObjectGraphTesting
import Testing

@testable import LedgerKit

/// A year of generated statements: eleven months imported with their categories, the
/// twelfth imported without, categorised by what the ledger learned.
@Suite struct LearningFromHistoryTests {
    /// A payee: its statement name and the categories it has, with weights.
    struct Payee {
        let name: String
        let categories: [(String, Int)]
        let perMonth: ClosedRange<Int>
    }

    static let payees: [Payee] = [
        Payee(name: "MARKET HALL", categories: [("Groceries", 1)], perMonth: 3...5),
        Payee(
            name: "Corner Shop", categories: [("Groceries", 9), ("Household", 1)], perMonth: 1...3),
        Payee(name: "CITY METRO", categories: [("Transport", 1)], perMonth: 2...4),
        Payee(name: "Rail Pass", categories: [("Transport", 1)], perMonth: 1...1),
        Payee(name: "Noodle Bar", categories: [("Eating out", 1)], perMonth: 1...3),
        Payee(name: "PIZZERIA NAPOLI", categories: [("Eating out", 1)], perMonth: 0...2),
        Payee(name: "AMZN Mktp US", categories: [("Household", 7), ("Books", 3)], perMonth: 1...3),
        Payee(name: "Landlord Ltd", categories: [("Rent", 1)], perMonth: 1...1),
        Payee(name: "Power & Light Co", categories: [("Utilities", 1)], perMonth: 1...1),
        Payee(name: "SQ *BLUE BOTTLE", categories: [("Eating out", 1)], perMonth: 2...4),
        Payee(
            name: "Pharmacy Plus", categories: [("Health", 4), ("Household", 1)], perMonth: 0...2),
        Payee(name: "Cinema City", categories: [("Leisure", 1)], perMonth: 0...2),
    ]

    /// The payee's name as a bank prints it: case, card numbers, dates, store numbers.
    static func noisy(
        _ name: String, day: Int, month: Int, _ random: inout SeededRandomNumberGenerator
    )
        -> String
    {
        var text = random.int(in: 0...2) == 0 ? name.uppercased() : name
        switch random.int(in: 0...3) {
        case 0: text += " *\(random.int(in: 1000...9999))"
        case 1: text += String(format: " %02d/%02d", month, day)
        case 2: text += " #\(random.int(in: 10...999))"
        default:
            text += " \(random.int(in: 100_000...999_999)) CARD xxxx\(random.int(in: 1000...9999))"
        }
        return text
    }

    /// One CSV of the given months: `Date,Payee,Amount[,Category]`, and each row's true
    /// category, in row order.
    static func statement(months: [Int], withCategories: Bool, seed: UInt64)
        -> (csv: String, truth: [(payee: String, category: String)])
    {
        var random = SeededRandomNumberGenerator(seed: seed)
        var csv = "Date,Payee,Amount" + (withCategories ? ",Category" : "") + "\n"
        var truth: [(String, String)] = []
        for month in months {
            let (year, m) = month <= 12 ? (2025, month) : (2026, month - 12)
            for payee in payees {
                for _ in 0..<random.int(in: payee.perMonth) {
                    let total = payee.categories.map(\.1).reduce(0, +)
                    var pick = random.int(in: 1...total)
                    var category = payee.categories[0].0
                    for (name, weight) in payee.categories {
                        if pick <= weight {
                            category = name
                            break
                        }
                        pick -= weight
                    }
                    let day = random.int(in: 1...28)
                    let amount = "-\(random.int(in: 2...180)).\(random.int(in: 10...99))"
                    let name = noisy(payee.name, day: day, month: m, &random)
                    csv +=
                        String(format: "%04d-%02d-%02d", year, m, day)
                        + ",\"\(name)\",\(amount)" + (withCategories ? ",\(category)" : "") + "\n"
                    truth.append((payee.name, category))
                }
            }
        }
        return (csv, truth)
    }

    @Test(arguments: [2026 as UInt64, 7, 99])
    func theTwelfthMonthIsAtLeast80PercentRight(seed: UInt64) throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        var options = ImportOptions(
            dateColumn: "Date", amountColumn: "Amount", descriptionColumns: ["Payee"])
        let history = Self.statement(months: Array(12...22), withCategories: true, seed: seed)
        #expect(history.truth.count >= 200)
        options.categoryColumn = "Category"
        let learned = try ledger.importCSV(
            try sandbox.write("history.csv", history.csv), options: options,
            createCategories: true)
        #expect(learned.added.count == history.truth.count)
        #expect(learned.decisions.allSatisfy { $0.source == .column })

        options.categoryColumn = nil
        let last = Self.statement(months: [23], withCategories: false, seed: seed &+ 1)
        let summary = try ledger.importCSV(
            try sandbox.write("last.csv", last.csv), options: options)
        #expect(summary.decisions.count == last.truth.count)
        var had: [String: Set<String>] = [:]
        for row in history.truth { had[row.payee, default: []].insert(row.category) }
        var right = 0
        for (decision, row) in zip(summary.decisions, last.truth) {
            if decision.category == row.category { right += 1 }
            if let category = decision.category {
                // Learning never picks a category that payee never had.
                #expect(had[row.payee]?.contains(category) == true, "\(row.payee) → \(category)")
                guard case .learned(let count, let total) = decision.source else {
                    Issue.record("expected a learned decision, got \(decision)")
                    continue
                }
                #expect(count >= 2 && count * 2 > total)
            }
        }
        let share = Double(right) / Double(last.truth.count)
        #expect(share >= 0.8, "\(right) of \(last.truth.count) right")
        // What was decided is what was stored.
        let stored = try ledger.transactions(TransactionQuery()).filter {
            $0.date >= day("2026-11-01")
        }
        #expect(stored.count == last.truth.count)
        #expect(stored.filter { $0.category != nil }.count == summary.categorized)
    }
}
