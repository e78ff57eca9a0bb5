import Foundation
import ObjectGraph
import Testing

/// `objectgraph copy SRC DEST`, on top of the coordinator's store file operations: a consistent
/// copy while the source's writer is open; an existing DEST refused unless `--replace`.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
struct CopyCommandTests {
    let directory: URL
    let model: ManagedObjectModel

    init() throws {
        directory = ToolBinary.scratchRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note", properties: [AttributeDescription(name: "title", type: .string)])
        ])
    }

    private func commitNote(_ store: JSONLinesStore, _ pk: Int64) throws {
        let note = model[entityName: "Note"]!
        try store.commit(
            StoreChangeSet(
                inserted: [
                    StoreRow(
                        objectID: ManagedObjectID(
                            entity: note, storeIdentifier: store.identifier, primaryKey: pk),
                        version: 1, values: [.attribute(.string("n\(pk)"))])
                ], timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    private func titles(_ url: URL) throws -> [String] {
        var options = StoreOptions()
        options.isReadOnly = true
        let store = try JSONLinesStore(model: model, url: url, options: options)
        defer { store.close() }
        return try store.fetch(StoreFetchRequest(entity: model[entityName: "Note"]!)).map {
            if case .attribute(.string(let s)) = $0.values[0] { s } else { "?" }
        }
    }

    @Test func copiesWhileTheWriterIsOpenAndRefusesAnExistingDestination() throws {
        let source = directory.appendingPathComponent("source.jsonl")
        let writer = try JSONLinesStore(model: model, url: source)
        defer { writer.close() }
        try commitNote(writer, 1)
        try commitNote(writer, 2)
        let copy = directory.appendingPathComponent("copy.jsonl")
        let first = try ToolBinary.run(ToolBinary.objectgraph!, ["copy", source.path, copy.path])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("2 rows"))
        #expect(try titles(copy) == ["n1", "n2"])
        try commitNote(writer, 3)
        let again = try ToolBinary.run(ToolBinary.objectgraph!, ["copy", source.path, copy.path])
        #expect(again.status != 0)
        #expect(again.err.contains("134080"))
        #expect(try titles(copy) == ["n1", "n2"])
        let replaced = try ToolBinary.run(
            ToolBinary.objectgraph!, ["copy", "--replace", source.path, copy.path])
        #expect(replaced.status == 0, "\(replaced.err)")
        #expect(try titles(copy) == ["n1", "n2", "n3"])
        #expect(FileManager.default.fileExists(atPath: copy.path + ".lock"))
    }
}
