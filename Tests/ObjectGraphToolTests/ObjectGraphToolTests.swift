import Foundation
import ObjectGraph
import Testing

/// End to end: run the built `objectgraph` binary on real files and check stdout, stderr and
/// the exit status.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
struct ObjectGraphToolTests {
    let directory: URL
    let file: URL
    let model: ManagedObjectModel

    init() throws {
        directory = ToolBinary.scratchRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("ledger.jsonl")
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Category",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "expenses", destination: "Expense", inverse: "category",
                        isToMany: true),
                ]),
            EntityDescription(
                name: "Expense",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "amount", type: .decimal),
                    RelationshipDescription(
                        name: "category", destination: "Category", inverse: "expenses"),
                ]),
        ])
    }

    /// A store with 1 category and 3 expenses over 3 transactions (one update).
    private func makeStore() throws {
        var options = StoreOptions()
        options.storeIdentifier = "STORE-1"
        options.clock = { Date(timeIntervalSince1970: 1_700_000_000) }
        let store = try JSONLinesStore(model: model, url: file, options: options)
        let category = model[entityName: "Category"]!
        let expense = model[entityName: "Expense"]!
        let food = ManagedObjectID(entity: category, storeIdentifier: "STORE-1", primaryKey: 1)
        func row(_ pk: Int64, _ title: String, _ amount: Decimal, version: Int64 = 1) -> StoreRow {
            StoreRow(
                objectID: ManagedObjectID(
                    entity: expense, storeIdentifier: "STORE-1", primaryKey: pk), version: version,
                values: [.attribute(.string(title)), .attribute(.decimal(amount)), .toOne(food)])
        }
        try store.commit(
            StoreChangeSet(
                inserted: [
                    StoreRow(
                        objectID: food, version: 1,
                        values: [.attribute(.string("Food")), .notStored])
                ],
                timestamp: Date(timeIntervalSince1970: 1_700_000_001)))
        try store.commit(
            StoreChangeSet(
                inserted: [
                    row(1, "lunch\nwith team", 12.5), row(2, "coffee", 3), row(3, "bread", 2.25),
                ],
                timestamp: Date(timeIntervalSince1970: 1_700_000_002)))
        try store.commit(
            StoreChangeSet(
                updated: [row(2, "coffee", 3.5, version: 2)],
                timestamp: Date(timeIntervalSince1970: 1_700_000_003)))
        store.close()
    }

    private func run(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try ToolBinary.run(ToolBinary.objectgraph!, arguments)
    }

    @Test func infoShowsHeaderModelAndCounts() throws {
        try makeStore()
        let (status, out, err) = try run("info", file.path)
        #expect(status == 0 && err.isEmpty)
        #expect(
            out.contains(
                "Store         STORE-1\nCreated       2023-11-14T22:13:20Z\nCompacted     never\n"))
        #expect(out.contains("Transactions  3 in the file (last number 3)"))
        #expect(
            out.contains(
                "Entity    Rows  Attributes  Relationships  Inherits from\nCategory     1           1              1\nExpense      3           2              1"
            ))
        let json = try run("info", file.path, "--json")
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect(object?["store"] as? String == "STORE-1")
        #expect((object?["rows"] as? [String: Int]) == ["Category": 1, "Expense": 3])
    }

    @Test func verifyPassesAHealthyFileAndFailsADamagedOneListingItsLines() throws {
        try makeStore()
        let healthy = try run("verify", file.path)
        #expect(healthy.status == 0 && healthy.out.hasPrefix("\(file.path): OK\nTransactions  3"))
        var bytes = Array(try Data(contentsOf: file))
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        bytes[lfs[1] - 4] ^= 1
        bytes[lfs[3] - 4] ^= 1
        try Data(bytes).write(to: file)
        let damaged = try run("verify", file.path)
        #expect(damaged.status == 1)
        #expect(
            damaged.out.hasPrefix("line 2: checksum mismatch")
                && damaged.out.contains("\nline 4: checksum mismatch"))
        #expect(damaged.err == "objectgraph: 2 problems in \(file.path)\n")
        let json = try run("verify", file.path, "--json")
        #expect(json.status == 1 && json.out.contains("\"healthy\": false"))
    }

    @Test func dumpPrintsTablesOrJSONLines() throws {
        try makeStore()
        let text = try run("dump", file.path)
        #expect(text.status == 0)
        #expect(
            text.out.contains(
                """
                Expense (3 rows)
                pk  version  title               amount  category
                 1        1  "lunch\\nwith team"  "12.5"  Category p1
                 2        2  "coffee"            "3.5"   Category p1
                """))
        let json = try run("dump", file.path, "--entity", "Expense", "--json")
        let lines = json.out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(
            lines[1]
                == #"{"entity":"Expense","pk":2,"version":2,"values":{"title":"coffee","amount":"3.5","category":{"entity":"Category","pk":1}}}"#
        )
        let unknown = try run("dump", file.path, "--entity", "Nope")
        #expect(unknown.status == 1 && unknown.err.contains("no entity 'Nope'"))
    }

    @Test func compactShrinksTheFileAndKeepsTheRows() throws {
        try makeStore()
        let before = try run("dump", file.path, "--json").out
        let (status, out, _) = try run("compact", file.path)
        #expect(status == 0 && out.contains("3 transaction lines folded into a snapshot of 4 rows"))
        #expect(try run("dump", file.path, "--json").out == before)
        #expect(
            try run("info", file.path).out.contains("Transactions  0 in the file (last number 3)"))
    }

    /// The size line's three figures, as `info` prints them: the file, compacted, reclaimed.
    private func sizeFigures() throws -> (file: Int, compacted: Int, reclaim: Int)? {
        let out = try run("info", file.path).out
        guard
            let line = out.split(separator: "\n").first(where: { $0.hasPrefix("Size  ") }),
            let match = line.wholeMatch(
                of: /Size +([0-9,]+) bytes; compacted: ([0-9,]+) \(([0-9,]+) to reclaim\)/)
        else { return nil }
        func number(_ text: Substring) -> Int { Int(text.filter { $0 != "," })! }
        return (number(match.1), number(match.2), number(match.3))
    }

    // A regression test: `info` printed "418,679 bytes: 493,245 live, 0 dead" for a file
    // written by one save, a "live" figure larger than the file that read as an error.
    @Test func infoPrintsTheSizeCompactedAndWhatCompactingReclaims() throws {
        try makeStore()
        let size = try #require(try sizeFigures())
        #expect(
            size.file
                == (try FileManager.default.attributesOfItem(atPath: file.path)[.size]
                    as? Int))
        #expect(size.reclaim > 0 && size.reclaim == size.file - size.compacted)
        _ = try run("compact", file.path)
        let compacted = try #require(try sizeFigures())
        // The snapshot's own estimate leaves out the header's new compaction date.
        #expect(compacted.file < size.file && compacted.reclaim == 0)
    }

    @Test func compactingAFileOfOneLargeSaveSaysWhyItGrew() throws {
        var options = StoreOptions()
        options.storeIdentifier = "STORE-1"
        let store = try JSONLinesStore(model: model, url: file, options: options)
        let expense = model[entityName: "Expense"]!
        try store.commit(
            StoreChangeSet(
                inserted: (1...40).map { pk in
                    StoreRow(
                        objectID: ManagedObjectID(
                            entity: expense, storeIdentifier: "STORE-1", primaryKey: Int64(pk)),
                        version: 1,
                        values: [
                            .attribute(.string("item \(pk)")), .attribute(.decimal(1)), .toOne(nil),
                        ])
                }, timestamp: Date(timeIntervalSince1970: 1_700_000_001)))
        store.close()
        let size = try #require(try sizeFigures())
        #expect(size.compacted > size.file && size.reclaim == 0)
        let (status, out, _) = try run("compact", file.path)
        #expect(status == 0)
        #expect(
            out.hasSuffix(
                "folded into a snapshot of 40 rows (larger: a snapshot writes each row on a line of "
                    + "its own with its own checksum, where a transaction line holds many rows)\n"))
        #expect(try sizeFigures()?.file ?? 0 > size.file)
    }

    @Test func repairMovesTheDamagedTailAside() throws {
        try makeStore()
        var bytes = Array(try Data(contentsOf: file))
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        bytes[lfs[2] - 4] ^= 1  // line 3
        try Data(bytes).write(to: file)
        let (status, out, _) = try run("repair", file.path)
        #expect(status == 0 && out.hasPrefix("\(file.path): line 3 was damaged: "))
        #expect(
            out.contains("kept lines 1–2") && out.contains("moved") && out.contains(".corrupt-"))
        #expect(try run("verify", file.path).status == 0)
        #expect(try run("repair", file.path).out == "\(file.path): nothing to repair\n")
    }

    @Test func tornLinesAreNoticedOnStandardError() throws {
        try makeStore()
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"t\":4,\"at\":".utf8))
        try handle.close()
        let info = try run("info", file.path)
        #expect(
            info.status == 0
                && info.err.hasPrefix("notice: store \(file.path): line 5: incomplete last line"))
    }

    @Test func usageErrorsExitWith64AndFailuresWith1() throws {
        let noArgs = try run()
        #expect(noArgs.status == 64 && noArgs.err.contains("usage: objectgraph [options] COMMAND"))
        let unknown = try run("frobnicate")
        #expect(unknown.status == 64)
        let missing = try run("info")
        #expect(
            missing.status == 64
                && missing.err.hasPrefix("objectgraph info: expected 1 argument, got 0"))
        let badOption = try run("verify", "x", "--entity", "E")
        #expect(badOption.status == 64 && badOption.err.contains("unknown option --entity"))
        let absent = try run("info", directory.appendingPathComponent("none.jsonl").path)
        #expect(
            absent.status == 1 && absent.err.hasPrefix("objectgraph: error 134080: store ")
                && absent.out.isEmpty)
        for command in ["info", "verify", "dump", "compact", "repair"] {
            let help = try run(command, "--help")
            #expect(
                help.status == 0
                    && help.out.hasPrefix("usage: objectgraph \(command) [options] FILE"))
        }
        #expect(
            try run("--help").out.contains(
                "  info     Show a store file's header, model and counts."))
    }

    @Test func aFileOpenForWritingCannotBeCompacted() throws {
        try makeStore()
        let writer = try JSONLinesStore(model: model, url: file)
        let (status, _, err) = try run("compact", file.path)
        #expect(
            status == 1 && err.contains("error 134090")
                && err.contains("locked by another writer, process \(getpid())"))
        writer.close()
    }
}
