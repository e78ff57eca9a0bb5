import CLISupport
import Foundation

/// `ledger demo`: a fresh RAM ledger with sample data, then its report.
enum DemoCommand {
    static func make() -> Command {
        Command(
            CommandSpec(
                path: ["demo"], summary: "build a RAM ledger with sample data and print its report",
                details: "Touches no file; --file is ignored.")
        ) { arguments, output in
            do {
                if arguments.json {
                    try output.json(try LedgerDemo.makeReport().jsonObject)
                } else {
                    output.out(try LedgerDemo.run())
                }
            } catch {
                throw LedgerSession.failure(error)
            }
        }
    }
}
