import CLISupport
import Foundation

/// `ledger add AMOUNT`: records a transaction.
enum AddCommand {
    struct Arguments: ParsableArguments {
        @Argument("AMOUNT", transform: .ledger { try LedgerValues.amount($0) })
        var amount: Decimal
        @Flag("--income", help: "money in (default: money out)") var income: Bool
        @Option("--category", "C", help: "its category (must exist)") var category: String?
        @Option(
            "--date", "YYYY-MM-DD", help: "its date (default: today)", transform: .ledgerDate)
        var date: Date?
        @Option("--note", "N", help: "a note") var note: String?
        @Option("--payee", "P", help: "who was paid, or who paid") var payee: String?
        @Option(
            "--receipt", "FILE",
            help: "a receipt to copy beside the ledger (removed with the transaction)")
        var receipt: String?
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["add"], summary: "add a transaction (money out unless --income)",
            details:
                "AMOUNT is positive, with at most 2 decimals: 12.50. Creates the ledger file if missing."
        ) { (arguments: Arguments, global, output) in
            var draft = TransactionDraft(amount: arguments.amount)
            draft.kind = arguments.income ? .income : .expense
            draft.category = arguments.category
            draft.date = arguments.date
            draft.note = arguments.note
            draft.payee = arguments.payee
            draft.receipt = arguments.receipt.map(environment.url)
            // What can be checked without the ledger is checked before it is opened (and
            // perhaps created).
            if let receipt = draft.receipt {
                do { try Ledger.checkReceipt(receipt) } catch { throw LedgerSession.failure(error) }
            }
            let record = try LedgerSession.run(global, environment, access: .create, output: output)
            { ledger in
                try ledger.addTransaction(draft)
            }
            if global.json {
                try output.json(record.jsonObject)
            } else {
                output.out("added " + LedgerText.line(record))
            }
        }
    }
}
