import Foundation
import Testing

/// The six real bank exports of ../shared/fixtures/csv, each imported with the mapping its
/// EXPECTED.md gives into a fresh ledger file, checked through `ledger report --json`.
@Suite(.enabled(if: SharedExports.available, "../shared/fixtures/csv is absent"))
struct SharedBankExportCLITests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let flags: [String]
        let rows: Int
        let out: String
        let income: String
        let first: String
        let last: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "cantino__reckon__austrian_example.csv",
            flags: [
                "--no-header", "--date-column", "3", "--date-format", "%d.%m.%Y", "--amount-column",
                "5",
                "--decimal-comma", "--description-column", "2",
            ],
            rows: 13, out: "353.47", income: "203.90", first: "2014-01-02", last: "2014-01-22"),
        Case(
            file: "cantino__reckon__bom_utf8_file.csv",
            flags: [
                "--date-column", "Date", "--date-format", "%m/%d/%Y", "--amount-column", "Net",
                "--description-column", "Name", "--description-column", "Item Title",
            ],
            rows: 1, out: "7.49", income: "0.00", first: "2019-12-27", last: "2019-12-27"),
        Case(
            file: "cantino__reckon__some_other.csv",
            flags: [
                "--no-header", "--date-column", "2", "--date-format", "%Y/%m/%d", "--amount-column",
                "4",
                "--description-column", "3", "--description-column", "1",
            ],
            rows: 9, out: "229.18", income: "7183.75", first: "2003-12-24", last: "2011-12-24"),
        Case(
            file: "cantino__reckon__tab_delimited_file.csv",
            flags: [
                "--no-header", "--delimiter", "tab", "--date-column", "3", "--date-format",
                "%Y%m%d",
                "--amount-column", "7", "--decimal-comma", "--description-column", "8",
            ],
            rows: 2, out: "15.00", income: "0.00", first: "2016-01-02", last: "2016-01-02"),
        Case(
            file: "reubano__csv2ofx__mint.csv",
            flags: [
                "--date-column", "Date", "--date-format", "%m/%d/%y", "--amount-column", "Amount",
                "--type-column", "Transaction Type", "--debit-value", "debit",
                "--description-column", "Description", "--description-column", "Notes",
            ],
            rows: 4, out: "5000.00", income: "2000.00", first: "2015-06-12", last: "2015-06-14"),
        Case(
            file: "reubano__csv2ofx__ubs-ch-fr_trimmed.csv",
            flags: [
                "--date-column", "Date de valeur", "--date-format", "%d.%m.%Y", "--debit-column",
                "Débit",
                "--credit-column", "Crédit", "--description-column", "Description 1",
                "--description-column", "Description 2", "--description-column", "Description 3",
            ],
            rows: 3, out: "210.00", income: "240.00", first: "2019-02-28", last: "2019-04-27"),
    ]

    @Test(arguments: cases)
    func importsToTheExpectedFiguresAndAReimportAddsNothing(_ c: Case) async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let csv = SharedExports.directory.appendingPathComponent(c.file).path
        let imported = await sandbox.run(["import", csv] + c.flags + ["--file", "bank.jsonl"])
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(imported.stderr == "")
        #expect(imported.stdout.hasPrefix("imported \(c.rows) transaction"))
        let report = try #require(
            try await sandbox.json(["report", "--file", "bank.jsonl"]) as? [String: Any])
        #expect(report["transactions"] as? Int == c.rows)
        #expect(report["out"] as? String == c.out)
        #expect(report["in"] as? String == c.income)
        let list = try #require(
            try await sandbox.json(["list", "--file", "bank.jsonl"]) as? [[String: Any]])
        #expect(list.first?["date"] as? String == c.first)
        #expect(list.last?["date"] as? String == c.last)

        let again = await sandbox.run(["import", csv] + c.flags + ["--file", "bank.jsonl"])
        #expect(again.code == 0)
        #expect(again.stdout.hasPrefix("imported 0 transactions"))
        #expect(
            again.stdout.contains("\(c.rows) row\(c.rows == 1 ? "" : "s") already in the ledger"))
        let after = try #require(
            try await sandbox.json(["report", "--file", "bank.jsonl"]) as? [String: Any])
        #expect(after["transactions"] as? Int == c.rows)
        #expect(after["out"] as? String == c.out)
    }
}

/// Where the shared bank exports are: `../shared/fixtures/csv` beside the package root.
enum SharedExports {
    static let directory = packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/fixtures/csv")

    /// Whether they are present; prints why the tests skip when not.
    static let available: Bool = {
        let present = FileManager.default.fileExists(
            atPath: directory.appendingPathComponent("EXPECTED.md").path)
        if !present { print("Skipping shared bank-export CLI tests: \(directory.path) is absent") }
        return present
    }()
}
