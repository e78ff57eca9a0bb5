import CLISupport
import Foundation

/// `ledger import FILE`: imports a bank's CSV export.
enum ImportCommand {
    struct Arguments: ParsableArguments {
        @Argument("FILE") var file: String
        @Option(
            "--date-column", "COL",
            help: "the date column: a 1-based number or a header name (required)",
            transform: .column)
        var dateColumn: ColumnReference?
        @Option(
            "--date-format", "FORMAT",
            help: "strftime, e.g. %d.%m.%Y (%Y %y %m %d %b %B %H %M %S); default ISO 8601")
        var dateFormat: String?
        @Option(
            "--amount-column", "COL",
            help: "a signed amount (negative is money out), or with --type-column unsigned",
            transform: .column)
        var amountColumn: ColumnReference?
        @Option(
            "--type-column", "COL", help: "says which way --amount-column's money went",
            transform: .column)
        var typeColumn: ColumnReference?
        @Option("--debit-value", "WORD", help: "the --type-column word for money out, e.g. debit")
        var debitValue: String?
        @Option(
            "--debit-column", "COL", help: "money out, unsigned (with --credit-column)",
            transform: .column)
        var debitColumn: ColumnReference?
        @Option(
            "--credit-column", "COL", help: "money in, unsigned (with --debit-column)",
            transform: .column)
        var creditColumn: ColumnReference?
        @Option(
            "--description-column", "COL", help: "payee, then note (repeatable, in order)",
            transform: .column)
        var descriptionColumns: [ColumnReference]
        @Flag("--header", help: "the first row names the columns (default)") var header: Bool
        @Flag("--no-header", help: "the first row is a transaction") var noHeader: Bool
        @Option(
            "--delimiter", "D", help: "',' ';' or tab (default: detected)",
            transform: .ledgerChoice(expected: "',' ';' or tab") { CSVDelimiter(argument: $0) })
        var delimiter: CSVDelimiter?
        @Option(
            "--encoding", "ENC", help: "utf-8 or latin-1 (default: detected)",
            transform: .ledgerChoice(expected: "utf-8 or latin-1") { CSVEncoding(argument: $0) })
        var encoding: CSVEncoding?
        @Flag("--decimal-comma", help: "amounts use a decimal comma: 1.234,56 (default: inferred)")
        var decimalComma: Bool
        @Flag(
            "--skip-bad-rows",
            help: "skip rows that cannot be read, and list them (default: all or nothing)")
        var skipBadRows: Bool
        @Flag("--dry-run", help: "show what would be imported; write nothing") var dryRun: Bool

        /// The import flags as ``ImportOptions``.
        func importOptions() throws -> ImportOptions {
            guard let dateColumn else { throw CLIError.usage("--date-column is required") }
            guard !(header && noHeader) else {
                throw CLIError.usage("give --header or --no-header, not both")
            }
            var options = ImportOptions(dateColumn: dateColumn)
            options.amountColumn = amountColumn
            options.typeColumn = typeColumn
            options.debitValue = debitValue
            options.debitColumn = debitColumn
            options.creditColumn = creditColumn
            options.descriptionColumns = descriptionColumns
            options.dateFormat = dateFormat
            options.hasHeader = !noHeader
            options.skipBadRows = skipBadRows
            if decimalComma { options.decimalStyle = .comma }
            if let delimiter { options.delimiter = delimiter }
            if let encoding { options.encoding = encoding }
            return options
        }
    }

    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["import"], summary: "import a bank's CSV export",
            details: """
                Importing the same file again adds nothing. Creates the ledger file if missing.
                Example: ledger import bank.csv --no-header --delimiter ';' --date-column 3 \\
                  --date-format %d.%m.%Y --amount-column 5 --decimal-comma --description-column 2
                """
        ) { (arguments: Arguments, global, output) in
            let options = try arguments.importOptions()
            let file = environment.url(arguments.file)
            let dryRun = arguments.dryRun
            // A progress bar on a terminal (rows read of the file's rows, then the save).
            let bar = global.progressBar("import", output)
            defer { bar?.finish() }
            let progress: (ImportProgress) -> Void = { step in
                switch step {
                case .read(let rows, let total): bar?.update(rows, of: total)
                case .saving(let count):
                    bar?.status("saving \(LedgerText.count(count, "transaction"))")
                }
            }
            // The export is read whole before the ledger is opened: one that cannot be read
            // (missing, a directory, UTF-16, a bad row) creates no ledger file or lock file.
            let result: ImportResult
            do {
                result = try Ledger.readCSV(file, options: options, progress: progress)
            } catch {
                throw LedgerSession.failure(error)
            }
            let ledgerURL = environment.ledgerURL(file: global.file)
            let summary: ImportSummary
            if dryRun, !FileManager.default.fileExists(atPath: ledgerURL.path),
                ledgerURL.path != "/dev/null"
            {
                summary = Ledger.preview(result, from: file)
            } else {
                summary = try LedgerSession.run(
                    global, environment, access: dryRun ? .read : .create, output: output
                ) { ledger in
                    try ledger.importRows(result, from: file, dryRun: dryRun, progress: progress)
                }
            }
            bar?.finish()
            for warning in summary.result.warnings { output.err("warning: \(warning)") }
            if global.json {
                try output.json(summary.jsonObject)
            } else {
                print(summary, to: output)
            }
        }
    }

    /// The text summary: the rows of a dry run, skipped rows, and the totals.
    static func print(_ summary: ImportSummary, to output: CLIOutput) {
        if summary.isDryRun, !summary.added.isEmpty {
            let rows = summary.added.map { row in
                [
                    "\(row.line)", LedgerDates.day(row.date),
                    (row.kind == .expense ? "-" : "+") + Money.format(row.amount), row.payee ?? "",
                    row.note ?? "",
                ]
            }
            output.table(
                [["line", "date", "amount", "payee", "note"]] + rows, rightAligned: [0, 2])
        }
        for skipped in summary.result.skipped {
            output.out("skipped line \(skipped.line): \(skipped.reason)")
        }
        let verb = summary.isDryRun ? "would import" : "imported"
        output.out(
            "\(verb) \(LedgerText.count(summary.added.count, "transaction")) from \(summary.file) "
                + "(out \(Money.format(summary.out)), in \(Money.format(summary.in)))"
                + (summary.isDryRun ? "; nothing written" : ""))
        if summary.alreadyPresent > 0 {
            output.out("\(LedgerText.count(summary.alreadyPresent, "row")) already in the ledger")
        }
        if !summary.result.skipped.isEmpty {
            output.out("skipped \(LedgerText.count(summary.result.skipped.count, "bad row"))")
        }
    }
}
