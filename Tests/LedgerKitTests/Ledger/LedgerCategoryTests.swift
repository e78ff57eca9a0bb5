import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerCategoryTests {
    @Test func addedCategoriesAreListedByNameWithTheirTotals() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "rent", colorHex: "#3F51B5")
        let food = try ledger.addCategory(name: "  Food ")
        #expect(food.name == "Food")
        #expect(food.colorHex == "#FFFFFF")
        _ = try ledger.addTransaction(TransactionDraft(amount: dec("12.50"), category: "food"))
        _ = try ledger.addTransaction(TransactionDraft(amount: 3, kind: .income, category: "Food"))
        let list = try ledger.categories()
        #expect(list.map(\.name) == ["Food", "rent"])
        #expect(list[0].transactions == 2)
        #expect(list[0].out == dec("12.50"))
        #expect(list[0].in == 3)
        #expect(list[1].colorHex == "#3F51B5")
    }

    @Test func aNameTakenIgnoringCaseIsRefusedAndNothingIsAdded() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        #expect {
            _ = try ledger.addCategory(name: "FOOD")
        } throws: { error in
            (error as? LedgerError)?.reason == .duplicateCategory
                && message(of: error) == "a category named \"Food\" already exists"
        }
        #expect(try ledger.categories().count == 1)
    }

    @Test func aBadColourOrNameFailsValidationNamingTheRule() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        #expect {
            _ = try ledger.addCategory(name: "Food", colorHex: "red")
        } throws: { error in
            (error as NSError).code == 1680
                && message(of: error)
                    == "Category.colorHex must match ^#[0-9A-Fa-f]{6}$; got \"red\""
        }
        #expect {
            _ = try ledger.addCategory(name: String(repeating: "x", count: 51))
        } throws: { error in
            (error as NSError).code == 1660
                && (error as NSError).userInfo[NSValidationKeyErrorKey] as? String == "name"
        }
        #expect {
            _ = try ledger.addCategory(name: "   ")
        } throws: { error in (error as NSError).code == 1670 }
        #expect(try ledger.categories().isEmpty)
    }

    @Test func renamingKeepsTheTransactionsAndRefusesATakenName() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addCategory(name: "Rent")
        _ = try ledger.addTransaction(TransactionDraft(amount: 5, category: "Food"))
        let renamed = try ledger.renameCategory("food", to: "Groceries")
        #expect(renamed.name == "Groceries")
        #expect(renamed.transactions == 1)
        #expect(try ledger.transactions().map(\.category) == ["Groceries"])
        #expect(throws: LedgerError.self) {
            _ = try ledger.renameCategory("Groceries", to: "rent")
        }
        #expect(try ledger.renameCategory("Groceries", to: "GROCERIES").name == "GROCERIES")
        #expect {
            _ = try ledger.renameCategory("Nope", to: "X")
        } throws: { error in
            message(of: error)
                == "no category named \"Nope\"; add it with `ledger category add Nope`"
        }
    }

    @Test func deletingNullifiesByDefault() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addTransaction(TransactionDraft(amount: 5, category: "Food"))
        let deletion = try ledger.deleteCategory("Food")
        #expect(deletion == CategoryDeletion(name: "Food", rule: .nullify, transactions: 1))
        #expect(try ledger.categories().isEmpty)
        #expect(try ledger.transactions().map(\.category) == [nil])
    }

    @Test func cascadeDeletesTheTransactionsToo() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addTransaction(TransactionDraft(amount: 5, category: "Food"))
        _ = try ledger.addTransaction(TransactionDraft(amount: 6))
        #expect(try ledger.deleteCategory("Food", rule: .cascade).transactions == 1)
        #expect(try ledger.transactions().map(\.amount) == [6])
    }

    @Test func denyRefusesWhileTheCategoryHasTransactions() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Food")
        _ = try ledger.addCategory(name: "Empty")
        _ = try ledger.addTransaction(TransactionDraft(amount: 5, category: "Food"))
        #expect {
            _ = try ledger.deleteCategory("Food", rule: .deny)
        } throws: { error in
            (error as? LedgerError)?.reason == .categoryInUse
                && message(of: error)
                    == "category \"Food\" still has 1 transaction (rule deny); move or delete it "
                    + "first, or use --rule nullify or cascade"
        }
        #expect(try ledger.categories().map(\.name) == ["Empty", "Food"])
        #expect(try ledger.transactions().map(\.category) == ["Food"])
        #expect(try ledger.deleteCategory("Empty", rule: .deny).transactions == 0)
    }
}
