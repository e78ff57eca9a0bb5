import CLISupport
import Foundation

/// `ledger rule add|list|delete`: the categorisation rules.
enum RuleCommands {
    struct AddArguments: ParsableArguments {
        @Argument("PATTERN") var pattern: String
        @Argument("CATEGORY") var category: String
        @Option(
            "--field", "payee|note|any", help: "where to look (default any: payee or note)",
            transform: .ledgerChoice(expected: "payee, note or any") { RuleField(rawValue: $0) })
        var field = RuleField.any
        @Flag("--regex", help: "PATTERN is a regular expression (ICU syntax)") var regex: Bool
    }

    static func add(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["rule", "add"], summary: "add a categorisation rule",
            details: """
                Imports and `ledger categorize` give a transaction the category of the first \
                rule (by number) whose PATTERN occurs in its payee, note or either, ignoring case.
                --json prints {"number", "pattern", "field", "regex", "category"}.
                """
        ) { (arguments: AddArguments, global, output) in
            let record = try LedgerSession.run(global, environment, access: .write, output: output)
            { ledger in
                try ledger.addRule(
                    pattern: arguments.pattern, category: arguments.category,
                    field: arguments.field, isRegex: arguments.regex)
            }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out("added rule \(record.number): \(describe(record))")
            }
        }
    }

    static func list(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["rule", "list"], summary: "list the categorisation rules, in the order they apply",
            details:
                "--json prints an array of {\"number\", \"pattern\", \"field\", \"regex\", \"category\"}."
        ) { (_: NoArguments, global, output) in
            let records = try LedgerSession.run(global, environment, access: .read, output: output)
            { try $0.rules() }
            if global.json {
                try output.json(records.map(\.jsonObject))
            } else if records.isEmpty {
                output.out("no rules; add one with `ledger rule add PATTERN CATEGORY`")
            } else {
                let rows = records.map { r in
                    [
                        "\(r.number)", CLIOutput.visible(r.pattern), r.field.rawValue,
                        r.isRegex ? "regex" : "text", CLIOutput.visible(r.category),
                    ]
                }
                output.table(
                    [["rule", "pattern", "field", "match", "category"]] + rows, rightAligned: [0])
            }
        }
    }

    struct DeleteArguments: ParsableArguments {
        @Argument("NUMBER", transform: .ledgerCount) var number: Int
    }

    static func delete(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["rule", "delete"], summary: "delete a categorisation rule by its number",
            details: "The other rules keep their numbers. --json prints the deleted rule."
        ) { (arguments: DeleteArguments, global, output) in
            let record = try LedgerSession.run(global, environment, access: .write, output: output)
            { try $0.deleteRule(arguments.number) }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out("deleted rule \(record.number): \(describe(record))")
            }
        }
    }

    /// `payee contains "metro" → Transport`, user text made visible.
    static func describe(_ record: RuleRecord) -> String {
        let field = record.field == .any ? "payee or note" : record.field.rawValue
        let verb = record.isRegex ? "matches /" : "contains \""
        let close = record.isRegex ? "/" : "\""
        return "\(field) \(verb)\(CLIOutput.visible(record.pattern))\(close) → "
            + CLIOutput.visible(record.category)
    }
}
