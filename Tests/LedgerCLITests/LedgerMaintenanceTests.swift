import Foundation
import Testing

/// `ledger compact` and `ledger verify` on real files.
@Suite struct LedgerMaintenanceTests {
    @Test func compactShrinksTheFileAndKeepsEveryRow() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        #expect(await sandbox.run(["category", "add", "Food"]).code == 0)
        for i in 1...5 {
            #expect(await sandbox.run(["add", "\(i)", "--category", "Food"]).code == 0)
        }
        let ids = try #require(try await sandbox.json(["list"]) as? [[String: Any]]).compactMap {
            $0["id"] as? String
        }
        for id in ids { #expect(await sandbox.run(["clear", id]).code == 0) }
        // A `clear` writes only the changed column (format version 5), and compaction keeps
        // every transaction's history line: what it reclaims is row values overwritten or
        // deleted, so a long note rewritten a few times gives it something to reclaim.
        for round in 1...4 {
            let note = String(repeating: "\(round)", count: 300)
            #expect(await sandbox.run(["edit", ids[1], "--note", note]).code == 0)
        }
        #expect(await sandbox.run(["delete", ids[0]]).code == 0)
        let before = try #require(try await sandbox.json(["list"]) as? [[String: Any]])
        let result = try #require(try await sandbox.json(["compact"]) as? [String: Any])
        let bytesBefore = try #require(result["bytesBefore"] as? Int)
        let bytesAfter = try #require(result["bytesAfter"] as? Int)
        #expect(bytesAfter < bytesBefore)
        let size =
            try FileManager.default.attributesOfItem(atPath: sandbox.path("ledger.jsonl"))[.size]
            as? Int
        #expect(size == bytesAfter)
        let after = try #require(try await sandbox.json(["list"]) as? [[String: Any]])
        #expect(NSArray(array: after).isEqual(to: before))
        let text = await sandbox.run(["compact"])
        #expect(text.stdout.hasPrefix("compacted ledger.jsonl: \(bytesAfter) → "))
        #expect(text.stdout.hasSuffix(" bytes\n"))
    }

    @Test func verifyPassesAHealthyLedgerAndListsDamage() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        #expect(await sandbox.run(["add", "5", "--payee", "Corner Shop"]).code == 0)
        #expect(await sandbox.run(["add", "7", "--payee", "Market Hall"]).code == 0)
        let healthy = await sandbox.run(["verify"])
        #expect(healthy.code == 0)
        #expect(
            healthy.stdout.hasPrefix("ledger.jsonl: ok, 2 transactions, 0 categories, 0 receipts; ")
        )
        let url = URL(fileURLWithPath: sandbox.path("ledger.jsonl"))
        var text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let damaged = try #require(lines.lastIndex { $0.contains("Market Hall") })
        text = text.replacingOccurrences(of: "Market Hall", with: "Market Hell")
        try Data(text.utf8).write(to: url)
        let result = await sandbox.run(["verify"])
        #expect(result.code == 1)
        #expect(result.stdout.hasPrefix("problem: line \(damaged + 1): "))
        #expect(result.stderr == "ledger: ledger.jsonl: 1 problem found\n")
        let list = await sandbox.run(["list"])
        #expect(list.code == 1)
        #expect(list.stderr.hasPrefix("ledger: ") && list.stderr.split(separator: "\n").count == 1)
    }

    @Test func verifyReportsMissingReceiptsAndStrayFiles() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        _ = try sandbox.write("scan.pdf", "%PDF")
        let added = try #require(
            try await sandbox.json(["add", "5", "--receipt", "scan.pdf"]) as? [String: Any])
        let id = try #require(added["id"] as? String)
        try FileManager.default.removeItem(atPath: sandbox.path("ledger.receipts/\(id).pdf"))
        _ = try sandbox.write("ledger.receipts/stray.txt", "?")
        let result = await sandbox.run(["verify"])
        #expect(result.code == 1)
        #expect(
            result.stdout == """
                problem: transaction \(id): receipt ledger.receipts/\(id).pdf is missing
                notice: receipt file ledger.receipts/stray.txt belongs to no transaction

                """)
    }

    @Test func theRAMStoreHasNothingToCompactOrVerify() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        for command in ["compact", "verify"] {
            let result = await sandbox.run([command, "--file", "/dev/null"])
            #expect(result.code == 1)
            #expect(
                result.stderr
                    == "ledger: \(command) needs a ledger file; /dev/null is a RAM store\n")
        }
        let missing = await sandbox.run(["verify"])
        #expect(
            missing.stderr
                == "ledger: no ledger at ledger.jsonl; create one with `ledger init` (or pass --file PATH)\n"
        )
    }
}
