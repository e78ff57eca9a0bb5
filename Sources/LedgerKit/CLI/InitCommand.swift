import CLISupport
import Foundation

/// `ledger init`: creates an empty ledger file.
enum InitCommand {
    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["init"], summary: "create an empty ledger file",
            details:
                "Fails when the file already exists. add, import and category add also create it."
        ) { (_: NoArguments, global, output) in
            let configuration = environment.configuration(file: global.file)
            let ledger: Ledger
            do { ledger = try Ledger.create(configuration) } catch {
                throw LedgerSession.failure(error)
            }
            ledger.close()
            let path = configuration.storeURL.relativePath
            if global.json {
                try output.json(["file": path, "created": true])
            } else {
                output.out(
                    ledger.isInMemory
                        ? "created a RAM ledger (nothing persists)" : "created \(path)")
            }
        }
    }
}
