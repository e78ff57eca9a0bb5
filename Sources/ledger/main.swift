import Foundation
import LedgerKit

// The ledger's entry point: `ledger demo` for now.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "demo":
    do {
        print(try LedgerDemo.run())
    } catch {
        FileHandle.standardError.write(Data("ledger: \(error)\n".utf8))
        exit(1)
    }
case nil, "--help", "-h", "help":
    print("""
        usage: ledger demo

        Commands:
          demo    build a RAM ledger with sample data and print the report
        """)
default:
    FileHandle.standardError.write(Data("ledger: unknown command '\(arguments[0])'; see 'ledger --help'\n".utf8))
    exit(64)
}
