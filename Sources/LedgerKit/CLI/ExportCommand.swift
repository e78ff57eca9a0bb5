import CLISupport
import Foundation

/// `ledger export`: writes every transaction as CSV or JSON to standard output.
enum ExportCommand {
    struct Arguments: ParsableArguments {
        @Option(
            "--format", "csv|json", help: "the format (default: csv; --json means json)",
            transform: .ledgerChoice(expected: "csv or json") { ExportFormat(rawValue: $0) })
        var format: ExportFormat?
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["export"], summary: "print every transaction as CSV or JSON",
            details: """
                CSV columns: id,date,amount,kind,category,payee,note,cleared,receipt (amounts unsigned). \
                JSON: {"categories": [...], "transactions": [...]}.
                """
        ) { (arguments: Arguments, global, output) in
            switch arguments.format ?? (global.json ? .json : .csv) {
            case .csv:
                let csv = try LedgerSession.run(global, environment, access: .read, output: output)
                {
                    try $0.exportCSV()
                }
                output.out(String(csv.dropLast()))
            case .json:
                let object = try LedgerSession.run(
                    global, environment, access: .read, output: output
                ) {
                    try $0.exportObject()
                }
                try output.json(object)
            }
        }
    }
}
