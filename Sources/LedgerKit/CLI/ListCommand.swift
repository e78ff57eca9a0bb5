import CLISupport
import Foundation

/// `ledger list`: shows transactions.
enum ListCommand {
    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["list"], summary: "list transactions",
                options: [
                    .value(
                        "--where", "PREDICATE",
                        "a predicate, e.g. \"amount > 50 AND payee CONTAINS[c] 'shop'\""),
                    .value("--category", "C", "only this category"),
                    .value("--from", "YYYY-MM-DD", "only on or after this date"),
                    .value("--to", "YYYY-MM-DD", "only on or before this date"),
                    .value(
                        "--sort", "KEY[:desc]",
                        "order by date (default), amount, kind, payee, note, category or cleared",
                        repeatable: true),
                    .value("--limit", "N", "show at most N"),
                ],
                details: """
                    Predicate keys: amount, kind ('expense'/'income'), date, note, payee, isCleared, \
                    category.name, importKey. Dates compare with CAST('2026-11-01', 'NSDate').
                    --json prints an array of {id, amount, kind, date, note, payee, category, isCleared}.
                    """)
        ) { arguments, output in
            var query = TransactionQuery()
            query.predicate = arguments.value("--where")
            query.category = arguments.value("--category")
            query.from = try arguments.date("--from")
            query.to = try arguments.date("--to")
            query.limit = try arguments.count("--limit")
            do {
                query.sort = try arguments.allValues("--sort").map(TransactionSort.init(argument:))
            } catch {
                throw LedgerSession.failure(error)
            }
            let (records, ids) = try LedgerSession.run(arguments, environment, access: .read) {
                ledger in
                let records = try ledger.transactions(query)
                return (records, arguments.json ? [:] : try ledger.shortIDs(for: records.map(\.id)))
            }
            if arguments.json {
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
