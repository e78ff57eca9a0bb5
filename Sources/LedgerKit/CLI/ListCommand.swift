import CLISupport
import Foundation

/// `--where`, `--category`, `--from`, `--to`: which transactions a command (`list`,
/// `adjust`) works on.
struct TransactionFilterArguments: ParsableArguments {
    @Option(
        "--where", "PREDICATE",
        help: "a predicate, e.g. \"amount > 50 AND payee CONTAINS[c] 'shop'\"")
    var predicate: String?
    @Option("--category", "C", help: "only this category") var category: String?
    @Option("--from", "YYYY-MM-DD", help: "only on or after this date", transform: .ledgerDate)
    var from: Date?
    @Option("--to", "YYYY-MM-DD", help: "only on or before this date", transform: .ledgerDate)
    var to: Date?

    /// The query these options describe (all transactions, by date, when none is given).
    var query: TransactionQuery {
        var query = TransactionQuery()
        query.predicate = predicate
        query.category = category
        (query.from, query.to) = (from, to)
        return query
    }
}

/// `ledger list`: shows transactions.
enum ListCommand {
    struct Arguments: ParsableArguments {
        @OptionGroup var filter: TransactionFilterArguments
        @Option("--limit", "N", help: "show at most N", transform: .ledgerCount) var limit: Int?
        @Option(
            "--sort", "KEY[:desc]",
            help: "order by date (default), amount, kind, payee, note, category or cleared",
            transform: .ledger { try TransactionSort(argument: $0) })
        var sort: [TransactionSort]
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["list"], summary: "list transactions",
            details: """
                Predicate keys: amount, kind ('expense'/'income'), date, note, payee, isCleared, \
                category.name, importKey. Dates compare with CAST('2026-11-01', 'NSDate').
                --json prints an array of {id, amount, kind, date, note, payee, category, isCleared}.
                """
        ) { (arguments: Arguments, global, output) in
            var query = arguments.filter.query
            query.limit = arguments.limit
            query.sort = arguments.sort
            let (records, ids) = try LedgerSession.run(
                global, environment, access: .read, output: output
            ) {
                ledger in
                let records = try ledger.transactions(query)
                return (records, global.json ? [:] : try ledger.shortIDs(for: records.map(\.id)))
            }
            if global.json {
                try output.json(records.map(\.jsonObject))
                return
            }
            guard !records.isEmpty else {
                output.out("no transactions")
                return
            }
            let rows = records.map { record in
                [
                    ids[record.id] ?? record.idString, LedgerDates.day(record.date),
                    LedgerText.signed(record), record.category ?? "-",
                    record.payee ?? "", record.note ?? "", record.isCleared ? "✓" : "",
                ]
            }
            output.table(
                [["id", "date", "amount", "category", "payee", "note", "cleared"]] + rows,
                rightAligned: [2])
        }
    }
}
