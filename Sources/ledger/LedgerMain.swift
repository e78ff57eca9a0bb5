import Foundation
import LedgerKit

/// The `ledger` executable: runs the command line and exits with its code (0 ok, 1 failure,
/// 64 usage). Everything else lives in LedgerKit.
@main
struct LedgerMain {
    static func main() async {
        let code = await LedgerTool.make().run(Array(CommandLine.arguments.dropFirst()))
        exit(code)
    }
}
