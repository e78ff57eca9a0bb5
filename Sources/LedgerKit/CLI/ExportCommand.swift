import CLISupport
import Foundation

/// `ledger export`: writes every transaction as CSV or JSON to standard output.
enum ExportCommand {
    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["export"], summary: "print every transaction as CSV or JSON",
                options: [
                    .value("--format", "csv|json", "the format (default: csv; --json means json)")
                ],
                details: """
                    CSV columns: id,date,amount,kind,category,payee,note,cleared,receipt (amounts unsigned). \
                    JSON: {"categories": [...], "transactions": [...]}.
                    """)
        ) { arguments, output in
            let text = arguments.value("--format") ?? (arguments.json ? "json" : "csv")
            guard let format = ExportFormat(rawValue: text) else {
                throw LedgerSession.failure(
                    LedgerError.badValue("--format", text, expected: "csv or json"))
            }
            switch format {
            case .csv:
                let csv = try LedgerSession.run(arguments, environment, access: .read) {
                    try $0.exportCSV()
                }
                output.out(String(csv.dropLast()))
            case .json:
                let object = try LedgerSession.run(arguments, environment, access: .read) {
                    try $0.exportObject()
                }
                try output.json(object)
            }
        }
    }
}
