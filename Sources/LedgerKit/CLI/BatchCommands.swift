import CLISupport
import Foundation

/// `ledger adjust` and `ledger purge`: changes to many transactions at once, each one batch
/// request and one transaction line.
enum BatchCommands {
    struct AdjustArguments: ParsableArguments {
        @Option(
            "--multiply", "F", help: "multiply each amount by F (above 0), e.g. 1.2 adds 20%",
            transform: .ledger { try LedgerValues.factor($0, key: "--multiply") })
        var factor: Decimal?
        @Option(
            "--add", "AMOUNT", help: "add AMOUNT to each (negative subtracts), e.g. -5.00",
            transform: .ledger { try LedgerValues.signedAmount($0, key: "--add") })
        var delta: Decimal?
        @OptionGroup var filter: TransactionFilterArguments
        @Flag("--dry-run", help: "show the count and the totals before and after; change nothing")
        var dryRun: Bool
    }

    struct PurgeArguments: ParsableArguments {
        @Option(
            "--before", "YYYY-MM-DD", help: "delete transactions dated before this day",
            transform: .ledgerDate)
        var before: Date
        @Option("--category", "C", help: "only this category") var category: String?
        @Option(
            "--where", "PREDICATE", help: "only transactions matching a predicate (see `list`)")
        var predicate: String?
        @Flag("--dry-run", help: "show what would be deleted; change nothing") var dryRun: Bool
    }

    /// How many changed transactions text output lists (JSON lists all).
    static let listed = 20

    /// Progress for `bar`: the rows checked, then (once all are, when the command `writes`)
    /// a status while the batch request writes its transaction line.
    static func checkingThenWriting(_ bar: ProgressBar, writes: Bool) -> (Int, Int) -> Void {
        { done, total in
            bar.update(done, of: total)
            if writes, done == total, total > 0 { bar.status("writing one transaction line") }
        }
    }

    static func adjust(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["adjust"], summary: "multiply or add to many amounts at once",
            details: """
                One batch update: amount = round(amount * F, 2) or round(amount + AMOUNT, 2), cents \
                rounded half away from zero, in one transaction line. Every new amount is checked \
                against the model's rules first (at least 0.01): when one breaks them nothing \
                changes and the transactions are named. Give exactly one of --multiply or --add.
                --json prints {dryRun, count, totalBefore, totalAfter, changes: [{id, before, after}]}.
                """
        ) { (arguments: AdjustArguments, global, output) in
            let adjustment: AmountAdjustment
            switch (arguments.factor, arguments.delta) {
            case (let factor?, nil): adjustment = .multiply(factor)
            case (nil, let delta?): adjustment = .add(delta)
            default: throw CLIError.usage("give exactly one of --multiply F or --add AMOUNT")
            }
            let query = arguments.filter.query
            let progress = global.progressBar("adjust", output)
            defer { progress?.finish() }
            let (result, ids) = try LedgerSession.run(
                global, environment, access: arguments.dryRun ? .read : .write, output: output
            ) { ledger in
                let result = try ledger.adjustAmounts(
                    adjustment, matching: query, dryRun: arguments.dryRun,
                    progress: progress.map {
                        Self.checkingThenWriting($0, writes: !arguments.dryRun)
                    })
                progress?.finish()
                let shown = global.json ? [] : result.changes.prefix(listed).map(\.id)
                return (result, try ledger.shortIDs(for: Array(shown)))
            }
            if global.json {
                try output.json(result.jsonObject)
                return
            }
            guard result.count > 0 else {
                output.out("no transactions match; nothing changed")
                return
            }
            let verb = result.isDryRun ? "would adjust" : "adjusted"
            output.out(
                "\(verb) \(LedgerText.count(result.count, "transaction")) (\(adjustment.summary)): "
                    + "total \(Money.format(result.totalBefore)) → \(Money.format(result.totalAfter))"
            )
            for change in result.changes.prefix(listed) {
                output.out(
                    "  \(ids[change.id] ?? change.id.uuidString.lowercased())  "
                        + "\(Money.format(change.before)) → \(Money.format(change.after))")
            }
            if result.count > listed {
                output.out("  … and \(result.count - listed) more (--json lists all)")
            }
        }
    }

    static func purge(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["purge"], summary: "delete old transactions at once",
            details: """
                One batch delete of the transactions dated before --before (and matching --category \
                and --where), in one transaction line; then their receipt files are removed. A crash \
                between the two leaves orphan receipts that `ledger verify --fix` removes.
                --json prints {dryRun, before, count, out, in, receipts, receiptsRemoved, notices}.
                """
        ) { (arguments: PurgeArguments, global, output) in
            var query = TransactionQuery()
            query.predicate = arguments.predicate
            query.category = arguments.category
            let progress = global.progressBar("purge", output)
            defer { progress?.finish() }
            let result = try LedgerSession.run(
                global, environment, access: arguments.dryRun ? .read : .write, output: output
            ) { ledger in
                defer { progress?.finish() }
                return try ledger.purge(
                    before: arguments.before, matching: query, dryRun: arguments.dryRun,
                    progress: progress.map {
                        Self.checkingThenWriting($0, writes: !arguments.dryRun)
                    })
            }
            for notice in result.notices { output.err("ledger: notice: \(notice)") }
            if global.json {
                try output.json(result.jsonObject)
                return
            }
            let verb = result.isDryRun ? "would purge" : "purged"
            var line =
                "\(verb) \(LedgerText.count(result.count, "transaction")) dated before "
                + "\(LedgerDates.day(result.before)): out \(Money.format(result.out)), "
                + "in \(Money.format(result.in))"
            if result.receipts > 0 {
                line +=
                    result.isDryRun
                    ? "; \(LedgerText.count(result.receipts, "receipt")) to remove"
                    : "; \(LedgerText.count(result.receiptsRemoved, "receipt")) removed"
            }
            output.out(line)
        }
    }
}
