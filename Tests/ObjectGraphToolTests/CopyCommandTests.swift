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

    // A refused copy changes nothing at DEST: no `DEST.lock` appears beside a directory, a
    // FIFO or a plain file that is not replaced (found by QA: each refusal said "nothing was
    // read or locked" and left a new empty lock file behind).
    @Test func aRefusedDestinationGetsNoLockFile() throws {
        let source = directory.appendingPathComponent("source.jsonl")
        let writer = try JSONLinesStore(model: model, url: source)
        try commitNote(writer, 1)
        writer.close()
        let folder = directory.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let fifo = directory.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let plain = directory.appendingPathComponent("plain.jsonl")
        try Data("not a store".utf8).write(to: plain)
        for (destination, flags) in [
            (folder, ["--replace"]), (folder, []), (fifo, ["--replace"]), (plain, []),
        ] {
            let run = try ToolBinary.run(
                ToolBinary.objectgraph!, ["copy"] + flags + [source.path, destination.path])
            #expect(run.status == 1, "\(destination.lastPathComponent) \(flags)")
            #expect(run.err.contains("134080"), "\(run.err)")
            #expect(
                !FileManager.default.fileExists(atPath: destination.path + ".lock"),
                "\(destination.lastPathComponent) \(flags)")
        }
        #expect(try Data(contentsOf: plain) == Data("not a store".utf8))
    }
}
