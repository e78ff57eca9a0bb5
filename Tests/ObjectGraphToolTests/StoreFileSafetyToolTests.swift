import Foundation
import Testing

/// `objectgraph` where the file system says no (issue 14): a `seed` or `load` whose write fails
/// blames the write, leaves no header-only file, and can be retried; a FIFO or a device is
/// refused at once with the real reason.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
struct StoreFileSafetyToolTests {
    let directory: URL

    init() throws {
        directory = ToolBinary.scratchRoot.appendingPathComponent(
            "safety-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private var model: String {
        QueryAndSeedCommandTests.fixtures.appendingPathComponent("models/ExpenseTracker.json").path
    }

    /// Runs `objectgraph` with its file size limited to `blocks` (`ulimit -f`; SIGXFSZ ignored,
    /// so a write past the limit fails with EFBIG as a full disk fails with ENOSPC).
    private func runLimited(_ blocks: Int, _ arguments: [String]) throws -> (
        status: Int32, out: String, err: String
    ) {
        try ToolBinary.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" \"$@\"",
                ToolBinary.objectgraph!.path,
            ] + arguments)
    }

    /// Hidden entries of the directory (a staging directory left behind).
    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix(".")
        }
    }

    /// The size of a header-only store of the model.
    private func headerSize() throws -> Int {
        let empty = directory.appendingPathComponent("empty.jsonl").path
        #expect(
            try ToolBinary.run(ToolBinary.objectgraph!, ["seed", "--model", model, "--out", empty])
                .status == 0)
        return try FileManager.default.attributesOfItem(atPath: empty)[.size] as! Int
    }

    @Test func aSeedWhoseWriteFailsBlamesTheWriteLeavesNothingAndCanBeRetried() throws {
        let blocks = try headerSize() / 512 + 2  // the header fits; 2,000 transactions do not
        let out = directory.appendingPathComponent("seeded.jsonl").path
        let arguments = [
            "seed", "--model", model, "--count", "Category=5", "--count", "Transaction=2000",
            "--out", out,
        ]
        let failed = try runLimited(blocks, arguments)
        #expect(failed.status == 1)
        #expect(failed.err.contains("error 134030"), "\(failed.err)")
        #expect(failed.err.contains("File too large"), "\(failed.err)")
        #expect(
            failed.err.contains("store \(out): appending transaction 1 failed")
                && failed.err.hasSuffix("nothing was written to \(out)\n"), "\(failed.err)")
        #expect(!failed.err.contains("does not honour"), "the model is not blamed: \(failed.err)")
        #expect(!FileManager.default.fileExists(atPath: out), "no header-only file is left")
        #expect(try leftovers().isEmpty, "the staging directory is gone")
        let retried = try ToolBinary.run(ToolBinary.objectgraph!, arguments)
        #expect(retried.status == 0, "\(retried.err)")
        #expect(retried.out.contains("2,005 objects"))
    }

    @Test func aLoadWhoseWriteFailsLeavesNothingAndDoesNotBlameTheFixture() throws {
        let blocks = try headerSize() / 512 + 2
        let fixture = directory.appendingPathComponent("big.json")
        let categories = (0..<400).map { i in
            let id = String(format: "00000000-0000-4000-8000-%012d", i)
            return "{\"id\": \"\(id)\", \"name\": \"Category \(i) with a long name\", "
                + "\"colorHex\": \"#4CAF50\"}"
        }
        try Data("{\"Category\": [\(categories.joined(separator: ","))]}".utf8).write(to: fixture)
        let out = directory.appendingPathComponent("loaded.jsonl").path
        let arguments = ["load", "--model", model, "--fixtures", fixture.path, "--out", out]
        let failed = try runLimited(blocks, arguments)
        #expect(failed.status == 1)
        #expect(failed.err.contains("error 134030"), "\(failed.err)")
        #expect(!failed.err.contains("big.json"), "the fixture is not blamed: \(failed.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try leftovers().isEmpty, "the staging directory is gone")
        let retried = try ToolBinary.run(ToolBinary.objectgraph!, arguments)
        #expect(retried.status == 0, "\(retried.err)")
    }

    @Test(arguments: ["info", "verify", "dump", "compact", "repair"])
    func aFIFOIsRefusedAtOnceWithTheRealReason(command: String) throws {
        let fifo = directory.appendingPathComponent("pipe-\(command).jsonl").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let result = try ToolBinary.run(ToolBinary.objectgraph!, [command, fifo])
        #expect(result.status == 1)
        let said = result.out + result.err  // verify lists its problems on stdout
        #expect(said.contains("FIFO"), "\(said)")
        #expect(!said.contains("permission"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: fifo + ".lock"))
    }

    @Test func aFlippedByteInALargeImportCostsOneRunOfRowsAfterASalvage() throws {
        // Issue 14: one flipped byte in a 9,000-row import line made every ledger command fail,
        // and a repair kept 0 of the 9,002 rows.
        let ledger = try #require(ToolBinary.productsDirectory?.appendingPathComponent("ledger"))
        let file = directory.appendingPathComponent("ledger.jsonl").path
        var csv = "Date,Amount,Payee\n"
        for i in 0..<9_000 {
            csv += "2026-03-\(String(format: "%02d", 1 + i % 28)),-\(1 + i % 90).50,Payee \(i)\n"
        }
        let bank = directory.appendingPathComponent("bank.csv")
        try Data(csv.utf8).write(to: bank)
        let imported = try ToolBinary.run(
            ledger,
            [
                "import", bank.path, "--date-column", "Date", "--amount-column", "Amount",
                "--description-column", "Payee", "--file", file,
            ])
        #expect(imported.status == 0, "\(imported.err)")
        for note in ["first", "second"] {
            #expect(
                try ToolBinary.run(ledger, ["add", "5.00", "--note", note, "--file", file]).status
                    == 0)
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        let lengths = (1..<lfs.count).map { lfs[$0] - lfs[$0 - 1] }
        let longest = 1 + lengths.indices.max { lengths[$0] < lengths[$1] }!
        bytes[(lfs[longest - 1] + lfs[longest]) / 2] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let failing = try ToolBinary.run(ledger, ["list", "--file", file])
        #expect(failing.status == 1 && failing.err.contains("repair --salvage"), "\(failing.err)")
        let salvage = try ToolBinary.run(ToolBinary.objectgraph!, ["repair", "--salvage", file])
        #expect(salvage.status == 0, "\(salvage.err)")
        #expect(salvage.out.contains("row runs are intact and kept"), "\(salvage.out)")
        // The notes were headed "N things not kept:", above a note saying what was kept.
        #expect(
            salvage.out.hasPrefix("\(file): salvaged: damaged line ")
                && salvage.out.contains("; what it found (1 note):\n"),
            "\(salvage.out)")
        #expect(!salvage.out.contains("not kept"), "\(salvage.out)")
        #expect(try ToolBinary.run(ToolBinary.objectgraph!, ["verify", file]).status == 0)
        let list = try ToolBinary.run(ledger, ["list", "--json", "--file", file])
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
        let notes = Set(records.compactMap { $0["note"] as? String })
        #expect(notes.isSuperset(of: ["first", "second"]), "the later saves are kept")
        #expect(records.count > 9_002 - 200, "\(records.count) of 9,002 transactions kept")
    }
}
