import Foundation
import Testing

/// `ledger adjust` and `ledger purge` through the built executable, including a purge killed
/// between the batch delete's commit and the receipts' removal (the pause point
/// `purge.committed`): the transactions are gone, their receipts stay as orphans that
/// `verify` lists and `verify --fix` removes, and no receipt of a surviving transaction is
/// ever touched.
@Suite(.enabled(if: LedgerProcessTests.binary != nil, "the ledger binary is not built"))
struct LedgerBatchProcessTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-purge-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func run(_ arguments: [String], pauseAt steps: [String] = []) throws -> PausableProcess
    {
        try PausableProcess(
            LedgerProcessTests.binary!, arguments + ["--file", "l.jsonl"], in: directory,
            pauseAt: steps)
    }

    private func receipts() throws -> [String] {
        try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("l.receipts").path
        ).sorted()
    }

    @Test func aPurgeKilledAfterItsCommitLeavesOrphanReceiptsThatVerifyFixRemoves() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let scan = directory.appendingPathComponent("scan.pdf")
        try Data("%PDF".utf8).write(to: scan)
        for command in [
            ["init"], ["add", "12", "--date", "2025-01-02", "--receipt", scan.path],
            ["add", "13", "--date", "2025-01-03", "--receipt", scan.path],
            ["add", "14", "--date", "2026-01-04", "--receipt", scan.path],
        ] {
            let result = try run(command).finish()
            #expect(result.code == 0, "\(command): \(result.err)")
        }
        let all = try receipts()
        #expect(all.count == 3)
        let purge = try run(["purge", "--before", "2026-01-01"], pauseAt: ["purge.committed"])
        #expect(purge.waitUntilPaused(at: "purge.committed"))
        // Committed: the transactions are gone from the file while every receipt is still there.
        #expect(try receipts() == all)
        purge.kill9()
        let list = try run(["list", "--json"]).finish()
        let survivors =
            try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]]
        #expect(survivors?.count == 1 && survivors?.first?["amount"] as? String == "14.00")
        let survivor = try #require(survivors?.first?["id"] as? String)
        let verify = try run(["verify"]).finish()
        #expect(verify.code == 0, "\(verify.out) \(verify.err)")
        #expect(verify.out.components(separatedBy: "belongs to no transaction").count == 3)
        let fix = try run(["verify", "--fix", "--json"]).finish()
        #expect(fix.code == 0, "\(fix.err)")
        let fixed = try JSONSerialization.jsonObject(with: Data(fix.out.utf8)) as? [String: Any]
        #expect((fixed?["removed"] as? [String])?.count == 2)
        #expect((fixed?["notices"] as? [String]) == [])
        #expect(try receipts() == [survivor + ".pdf"])
    }

    @Test func adjustRunsThroughTheExecutableAndARefusedOneLeavesTheFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in [["init"], ["add", "10.00"], ["add", "0.02"]] {
            let result = try run(command).finish()
            #expect(result.code == 0, "\(command): \(result.err)")
        }
        let path = directory.appendingPathComponent("l.jsonl")
        let before = try Data(contentsOf: path)
        let refused = try run(["adjust", "--multiply", "0.2"]).finish()
        #expect(refused.code == 1 && refused.out.isEmpty)
        #expect(refused.err.contains("0.02 → 0.00 (below the minimum 0.01)"), "\(refused.err)")
        #expect(try Data(contentsOf: path) == before)
        let usage = try run(["adjust"]).finish()
        #expect(usage.code == 64)
        let done = try run(["adjust", "--multiply", "1.25", "--json"]).finish()
        #expect(done.code == 0, "\(done.err)")
        let json = try JSONSerialization.jsonObject(with: Data(done.out.utf8)) as? [String: Any]
        #expect(
            json?["totalBefore"] as? String == "10.02" && json?["totalAfter"] as? String == "12.53")
        #expect(done.err.isEmpty)  // no progress bar: stderr is a pipe
    }
}
