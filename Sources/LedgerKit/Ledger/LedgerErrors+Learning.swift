import Foundation
import ObjectGraph

/// The errors of categorisation rules, category columns and budgets.
extension LedgerErrors {
    /// A rule number that matches no rule.
    static func unknownRule(_ number: Int) -> LedgerError {
        LedgerError(
            .unknownRule, "no rule \(number); see `ledger rule list`",
            entityName: "CategorizationRule", key: "order", value: "\(number)")
    }

    /// A category without a budget.
    static func unknownBudget(_ category: String) -> LedgerError {
        LedgerError(
            .unknownBudget,
            "category \"\(EchoedText.capped(category))\" has no budget; see `ledger budget list`",
            entityName: "Budget", key: "category", value: category)
    }

    /// Categories named by an export's category column that the ledger lacks.
    static func unknownColumnCategories(_ names: [String], file: String, line: Int)
        -> LedgerError
    {
        let listed = EchoedText.list(names, count: 10)
        let noun = names.count == 1 ? "a category" : "categories"
        return LedgerError(
            .unknownCategory,
            "\(EchoedText.capped(file)) line \(line): the category column names \(noun) the "
                + "ledger lacks: \(listed); add \(names.count == 1 ? "it" : "them") with "
                + "`ledger category add`, or pass --create-categories",
            entityName: "Category", key: "name", value: names.first, file: file, line: line)
    }
}
