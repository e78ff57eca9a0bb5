import CLISupport
import Foundation
import LedgerKit
import Testing

/// The command line in-process: stdout, stderr and exit codes of single commands.
@Suite struct LedgerToolTests {
    @Test func demoPrintsTheSampleReport() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let result = await sandbox.run(["demo"])
        #expect(result.code == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout.hasPrefix("Expense Tracker demo (RAM store) — spending by category\n"))
        #expect(result.stdout.contains("net              1145.83\n"))
        let json = try #require(try await sandbox.json(["demo"]) as? [String: Any])
        #expect(json["net"] as? String == "1145.83")
        #expect(!sandbox.exists("ledger.jsonl"))
    }

    @Test(arguments: [
        ["init"], ["demo"], ["category", "add"], ["category", "list"], ["category", "rename"],
        ["category", "delete"], ["add"], ["list"], ["edit"], ["delete"], ["clear"], ["report"],
        ["import"],
        ["export"], ["compact"], ["verify"],
    ])
    func everyCommandHasHelp(_ command: [String]) async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let result = await sandbox.run(command + ["--help"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("usage: ledger \(command.joined(separator: " "))"))
        #expect(result.stdout.contains("--file PATH"))
        #expect(result.stderr == "")
    }

    @Test func aBareCommandLineIsAUsageError() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let result = await sandbox.run([])
        #expect(result.code == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("usage: ledger [options] COMMAND ..."))
    }

    @Test func theOverviewListsTheCommands() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let result = await sandbox.run(["--help"])
        #expect(result.code == 0)
        for word in ["init", "category add", "import", "report", "export"] {
            #expect(result.stdout.contains(word))
        }
    }

    @Test(arguments: [
        (["frobnicate"], "ledger: unknown command 'frobnicate'"),
        (["add"], "ledger add: expected 1 argument, got 0"),
        (["add", "1", "2"], "ledger add: expected 1 argument, got 2: 1 2"),
        (["add", "1", "--colour", "x"], "ledger add: unknown option --colour"),
        (["list", "--limit"], "ledger list: --limit needs a value (N)"),
        (["edit", "abc"], "ledger edit: nothing to change: give --amount"),
        (["import", "x.csv"], "ledger import: --date-column is required"),
        (
            ["import", "x.csv", "--date-column", "1", "--header", "--no-header"],
            "ledger import: give --header or --no-header, not both"
        ),
        (
            ["category", "rename", "Food"],
            "ledger category rename: expected 2 arguments, got 1: Food"
        ),
    ])
    func usageErrorsExit64WithTheUsage(_ arguments: [String], _ message: String) async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let result = await sandbox.run(arguments)
        #expect(result.code == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(message))
        #expect(result.stderr.contains("usage: ledger"))
    }

    @Test(arguments: [
        (
            ["add", "12.50", "--date", "2026-13-01"],
            "bad --date \"2026-13-01\": expected a real calendar date (YYYY-MM-DD)"
        ),
        (
            ["add", "12.50", "--date", "30/11/2026"],
            "bad --date \"30/11/2026\": expected a date YYYY-MM-DD"
        ),
        (
            ["add", "twelve"],
            "bad amount \"twelve\": expected an amount like 12.50 (digits, at most 2 decimals)"
        ),
        (
            ["add", "1.005"],
            "bad amount \"1.005\": expected an amount like 12.50 (digits, at most 2 decimals)"
        ),
        (
            ["add", "--", "-5"],
            "bad amount \"-5\": expected a positive amount (money out is the default; --income for money in)"
        ),
        (["add", "0"], "Transaction.amount must be at least 0.01; got 0"),
        (
            ["add", "5", "--category", "Food"],
            "no category named \"Food\"; add it with `ledger category add Food`"
        ),
        (
            ["category", "add", "Food", "--color", "red"],
            "Category.colorHex must match ^#[0-9A-Fa-f]{6}$; got \"red\""
        ),
        (
            ["category", "delete", "Food", "--rule", "explode"],
            "bad --rule \"explode\": expected nullify, cascade or deny"
        ),
        (
            ["list", "--sort", "colour"],
            "bad --sort \"colour\": expected KEY or KEY:desc with KEY one of date, amount, kind, payee, note, category, cleared"
        ),
        (["list", "--limit", "0"], "bad --limit \"0\": expected a whole number above 0"),
        (["list", "--limit", "+3"], "bad --limit \"+3\": expected a whole number above 0"),
        (
            ["list", "--where", "amount >"],
            "predicate: expected an expression, found end of string at column 9: amount >"
        ),
        (["report", "--by", "week"], "bad --by \"week\": expected month or category"),
        (["export", "--format", "xml"], "bad --format \"xml\": expected csv or json"),
        (
            ["edit", "zz", "--note", "x"],
            "no transaction with an ID starting \"zz\"; see `ledger list`"
        ),
        (
            ["import", "x.csv", "--date-column", "1", "--delimiter", "|"],
            "bad --delimiter \"|\": expected ',' ';' or tab"
        ),
    ])
    func failuresExit1WithOneLineOnStderr(_ arguments: [String], _ message: String) async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let result = await sandbox.run(["--file", "/dev/null"] + arguments)
        #expect(result.code == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "ledger: \(message)\n")
    }

    @Test(arguments: [
        ["list"], ["report"], ["category", "list"], ["export"], ["edit", "ab", "--note", "x"],
        ["delete", "ab"], ["clear", "ab"], ["category", "rename", "A", "B"],
        ["category", "delete", "A"],
    ])
    func commandsThatNeedAFileSayHowToCreateOne(_ arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let result = await sandbox.run(arguments)
        #expect(result.code == 1)
        #expect(
            result.stderr
                == "ledger: no ledger at ledger.jsonl; create one with `ledger init` (or pass --file PATH)\n"
        )
        #expect(!sandbox.exists("ledger.jsonl"))
        let named = await sandbox.run(arguments + ["--file", "books/2026.jsonl"])
        #expect(named.stderr.hasPrefix("ledger: no ledger at books/2026.jsonl;"))
    }

    @Test func theLedgerFileComesFromTheEnvironmentUnlessGiven() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        var environment = sandbox.environment
        environment.variables["LEDGER_FILE"] = "home.jsonl"
        let fromVariable = await sandbox.run(["list"], environment: environment)
        #expect(fromVariable.stderr.hasPrefix("ledger: no ledger at home.jsonl;"))
        let fromOption = await sandbox.run(
            ["list", "--file", "work.jsonl"], environment: environment)
        #expect(fromOption.stderr.hasPrefix("ledger: no ledger at work.jsonl;"))
    }

    @Test func aDryRunImportNeedsNoLedgerFile() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let csv = try sandbox.write(
            "bank.csv", "Date,Amount,Payee\n2026-03-01,-2.50,Coffee\n2026-03-02,10,Refund\n")
        let result = await sandbox.run([
            "import", csv, "--date-column", "Date", "--amount-column", "Amount",
            "--description-column", "Payee", "--dry-run",
        ])
        #expect(result.code == 0)
        #expect(
            result.stdout == """
                line  date        amount  payee   note
                   2  2026-03-01   -2.50  Coffee
                   3  2026-03-02  +10.00  Refund
                would import 2 transactions from \(csv) (out 2.50, in 10.00); nothing written

                """)
        #expect(!sandbox.exists("ledger.jsonl"))
    }

    /// Progress is a bar on a terminal only (see ProgressBarTests): a captured or redirected
    /// stderr gets nothing.
    @Test func largeImportsPrintNoProgressWhenStderrIsNotATerminal() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        var csv = "Date,Amount\n"
        for i in 0..<10_001 {
            csv += "2026-01-\(String(format: "%02d", i % 28 + 1)),-\(i % 97 + 1).25\n"
        }
        let file = try sandbox.write("big.csv", csv)
        let result = await sandbox.run([
            "--file", "/dev/null", "import", file, "--date-column", "1", "--amount-column", "2",
        ])
        #expect(result.code == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("imported 10001 transactions from \(file)"))
        let small = await sandbox.run([
            "--file", "/dev/null", "import", file, "--date-column", "1", "--amount-column", "2",
            "--dry-run",
        ])
        #expect(small.stderr == "")
    }
}
