import CLISupport
import Foundation
import LedgerKit
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `ledger rule`, `categorize`, `import` categorising, `budget` and `report --chart`,
/// in-process.
@Suite struct LedgerLearningCLITests {
    /// A ledger with Groceries and Transport, two categorised Market Hall transactions and
    /// one uncategorised metro ride.
    static func sandbox() async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        for arguments in [
            ["init"], ["category", "add", "Groceries", "--color", "#4CAF50"],
            ["category", "add", "Transport"],
            [
                "add", "12.50", "--payee", "MARKET HALL *4411", "--category", "Groceries", "--date",
                "2026-10-02",
            ],
            [
                "add", "20", "--payee", "Market Hall 12/10", "--category", "Groceries", "--date",
                "2026-10-12",
            ],
            ["add", "2.80", "--payee", "CITY METRO", "--date", "2026-10-03"],
        ] {
            let result = await sandbox.run(arguments)
            #expect(result.code == 0, "\(arguments): \(result.stderr)")
        }
        return sandbox
    }

    @Test func rulesAreAddedListedAndDeleted() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.remove() }
        let added = await sandbox.run(["rule", "add", "metro", "Transport"])
        #expect(added.code == 0)
        #expect(added.stdout == "added rule 1: payee or note contains \"metro\" → Transport\n")
        let regex = try #require(
            try await sandbox.json([
                "rule", "add", "^city", "transport", "--regex", "--field", "payee",
            ])
                as? [String: Any])
        #expect(regex["number"] as? Int == 2)
        #expect(regex["regex"] as? Bool == true)
        #expect(regex["field"] as? String == "payee")
        #expect(regex["category"] as? String == "Transport")
        let list = await sandbox.run(["rule", "list"])
        #expect(
            list.stdout == """
                rule  pattern  field  match  category
                   1  metro    any    text   Transport
                   2  ^city    payee  regex  Transport

                """)
        let json = try #require(try await sandbox.json(["rule", "list"]) as? [[String: Any]])
        #expect(json.map { $0["pattern"] as? String } == ["metro", "^city"])
        let deleted = await sandbox.run(["rule", "delete", "1"])
        #expect(deleted.stdout == "deleted rule 1: payee or note contains \"metro\" → Transport\n")
        #expect(try #require(try await sandbox.json(["rule", "list"]) as? [Any]).count == 1)
    }

    @Test func categorizeShowsWhyAndADryRunWritesNothing() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.remove() }
        _ = await sandbox.run(["rule", "add", "metro", "Transport"])
        _ = await sandbox.run(["add", "7.10", "--payee", "market hall #88", "--date", "2026-11-01"])
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("ledger.jsonl")))
        let dry = await sandbox.run(["categorize", "--dry-run"])
        #expect(dry.code == 0)
        #expect(dry.stdout.contains("CITY METRO       Transport  rule 1\n"))
        #expect(dry.stdout.contains("market hall #88  Groceries  learned from 2 of 2\n"))
        #expect(
            dry.stdout.hasSuffix(
                "would categorise 2 of 2 uncategorised transactions (1 by rule, 1 learned); 0 left; "
                    + "nothing written\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("ledger.jsonl"))) == before)
        let applied = try #require(try await sandbox.json(["categorize"]) as? [String: Any])
        #expect(applied["categorized"] as? Int == 2)
        #expect(applied["learned"] as? Int == 1)
        let changes = try #require(applied["changes"] as? [[String: Any]])
        #expect(changes.map { $0["reason"] as? String } == ["rule 1", "learned from 2 of 2"])
        let list = try #require(try await sandbox.json(["list"]) as? [[String: Any]])
        #expect(list.allSatisfy { !($0["category"] is NSNull) })
    }

    @Test func importDryRunShowsEachRowsCategoryAndWhy() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.remove() }
        _ = await sandbox.run(["rule", "add", "metro", "Transport"])
        let csv = try sandbox.write(
            "bank.csv",
            "Date,Payee,Amount,Category\n2026-11-01,CITY METRO 12,-2.80,\n"
                + "2026-11-02,MARKET HALL 0231 *9,-31.00,\n2026-11-03,Bookshop,-9.00,\n"
                + "2026-11-04,Corner,-4.00,groceries\n")
        let flags = [
            "--date-column", "Date", "--amount-column", "Amount", "--description-column", "Payee",
            "--category-column", "Category",
        ]
        let dry = await sandbox.run(["import", csv, "--dry-run"] + flags)
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(
            dry.stdout.hasPrefix(
                """
                line  date        amount  payee                note  category   why
                   2  2026-11-01   -2.80  CITY METRO 12              Transport  rule 1
                   3  2026-11-02  -31.00  MARKET HALL 0231 *9        Groceries  learned from 2 of 2
                   4  2026-11-03   -9.00  Bookshop                   -          none
                   5  2026-11-04   -4.00  Corner                     Groceries  column

                """))
        #expect(dry.stdout.hasSuffix("; nothing written\nwould categorise 3 of 4\n"))
        let json = try #require(try await sandbox.json(["import", csv] + flags) as? [String: Any])
        #expect(json["categorized"] as? Int == 3)
        let categories = try #require(json["categories"] as? [[String: Any]])
        #expect(
            categories.map { $0["reason"] as? String } == [
                "rule 1", "learned from 2 of 2", "none", "column",
            ])
        #expect(categories[2]["category"] is NSNull)
    }

    @Test func failedCommandsLeaveTheFileByteForByte() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.remove() }
        _ = await sandbox.run(["budget", "set", "Groceries", "100"])
        let csv = try sandbox.write("c.csv", "Date,Payee,Amount,Category\n2026-11-01,X,-1.00,Fun\n")
        let url = URL(fileURLWithPath: sandbox.path("ledger.jsonl"))
        let before = try Data(contentsOf: url)
        let cases: [([String], Int32, String)] = [
            (
                ["rule", "add", "[a", "Transport", "--regex"], 1,
                "ledger: bad PATTERN \"[a\": expected a regular expression"
            ),
            (["rule", "add", "x", "Nope"], 1, "ledger: no category named \"Nope\""),
            (
                ["rule", "add", "x", "Transport", "--field", "memo"], 1,
                "ledger: bad --field \"memo\": expected payee, note or any"
            ),
            (["rule", "add", "x"], 64, "ledger rule add: expected 2 arguments, got 1"),
            (["rule", "delete", "9"], 1, "ledger: no rule 9; see `ledger rule list`"),
            (["rule", "delete", "one"], 1, "ledger: bad NUMBER \"one\""),
            (["budget", "set", "Groceries", "-5"], 1, "ledger: bad AMOUNT \"-5\""),
            (["budget", "set", "Nope", "5"], 1, "ledger: no category named \"Nope\""),
            (
                ["budget", "delete", "Transport"], 1,
                "ledger: category \"Transport\" has no budget; see `ledger budget list`"
            ),
            (["categorize", "--where", "amount >"], 1, "ledger: "),
            (
                [
                    "import", csv, "--date-column", "Date", "--amount-column", "Amount",
                    "--category-column", "Category",
                ], 1,
                "the category column names a category the ledger lacks: \"Fun\""
            ),
            (
                ["report", "--chart", "missing/dir/c.svg"], 1,
                "ledger: cannot write the chart to missing/dir/c.svg"
            ),
            (["report", "--chart", "c.png"], 1, "ledger: bad --chart \"c.png\""),
        ]
        for (arguments, code, message) in cases {
            let result = await sandbox.run(arguments)
            #expect(result.code == code, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout == "", "\(arguments)")
            #expect(try Data(contentsOf: url) == before, "\(arguments) changed the ledger file")
        }
        #expect(!sandbox.exists("c.png"))
    }

    @Test func userTextIsShownWithItsControlCharactersVisible() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.remove() }
        let added = await sandbox.run(["rule", "add", "\u{1B}[2J", "Transport"])
        #expect(added.code == 0)
        #expect(added.stdout == "added rule 1: payee or note contains \"\\u{1B}[2J\" → Transport\n")
        #expect(!(await sandbox.run(["rule", "list"])).stdout.contains("\u{1B}"))
        let bad = await sandbox.run(["rule", "add", "(\u{1B}", "Transport", "--regex"])
        #expect(bad.code == 1)
        #expect(!bad.stderr.contains("\u{1B}"))
    }

    @Test func budgetsShowInTheMonthReportWithColourOnlyOnATerminalWithoutNoColor() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.remove() }
        let set = await sandbox.run(["budget", "set", "groceries", "30"])
        #expect(set.stdout == "budget of Groceries: 30.00 a month\n")
        let list = await sandbox.run(["budget", "list"])
        #expect(list.stdout == "category   monthly\nGroceries    30.00\n")
        let plain = await sandbox.run(["report", "--by", "month"])
        #expect(
            plain.stdout.hasSuffix(
                "budgets  category       budget       spent        left\n"
                    + "2026-10  Groceries       30.00       32.50       -2.50  OVER\n"))
        var terminal = sandbox.environment
        terminal.stdoutIsTerminal = true
        let coloured = await sandbox.run(["report", "--by", "month"], environment: terminal)
        #expect(coloured.stdout.contains("\u{1B}[31m2026-10  Groceries"))
        for (name, value) in [("NO_COLOR", "1"), ("TERM", "dumb")] {
            var environment = terminal
            environment.variables[name] = value
            let result = await sandbox.run(["report", "--by", "month"], environment: environment)
            #expect(!result.stdout.contains("\u{1B}"), "\(name)")
            #expect(result.stdout.contains("OVER"), "\(name)")
        }
        let json = try #require(
            try await sandbox.json(["report", "--by", "month"]) as? [String: Any])
        let groups = try #require(json["groups"] as? [[String: Any]])
        let budget = try #require(groups.first?["budget"] as? [String: [String: Any]])
        #expect(budget["Groceries"]?["left"] as? String == "-2.50")
        #expect(budget["Groceries"]?["over"] as? Bool == true)
        let deleted = await sandbox.run(["budget", "delete", "Groceries"])
        #expect(deleted.stdout == "deleted the budget of Groceries\n")
        #expect(!(await sandbox.run(["report", "--by", "month"])).stdout.contains("budgets"))
    }

    @Test func reportChartWritesSVGAndHTMLFiles() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.remove() }
        let svg = await sandbox.run(["report", "--chart", "out.svg"])
        #expect(svg.code == 0)
        #expect(svg.stdout.hasSuffix("chart written to out.svg\n"))
        let text = try String(contentsOfFile: sandbox.path("out.svg"), encoding: .utf8)
        let parser = XMLParser(data: Data(text.utf8))
        #expect(parser.parse())
        #expect(text.contains("data-category=\"Groceries\" data-amount=\"32.50\""))
        let json = try #require(
            try await sandbox.json(["report", "--by", "month", "--chart", "out.html"])
                as? [String: Any])
        #expect(json["chart"] as? String == "out.html")
        let html = try String(contentsOfFile: sandbox.path("out.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }
}

/// Mint's export (../shared/fixtures/csv) imported with its own category column, in place.
@Suite(.enabled(if: SharedExports.available, "../shared/fixtures/csv is absent"))
struct MintCategoryColumnTests {
    static let flags = [
        "--date-column", "Date", "--date-format", "%m/%d/%y", "--amount-column", "Amount",
        "--type-column", "Transaction Type", "--debit-value", "debit",
        "--description-column", "Description", "--category-column", "Category",
    ]

    @Test func missingCategoriesAreNamedAndCreatedOnRequest() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let file = SharedExports.directory.appendingPathComponent("reubano__csv2ofx__mint.csv").path
        let refused = await sandbox.run(["import", file] + Self.flags)
        #expect(refused.code == 1)
        #expect(
            refused.stderr.contains(
                "line 2: the category column names categories the ledger lacks: \"Checking\", "
                    + "\"Savings\"; add them with `ledger category add`, or pass --create-categories"
            ),
            "\(refused.stderr)")
        // The import would have created the ledger file: it is gone again.
        #expect(!sandbox.exists("ledger.jsonl"))
        _ = await sandbox.run(["category", "add", "savings"])
        let imported = try #require(
            try await sandbox.json(["import", file, "--create-categories"] + Self.flags)
                as? [String: Any])
        #expect(imported["imported"] as? Int == 4)
        #expect(imported["createdCategories"] as? [String] == ["Checking"])
        let report = try #require(try await sandbox.json(["report"]) as? [String: Any])
        let groups = try #require(report["groups"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: groups.map { ($0["name"] as! String, $0) })
        #expect(byName["savings"]?["transactions"] as? Int == 3)
        #expect(byName["savings"]?["out"] as? String == "4000.00")
        #expect(byName["savings"]?["in"] as? String == "2000.00")
        #expect(byName["Checking"]?["out"] as? String == "1000.00")
    }
}
