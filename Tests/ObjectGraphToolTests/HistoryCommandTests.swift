import Foundation
import ObjectGraph
import Testing

/// `objectgraph history FILE [--after N] [--entity E] [--json]`, run as a program.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
struct HistoryCommandTests {
    let file: URL
    let model: ManagedObjectModel

    init() throws {
        let directory = ToolBinary.scratchRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("history.jsonl")
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Expense",
                properties: [
                    AttributeDescription(
                        name: "title", type: .string, preservesValueInHistoryOnDeletion: true),
                    AttributeDescription(name: "amount", type: .decimal),
                ]),
            EntityDescription(
                name: "Tag", properties: [AttributeDescription(name: "label", type: .string)]),
        ])
    }

    /// Transactions 1 (two inserts, by `import`), 2 (an update), 3 (a delete and a tag).
    private func makeStore(tracking: Bool = true) throws {
        var options = StoreOptions()
        options.storeIdentifier = "STORE-H"
        options.tracksHistory = tracking
        let store = try JSONLinesStore(model: model, url: file, options: options)
        defer { store.close() }
        let expense = model[entityName: "Expense"]!
        func id(_ pk: Int64, _ entity: EntityDescription) -> ManagedObjectID {
            ManagedObjectID(entity: entity, storeIdentifier: "STORE-H", primaryKey: pk)
        }
        func row(_ pk: Int64, _ title: String, _ amount: Decimal, version: Int64 = 1) -> StoreRow {
            StoreRow(
                objectID: id(pk, expense), version: version,
                values: [.attribute(.string(title)), .attribute(.decimal(amount))])
        }
        try store.commit(
            StoreChangeSet(
                inserted: [row(1, "lunch", 12.5), row(2, "coffee", 3)], author: "import",
                timestamp: Date(timeIntervalSinceReferenceDate: 788_918_400)))
        try store.commit(
            StoreChangeSet(
                updated: [row(2, "coffee", 3.5, version: 2)],
                timestamp: Date(timeIntervalSinceReferenceDate: 788_918_401)))
        let tag = StoreRow(
            objectID: id(1, model[entityName: "Tag"]!), version: 1,
            values: [.attribute(.string("food"))])
        try store.commit(
            StoreChangeSet(
                inserted: [tag], deleted: [(id(1, expense), 1)], contextName: "cleanup",
                timestamp: Date(timeIntervalSinceReferenceDate: 788_918_402)))
    }

    private func run(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try ToolBinary.run(ToolBinary.objectgraph!, arguments)
    }

    @Test func historyListsEachTransactionWithItsChanges() throws {
        try makeStore()
        let (status, out, err) = try run("history", file.path)
        #expect(status == 0 && err.isEmpty)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        #expect(lines[0].hasPrefix("#1 2026-01-01T00:00:00.000Z author: import context: -"))
        #expect(lines[1] == "  insert Expense p1" && lines[2] == "  insert Expense p2")
        #expect(lines[4] == "  update Expense p2 (amount)")
        #expect(lines[5].hasPrefix("#3 ") && lines[5].contains("context: cleanup"))
        #expect(lines[6] == "  delete Expense p1 {title: \"lunch\"}")
        #expect(lines[7] == "  insert Tag p1")
    }

    @Test func afterAndEntityNarrowAndJSONHasOneObjectPerTransaction() throws {
        try makeStore()
        let after = try run("history", file.path, "--after", "1", "--entity", "Tag")
        #expect(after.status == 0)
        #expect(after.out == "#3 " + after.out.dropFirst(3))
        #expect(after.out.split(separator: "\n").count == 2)
        let json = try run("history", file.path, "--json", "--after", "2")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["transaction"] as? Int == 3)
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(changes.first?["type"] as? String == "delete")
        #expect((changes.first?["tombstone"] as? [String: Any])?["title"] as? String == "lunch")
    }

    @Test func anUntrackedFileFailsWith134091() throws {
        try makeStore(tracking: false)
        let (status, _, err) = try run("history", file.path)
        #expect(status == 1)
        #expect(err.contains("134091"))
    }
}
