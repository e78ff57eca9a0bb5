import CLISupport
import Foundation

/// `ledger budget set|list|delete`: monthly budgets per category.
enum BudgetCommands {
    struct SetArguments: ParsableArguments {
        @Argument("CATEGORY") var category: String
        @Argument("AMOUNT", transform: .ledgerAmount) var amount: Decimal
    }

    static func set(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["budget", "set"], summary: "set a category's monthly budget",
            details: """
                Replaces the category's budget, if any. `ledger report --by month` shows each \
                month's budget, spending and what is left.
                --json prints {"category", "monthlyAmount"}.
                """
        ) { (arguments: SetArguments, global, output) in
            let record = try LedgerSession.run(global, environment, access: .write, output: output)
            { try $0.setBudget(category: arguments.category, amount: arguments.amount) }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out(
                    "budget of \(CLIOutput.visible(record.category)): "
                        + "\(Money.format(record.monthlyAmount)) a month")
            }
        }
    }

    static func list(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["budget", "list"], summary: "list the monthly budgets",
            details: "--json prints an array of {\"category\", \"monthlyAmount\"}."
        ) { (_: NoArguments, global, output) in
            let records = try LedgerSession.run(global, environment, access: .read, output: output)
            { try $0.budgets() }
            if global.json {
                try output.json(records.map(\.jsonObject))
            } else if records.isEmpty {
                output.out("no budgets; set one with `ledger budget set CATEGORY AMOUNT`")
            } else {
                let rows = records.map {
                    [CLIOutput.visible($0.category), Money.format($0.monthlyAmount)]
                }
                output.table([["category", "monthly"]] + rows, rightAligned: [1])
            }
        }
    }

    struct DeleteArguments: ParsableArguments {
        @Argument("CATEGORY") var category: String
    }

    static func delete(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["budget", "delete"], summary: "delete a category's budget",
            details: "--json prints the deleted budget."
        ) { (arguments: DeleteArguments, global, output) in
            let record = try LedgerSession.run(global, environment, access: .write, output: output)
            { try $0.deleteBudget(category: arguments.category) }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out("deleted the budget of \(CLIOutput.visible(record.category))")
            }
        }
    }
}
