import CLISupport
import Foundation

/// `ledger category add|list|rename|delete`.
enum CategoryCommands {
    static func add(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["category", "add"], summary: "add a category", arguments: "NAME",
                positionals: 1...1,
                options: [.value("--color", "#RRGGBB", "its colour (default #FFFFFF)")],
                details:
                    "Names are 1–50 characters and unique, ignoring case. Creates the ledger file if missing."
            )
        ) { arguments, output in
            let record = try LedgerSession.run(arguments, environment, access: .create) { ledger in
                try ledger.addCategory(
                    name: arguments.positionals[0], colorHex: arguments.value("--color"))
            }
            if arguments.json {
                try output.json(record.jsonObject)
            } else {
                output.out("added category \(record.name) (\(record.colorHex))")
            }
        }
    }

    static func list(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["category", "list"], summary: "list the categories with their totals")
        ) {
            arguments, output in
            let records = try LedgerSession.run(arguments, environment, access: .read) {
                try $0.categories()
            }
            if arguments.json {
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

    static func rename(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["category", "rename"], summary: "rename a category", arguments: "OLD NEW",
                positionals: 2...2)
        ) { arguments, output in
            let record = try LedgerSession.run(arguments, environment, access: .write) { ledger in
                try ledger.renameCategory(arguments.positionals[0], to: arguments.positionals[1])
            }
            if arguments.json {
                try output.json(record.jsonObject)
            } else {
                output.out("renamed category \(arguments.positionals[0]) to \(record.name)")
            }
        }
    }

    static func delete(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["category", "delete"], summary: "delete a category", arguments: "NAME",
                positionals: 1...1,
                options: [
                    .value(
                        "--rule", "RULE",
                        "what happens to its transactions: nullify (default: kept, uncategorised), "
                            + "cascade (deleted too), deny (refuse while it has any)")
                ])
        ) { arguments, output in
            let ruleText = arguments.value("--rule") ?? "nullify"
            guard let rule = CategoryDeleteRule(rawValue: ruleText) else {
                throw LedgerSession.failure(
                    LedgerError.badValue("--rule", ruleText, expected: "nullify, cascade or deny"))
            }
            let deletion = try LedgerSession.run(arguments, environment, access: .write) { ledger in
                try ledger.deleteCategory(arguments.positionals[0], rule: rule)
            }
            if arguments.json {
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
