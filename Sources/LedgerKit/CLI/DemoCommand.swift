import CLISupport
import Foundation

/// `ledger demo`: a fresh RAM ledger with sample data, then its report.
enum DemoCommand {
    static func make() -> LedgerCommand {
        LedgerCommand(
            ["demo"], summary: "build a RAM ledger with sample data and print its report",
            details: "Touches no file; --file is ignored."
        ) { (_: NoArguments, global, output) in
            do {
                if global.json {
                    var object = try LedgerDemo.makeReport().jsonObject
                    object["learning"] = try LedgerDemo.learn().jsonObject
                    try output.json(object)
                } else {
                    output.out(try LedgerDemo.run())
                }
            } catch {
                throw LedgerSession.failure(error)
            }
        }
    }
}
