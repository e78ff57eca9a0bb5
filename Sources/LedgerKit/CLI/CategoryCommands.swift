import CLISupport
import Foundation

/// `ledger category add|list|rename|delete`.
enum CategoryCommands {
    struct AddArguments: ParsableArguments {
        @Argument("NAME") var name: String
        @Option("--color", "#RRGGBB", help: "its colour (default #FFFFFF)") var color: String?
    }

    static func add(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["category", "add"], summary: "add a category",
            details:
                "Names are 1–50 characters and unique, ignoring case. Creates the ledger file if missing."
        ) { (arguments: AddArguments, global, output) in
            let record = try LedgerSession.run(global, environment, access: .create, output: output)
            { ledger in
                try ledger.addCategory(name: arguments.name, colorHex: arguments.color)
            }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out("added category \(record.name) (\(record.colorHex))")
            }
        }
    }

    static func list(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(["category", "list"], summary: "list the categories with their totals") {
            (_: NoArguments, global, output) in
            let records = try LedgerSession.run(global, environment, access: .read, output: output)
            {
                try $0.categories()
            }
            if global.json {
                try output.json(records.map(\.jsonObject))
            } else if records.isEmpty {
                output.out("no categories; add one with `ledger category add NAME`")
            } else {
                let rows = records.map {
                    [
                        $0.name, $0.colorHex, "\($0.transactions)", Money.format($0.out),
                        Money.format($0.in),
                    ]
                }
                output.table(
                    [["name", "color", "transactions", "out", "in"]] + rows,
                    rightAligned: [2, 3, 4])
            }
        }
    }

    struct RenameArguments: ParsableArguments {
        @Argument("OLD") var old: String
        @Argument("NEW") var new: String
    }

    static func rename(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(["category", "rename"], summary: "rename a category") {
            (arguments: RenameArguments, global, output) in
            let record = try LedgerSession.run(global, environment, access: .write, output: output)
            { ledger in
                try ledger.renameCategory(arguments.old, to: arguments.new)
            }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out("renamed category \(arguments.old) to \(record.name)")
            }
        }
    }

    struct DeleteArguments: ParsableArguments {
        @Argument("NAME") var name: String
        @Option(
            "--rule", "RULE",
            help: "what happens to its transactions: nullify (kept, uncategorised), "
                + "cascade (deleted too), deny (refuse while it has any)",
            transform: .ledgerChoice(expected: "nullify, cascade or deny") {
                CategoryDeleteRule(rawValue: $0)
            })
        var rule = CategoryDeleteRule.nullify
    }

    static func delete(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(["category", "delete"], summary: "delete a category") {
            (arguments: DeleteArguments, global, output) in
            let rule = arguments.rule
            let deletion = try LedgerSession.run(
                global, environment, access: .write, output: output
            ) { ledger in
                try ledger.deleteCategory(arguments.name, rule: rule)
            }
            if global.json {
                try output.json([
                    "name": deletion.name, "rule": rule.rawValue,
                    "transactions": deletion.transactions,
                ])
            } else {
                let count = LedgerText.count(deletion.transactions, "transaction")
                switch rule {
                case .cascade: output.out("deleted category \(deletion.name) and its \(count)")
                case .nullify where deletion.transactions > 0:
                    output.out("deleted category \(deletion.name); \(count) left uncategorised")
                default: output.out("deleted category \(deletion.name)")
                }
            }
        }
    }
}
