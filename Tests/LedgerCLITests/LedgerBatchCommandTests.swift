import Foundation
import Testing

/// `ledger adjust` and `ledger purge` run in-process: output, JSON shapes, exit codes, and a
/// failed command leaving the file byte for byte.
@Suite struct LedgerBatchCommandTests {
    /// A sandbox with `l.jsonl`: Food 10.00 (2025-05-01, with a receipt), Food 0.05
    /// (2026-02-01), Rent 800 (2025-12-01).
    private func seeded() async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        let scan = try sandbox.write("scan.pdf", "%PDF")
        for command in [
            ["init"], ["category", "add", "Food"], ["category", "add", "Rent"],
            ["add", "10.00", "--category", "Food", "--date", "2025-05-01", "--receipt", scan],
            ["add", "0.05", "--category", "Food", "--date", "2026-02-01"],
            ["add", "800", "--category", "Rent", "--date", "2025-12-01"],
        ] {
            let result = await sandbox.run(command + ["--file", "l.jsonl"])
            #expect(result.code == 0, "\(command): \(result.stderr)")
        }
        return sandbox
    }

    private func file(_ sandbox: CLISandbox) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: sandbox.path("l.jsonl")))
    }

    @Test func adjustPrintsWhatChangedAndItsJSONShape() async throws {
        let sandbox = try await seeded()
        defer { sandbox.remove() }
        let text = await sandbox.run(
            ["adjust", "--multiply", "1.15", "--category", "Food", "--file", "l.jsonl"])
        #expect(text.code == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("adjusted 2 transactions (× 1.15): total 10.05 → 11.56\n"))
        #expect(text.stdout.contains("  10.00 → 11.50\n") && text.stdout.contains("0.05 → 0.06"))
        let json = try #require(
            try await sandbox.json([
                "adjust", "--add", "-1.00", "--where", "amount > 5", "--dry-run", "--file",
                "l.jsonl",
            ])
                as? [String: Any])
        #expect(json["dryRun"] as? Bool == true && json["count"] as? Int == 2)
        #expect(
            json["totalBefore"] as? String == "811.50" && json["totalAfter"] as? String == "809.50")
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(Set(changes.flatMap { $0.keys }) == ["id", "before", "after"])
    }

    @Test func aRefusedOrBadAdjustLeavesTheFileByteForByte() async throws {
        let sandbox = try await seeded()
        defer { sandbox.remove() }
        let before = try file(sandbox)
        let refused = await sandbox.run(["adjust", "--add", "-1", "--file", "l.jsonl"])
        #expect(refused.code == 1)
        #expect(
            refused.stderr.contains("0.05 → -0.95 (below the minimum 0.01)"), "\(refused.stderr)")
        let both = await sandbox.run([
            "adjust", "--add", "1", "--multiply", "2", "--file", "l.jsonl",
        ])
        #expect(both.code == 64 && both.stderr.contains("exactly one of --multiply"))
        let neither = await sandbox.run(["adjust", "--file", "l.jsonl"])
        #expect(neither.code == 64)
        let zero = await sandbox.run(["adjust", "--multiply", "0", "--file", "l.jsonl"])
        #expect(zero.code == 1 && zero.stderr.contains("bad --multiply \"0\""))
        let predicate = await sandbox.run(
            ["adjust", "--multiply", "2", "--where", "payee == '\u{1B}[31mx", "--file", "l.jsonl"])
        #expect(predicate.code == 1 && !predicate.stderr.contains("\u{1B}"), "\(predicate.stderr)")
        let category = await sandbox.run(
            ["adjust", "--multiply", "2", "--category", "Tr\u{7}avel", "--file", "l.jsonl"])
        #expect(category.code == 1 && !category.stderr.contains("\u{7}"), "\(category.stderr)")
        #expect(try file(sandbox) == before)
    }

    @Test func purgeDeletesOldTransactionsAndTheirReceipts() async throws {
        let sandbox = try await seeded()
        defer { sandbox.remove() }
        let dry = await sandbox.run([
            "purge", "--before", "2026-01-01", "--dry-run", "--file", "l.jsonl",
        ])
        #expect(
            dry.stdout
                == "would purge 2 transactions dated before 2026-01-01: out 810.00, in 0.00; 1 receipt to remove\n"
        )
        let receipts = try FileManager.default.contentsOfDirectory(
            atPath: sandbox.path("l.receipts"))
        #expect(receipts.count == 1)
        let json = try #require(
            try await sandbox.json(["purge", "--before", "2026-01-01", "--file", "l.jsonl"])
                as? [String: Any])
        #expect(json["count"] as? Int == 2 && json["receiptsRemoved"] as? Int == 1)
        #expect(json["before"] as? String == "2026-01-01" && json["out"] as? String == "810.00")
        #expect(json["dryRun"] as? Bool == false && (json["notices"] as? [String]) == [])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.path("l.receipts")).isEmpty)
        let verify = await sandbox.run(["verify", "--file", "l.jsonl"])
        #expect(verify.code == 0 && verify.stdout.contains("ok, 1 transaction"), "\(verify.stdout)")
    }

    @Test func aFailedPurgeLeavesTheFileByteForByte() async throws {
        let sandbox = try await seeded()
        defer { sandbox.remove() }
        let before = try file(sandbox)
        #expect(await sandbox.run(["purge", "--file", "l.jsonl"]).code == 64)
        #expect(
            await sandbox.run(["purge", "--before", "2026-13-01", "--file", "l.jsonl"]).code == 1)
        let bad = await sandbox.run([
            "purge", "--before", "2026-01-01", "--where", "amount >", "--file", "l.jsonl",
        ])
        #expect(bad.code == 1 && bad.stderr.hasPrefix("ledger: "), "\(bad.stderr)")
        #expect(try file(sandbox) == before)
        #expect(sandbox.exists("l.receipts"))
    }

    @Test func bothCommandsHaveHelp() async {
        let sandbox = try! CLISandbox()
        defer { sandbox.remove() }
        for command in ["adjust", "purge"] {
            let help = await sandbox.run([command, "--help"])
            #expect(help.code == 0 && help.stdout.contains("--dry-run"), "\(command)")
        }
        let verify = await sandbox.run(["verify", "--help"])
        #expect(verify.stdout.contains("--fix"))
    }
}
