import CLISupport
import Foundation

/// `ledger import FILE`: imports a bank's CSV export.
enum ImportCommand {
    static let options: [OptionSpec] = [
        .value(
            "--date-column", "COL", "the date column: a 1-based number or a header name (required)"),
        .value(
            "--date-format", "FORMAT",
            "strftime, e.g. %d.%m.%Y (%Y %y %m %d %b %B %H %M %S); default ISO 8601"),
        .value(
            "--amount-column", "COL",
            "a signed amount (negative is money out), or with --type-column unsigned"),
        .value("--type-column", "COL", "says which way --amount-column's money went"),
        .value("--debit-value", "WORD", "the --type-column word for money out, e.g. debit"),
        .value("--debit-column", "COL", "money out, unsigned (with --credit-column)"),
        .value("--credit-column", "COL", "money in, unsigned (with --debit-column)"),
        .value(
            "--description-column", "COL", "payee, then note (repeatable, in order)",
            repeatable: true),
        .flag("--header", "the first row names the columns (default)"),
        .flag("--no-header", "the first row is a transaction"),
        .value("--delimiter", "D", "',' ';' or tab (default: detected)"),
        .value("--encoding", "ENC", "utf-8 or latin-1 (default: detected)"),
        .flag("--decimal-comma", "amounts use a decimal comma: 1.234,56 (default: inferred)"),
        .flag(
            "--skip-bad-rows",
            "skip rows that cannot be read, and list them (default: all or nothing)"),
        .flag("--dry-run", "show what would be imported; write nothing"),
    ]

    static func make(_ environment: LedgerEnvironment) -> Command {
        Command(
            CommandSpec(
                path: ["import"], summary: "import a bank's CSV export", arguments: "FILE",
                positionals: 1...1,
                options: options,
                details: """
                    Importing the same file again adds nothing. Creates the ledger file if missing.
                    Example: ledger import bank.csv --no-header --delimiter ';' --date-column 3 \\
                      --date-format %d.%m.%Y --amount-column 5 --decimal-comma --description-column 2
                    """)
        ) { arguments, output in
            let options = try importOptions(arguments)
            let file = environment.url(arguments.positionals[0])
            let dryRun = arguments.has("--dry-run")
            // Progress on stderr for large files only: every progressInterval rows read, then the save.
            var reported = 0
            let progress: (ImportProgress) -> Void = { step in
                switch step {
                case .read(let rows)
                where rows > reported && rows % CSVImporter.progressInterval == 0:
                    reported = rows
                    output.err("import: \(rows) rows read")
                case .saving(let count) where reported > 0:
                    output.err("import: saving \(count) transactions")
                default:
                    break
                }
            }
            let ledgerURL = environment.ledgerURL(file: arguments.value("--file"))
            let summary: ImportSummary
            if dryRun, !FileManager.default.fileExists(atPath: ledgerURL.path),
                ledgerURL.path != "/dev/null"
            {
                do {
                    summary = try Ledger.previewImport(file, options: options, progress: progress)
                } catch {
                    throw LedgerSession.failure(error)
                }
            } else {
                summary = try LedgerSession.run(
                    arguments, environment, access: dryRun ? .read : .create
                ) { ledger in
                    try ledger.importCSV(file, options: options, dryRun: dryRun, progress: progress)
                }
            }
            if arguments.json {
                try output.json(summary.jsonObject)
            } else {
                print(summary, to: output)
            }
        }
    }

    /// The import flags as ``ImportOptions``.
    static func importOptions(_ arguments: ParsedArguments) throws -> ImportOptions {
        guard let date = arguments.value("--date-column") else {
            throw CLIError.usage("--date-column is required")
        }
        guard !(arguments.has("--header") && arguments.has("--no-header")) else {
            throw CLIError.usage("give --header or --no-header, not both")
        }
        var options = ImportOptions(dateColumn: ColumnReference(argument: date))
        options.amountColumn = arguments.value("--amount-column").map(
            ColumnReference.init(argument:))
        options.typeColumn = arguments.value("--type-column").map(ColumnReference.init(argument:))
        options.debitValue = arguments.value("--debit-value")
        options.debitColumn = arguments.value("--debit-column").map(ColumnReference.init(argument:))
        options.creditColumn = arguments.value("--credit-column").map(
            ColumnReference.init(argument:))
        options.descriptionColumns = arguments.allValues("--description-column").map(
            ColumnReference.init(argument:))
        options.dateFormat = arguments.value("--date-format")
        options.hasHeader = !arguments.has("--no-header")
        options.skipBadRows = arguments.has("--skip-bad-rows")
        if arguments.has("--decimal-comma") { options.decimalStyle = .comma }
        if let text = arguments.value("--delimiter") {
            guard let delimiter = CSVDelimiter(argument: text) else {
                throw LedgerSession.failure(
                    LedgerError.badValue("--delimiter", text, expected: "',' ';' or tab"))
            }
            options.delimiter = delimiter
        }
        if let text = arguments.value("--encoding") {
            guard let encoding = CSVEncoding(argument: text) else {
                throw LedgerSession.failure(
                    LedgerError.badValue("--encoding", text, expected: "utf-8 or latin-1"))
            }
            options.encoding = encoding
        }
        return options
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
