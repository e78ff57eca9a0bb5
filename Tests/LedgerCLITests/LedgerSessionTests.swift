import Foundation
import Testing

/// Whole sessions on a ledger file: every command end to end, and failures that write nothing.
@Suite struct LedgerSessionTests {
    @Test func aSessionOnAFile() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        #expect(await sandbox.run(["init"]).stdout == "created ledger.jsonl\n")
        #expect(sandbox.exists("ledger.jsonl"))
        let again = await sandbox.run(["init"])
        #expect(again.code == 1)
        #expect(
            again.stderr
                == "ledger: ledger.jsonl already exists; use it, or pass --file PATH for a new ledger\n"
        )

        #expect(
            await sandbox.run(["category", "add", "Groceries", "--color", "#4CAF50"]).stdout
                == "added category Groceries (#4CAF50)\n")
        #expect(await sandbox.run(["category", "add", "Rent"]).code == 0)
        let added = await sandbox.run([
            "add", "64.35", "--category", "groceries", "--date", "2026-11-02",
            "--payee", "Market Hall", "--note", "weekly shop",
        ])
        #expect(added.code == 0)
        #expect(
            added.stdout.hasSuffix("  2026-11-02  -64.35  Groceries  Market Hall  weekly shop\n"))
        #expect(
            await sandbox.run(["add", "950", "--category", "Rent", "--date", "2026-11-01"]).code
                == 0)
        #expect(
            await sandbox.run([
                "add", "2400", "--income", "--date", "2026-11-15", "--payee", "Employer",
            ]).code == 0)

        let list = try #require(try await sandbox.json(["list"]) as? [[String: Any]])
        #expect(list.map { $0["amount"] as? String } == ["950.00", "64.35", "2400.00"])
        #expect(list.map { $0["kind"] as? String } == ["expense", "expense", "income"])
        #expect(list.map { $0["category"] as? String } == ["Rent", "Groceries", nil])
        #expect(list[2]["category"] is NSNull)
        #expect(list[1]["note"] as? String == "weekly shop")
        #expect(list[0]["note"] is NSNull)
        #expect(list.allSatisfy { $0["isCleared"] as? Bool == false })
        #expect(
            Set(list[0].keys) == [
                "id", "amount", "kind", "date", "note", "payee", "category", "isCleared",
            ])
        let ids = list.compactMap { $0["id"] as? String }

        let text = await sandbox.run(["list", "--sort", "amount:desc", "--limit", "2"])
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("id"))
        #expect(lines[1].contains("+2400.00"))
        #expect(lines[2].contains("-950.00  Rent"))

        let edited = await sandbox.run([
            "edit", String(ids[1].prefix(8)), "--amount", "61.00", "--payee", "",
        ])
        #expect(edited.code == 0)
        #expect(edited.stdout.hasSuffix("  2026-11-02  -61.00  Groceries  weekly shop\n"))
        #expect(
            await sandbox.run(["clear", ids[0], ids[1]]).stdout.split(separator: "\n").allSatisfy {
                $0.hasPrefix("cleared ")
            })
        let cleared = try #require(
            try await sandbox.json(["list", "--where", "isCleared == YES"]) as? [[String: Any]])
        #expect(cleared.count == 2)

        let report = try #require(try await sandbox.json(["report"]) as? [String: Any])
        #expect(report["transactions"] as? Int == 3)
        #expect(report["out"] as? String == "1011.00")
        #expect(report["in"] as? String == "2400.00")
        #expect(report["net"] as? String == "1389.00")
        let groups = try #require(report["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Rent", "Groceries", "(none)"])
        let byMonth = await sandbox.run(["report", "--by", "month", "--from", "2026-11-02"])
        #expect(byMonth.stdout.hasPrefix("ledger.jsonl: by month, 2026-11-02 to …\n"))
        #expect(byMonth.stdout.contains("\n2026-11            61.00     2400.00  █"))

        let csv = await sandbox.run(["export"])
        #expect(csv.stdout.hasPrefix("id,date,amount,kind,category,payee,note,cleared,receipt\n"))
        #expect(csv.stdout.contains(",2026-11-02,61.00,expense,Groceries,,weekly shop,true,\n"))
        let exported = try #require(try await sandbox.json(["export"]) as? [String: Any])
        #expect((exported["categories"] as? [[String: Any]])?.count == 2)

        #expect(
            await sandbox.run(["category", "rename", "Groceries", "Food"]).stdout
                == "renamed category Groceries to Food\n")
        let denied = await sandbox.run(["category", "delete", "Food", "--rule", "deny"])
        #expect(denied.code == 1)
        #expect(
            denied.stderr
                == "ledger: category \"Food\" still has 1 transaction (rule deny); move or delete it "
                + "first, or use --rule nullify or cascade\n")
        #expect(
            await sandbox.run(["category", "delete", "Food"]).stdout
                == "deleted category Food; 1 transaction left uncategorised\n")
        #expect(
            await sandbox.run(["category", "delete", "Rent", "--rule", "cascade"]).stdout
                == "deleted category Rent and its 1 transaction\n")
        let deleted = await sandbox.run(["delete", ids[2]])
        #expect(deleted.stdout.hasPrefix("deleted 1 transaction\n"))
        let rest = try #require(try await sandbox.json(["list"]) as? [[String: Any]])
        #expect(rest.map { $0["amount"] as? String } == ["61.00"])
        #expect(try #require(try await sandbox.json(["category", "list"]) as? [Any]).isEmpty)
    }

    @Test func receiptsAreCopiedBesideTheLedgerAndRemovedWithTheirTransaction() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let scan = try sandbox.write("scan.pdf", "%PDF")
        let added = try #require(
            try await sandbox.json(["add", "9.99", "--receipt", "scan.pdf"]) as? [String: Any])
        let id = try #require(added["id"] as? String)
        let copy = "ledger.receipts/\(id).pdf"
        #expect(sandbox.exists(copy))
        #expect(FileManager.default.fileExists(atPath: scan))
        let exported = await sandbox.run(["export"])
        #expect(exported.stdout.hasSuffix(",false,\(copy)\n"))
        let failed = await sandbox.run(["add", "1", "--receipt", "missing.pdf"])
        #expect(failed.code == 1)
        #expect(failed.stderr == "ledger: receipt missing.pdf: does not exist\n")
        #expect(await sandbox.run(["delete", id]).code == 0)
        #expect(!sandbox.exists(copy))
    }

    @Test func failedCommandsWriteNothing() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        // What can be checked without the ledger fails before anything is created.
        let missingReceipt = await sandbox.run(["add", "5", "--receipt", "missing.pdf"])
        #expect(missingReceipt.code == 1 && missingReceipt.stderr.contains("missing.pdf"))
        #expect(!sandbox.exists("ledger.jsonl") && !sandbox.exists("ledger.jsonl.lock"))
        _ = try sandbox.write("scan.pdf", "%PDF")
        let failedAdd = await sandbox.run(
            ["add", "5", "--category", "Food", "--receipt", "scan.pdf"])
        #expect(failedAdd.code == 1)
        #expect(!sandbox.exists("ledger.jsonl"))
        #expect(!sandbox.exists("ledger.receipts"))
        // The lock file stays: removing it could let two writers in (issue 14).
        #expect(sandbox.exists("ledger.jsonl.lock"))
        #expect(await sandbox.run(["category", "add", "Food"]).code == 0)
        #expect(await sandbox.run(["add", "5", "--category", "Food"]).code == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("ledger.jsonl")))
        for arguments in [
            ["add", "0"], ["add", "5", "--category", "Nope"], ["category", "add", "food"],
            ["category", "add", String(repeating: "x", count: 51)],
            ["category", "delete", "Food", "--rule", "deny"],
            ["edit", "f", "--amount", "0.001"],
            [
                "delete", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
                "a", "b", "c", "d", "e", "f",
            ],
        ] {
            let result = await sandbox.run(arguments)
            #expect(result.code == 1, "\(arguments)")
            #expect(
                result.stderr.hasPrefix("ledger: ")
                    && result.stderr.split(separator: "\n").count == 1)
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("ledger.jsonl")))
        #expect(before == after)
    }

    @Test func anAmbiguousIDPrefixNamesTheCandidates() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        for i in 1...20 { #expect(await sandbox.run(["add", "\(i)"]).code == 0) }
        let list = try #require(try await sandbox.json(["list"]) as? [[String: Any]])
        let ids = list.compactMap { $0["id"] as? String }
        let shared = try #require(
            Dictionary(grouping: ids, by: { $0.prefix(1) }).first { $0.value.count > 1 })
        let result = await sandbox.run(["edit", String(shared.key), "--note", "x"])
        #expect(result.code == 1)
        #expect(
            result.stderr.hasPrefix(
                "ledger: ID prefix \"\(shared.key)\" is ambiguous: it matches \(shared.value.count) transactions ("
            ))
        for id in shared.value { #expect(result.stderr.contains(String(id.prefix(8)))) }
        #expect(result.stderr.hasSuffix("); give more characters\n"))
    }
}
