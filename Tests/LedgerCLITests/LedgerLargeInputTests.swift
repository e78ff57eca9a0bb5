import CLISupport
import Foundation
import LedgerKit
import Testing

/// Inputs far larger than a person types: shown capped, fast, never echoed whole.
@Suite(.timeLimit(.minutes(1)))
struct LedgerLargeInputTests {
    /// A 100,000-character payee made `ledger list` run past 60 s (the table padded every row
    /// to its width and trimmed with a regular expression).
    @Test func listingAHugePayeeShowsItCapped() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let payee = String(repeating: "P", count: 100_000)
        let csv = try sandbox.write(
            "big.csv", "date,amount,payee\n2024-01-02,-12.50,\(payee)\n2024-01-03,-3.00,Short\n")
        let imported = await sandbox.run([
            "import", csv, "--date-column", "date", "--amount-column", "amount",
            "--description-column", "payee",
        ])
        #expect(imported.code == 0, "\(imported.stderr)")
        let list = await sandbox.run(["list"])
        #expect(list.code == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.count < 200 }, "\(lines.map(\.count))")
        #expect(
            list.stdout.contains(
                String(repeating: "P", count: CLIOutput.maximumCellWidth - 1) + "…"))
        // The JSON output keeps the value whole.
        let json = try await sandbox.json(["list"]) as? [[String: Any]]
        #expect(json?.contains { ($0["payee"] as? String) == payee } == true)
    }

    /// Arguments, predicates and column names of 100 KB–1 MB were echoed whole in errors.
    @Test func errorsEchoAtMostAFewHundredCharactersOfAnyInput() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        _ = await sandbox.run(["init"])
        let huge = String(repeating: "x", count: 300_000)
        let predicate = "amount > 5 AND " + String(repeating: "y", count: 200_000) + " =="
        let columns = (0..<50_000).map { "column\($0)" }.joined(separator: ",")
        let csv = try sandbox.write("wide.csv", columns + "\n" + columns + "\n")
        let runs: [[String]] = [
            ["add", huge], ["add", "5", "--category", huge], ["add", "5", "--date", huge],
            ["list", "--where", predicate], ["list", "--where", huge + " == 1"],
            ["list", "--sort", huge], ["list", "--limit", huge], ["list", "--" + huge],
            ["list", "--category", huge], ["report", "--by", huge], ["edit", huge],
            ["delete", huge], ["category", "add", huge], ["category", "rename", huge, "y"],
            ["import", csv, "--date-column", "date", "--amount-column", "amount"],
            ["import", csv, "--date-column", huge, "--amount-column", "amount"],
            ["import", csv, "--date-column", "1", "--amount-column", "2", "--date-format", huge],
            [huge],
        ]
        for arguments in runs {
            let result = await sandbox.run(arguments)
            let shown = arguments.map { String($0.prefix(30)) }
            #expect(result.code != 0, "\(shown)")
            let longest = result.stderr.split(separator: "\n").map(\.count).max() ?? 0
            #expect(longest <= 800, "\(shown): a line of \(longest) characters")
            #expect(result.stderr.count < 4_000, "\(shown): \(result.stderr.count) characters")
        }
    }
}
