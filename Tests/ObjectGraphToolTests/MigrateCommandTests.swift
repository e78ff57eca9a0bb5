import Foundation
import ObjectGraph
import Testing

/// `objectgraph migrate FILE --to MODEL [--dry-run] [--json]` run as a program: the printed
/// mapping with row counts, a dry run that leaves the file byte for byte, a real migration that
/// keeps `FILE.pre-migration`, and a refused migration that exits 1 with Core Data's code and
/// leaves the file as it was.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
struct MigrateCommandTests {
    let directory: URL
    let file: URL

    init() throws {
        directory = ToolBinary.scratchRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("notes.jsonl")
        let model = try Self.model()
        let note = model[entityName: "Note"]!
        let store = try JSONLinesStore(model: model, url: file)
        defer { store.close() }
        try store.commit(
            StoreChangeSet(
                inserted: (1...3).map { pk in
                    StoreRow(
                        objectID: ManagedObjectID(
                            entity: note, storeIdentifier: store.identifier, primaryKey: Int64(pk)),
                        version: 1, values: [.attribute(.string("n\(pk)"))])
                }, timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    /// `Note { title }`, plus `extra` in a later version.
    private static func model(_ extra: [AttributeDescription] = []) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [AttributeDescription(name: "title", type: .string)] + extra)
        ])
    }

    /// Writes `model` in the JSON model format and returns its path.
    private func write(_ model: ManagedObjectModel, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try model.jsonData(pretty: true).write(to: url)
        return url.path
    }

    /// Version 2: a required `pinned` flag with a default, which lightweight migration fills in.
    private func version2() throws -> String {
        try write(
            Self.model([
                AttributeDescription(
                    name: "pinned", type: .boolean, isOptional: false, defaultValue: .boolean(false)
                )
            ]), "v2.json")
    }

    /// The mapping's line for version 2's new attribute, with the rows it fills.
    private static let addPinned = "add Note.pinned (3 rows take default false)"

    private func run(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try ToolBinary.run(ToolBinary.objectgraph!, arguments)
    }

    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func dryRunPrintsTheMappingWithRowCountsAndLeavesTheFileByteForByte() throws {
        let before = try bytes(file.path)
        let r = try run("migrate", file.path, "--to", try version2(), "--dry-run")
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(r.out)")
        #expect(lines.first?.hasPrefix("step 1: checksum ") == true, "\(r.out)")
        #expect(lines.dropFirst().first == "  " + Self.addPinned, "\(r.out)")
        #expect(lines.last == "\(file.path): not changed (dry run)")
        #expect(try bytes(file.path) == before)
        #expect(!FileManager.default.fileExists(atPath: file.path + ".pre-migration"))
    }

    @Test func jsonDryRunReportsTheStepsAndThatNothingMigrated() throws {
        let before = try bytes(file.path)
        let r = try run("migrate", file.path, "--to", try version2(), "--dry-run", "--json")
        #expect(r.status == 0, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(object?["file"] as? String == file.path)
        #expect(object?["migrated"] as? Bool == false)
        let steps = object?["steps"] as? [String] ?? []
        #expect(steps.count == 2)
        #expect(steps.first?.hasPrefix("step 1: checksum ") == true)
        #expect(steps.last?.hasSuffix(Self.addPinned) == true, "\(steps)")
        #expect(try bytes(file.path) == before)
    }

    @Test func migrationRewritesTheFileAndKeepsTheOldOneAsPreMigration() throws {
        let before = try bytes(file.path)
        let target = try version2()
        let r = try run("migrate", file.path, "--to", target)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains(Self.addPinned))
        #expect(
            r.out.contains(
                "\(file.path): migrated (the old file is \(file.path).pre-migration)"))
        #expect(try bytes(file.path + ".pre-migration") == before)
        #expect(try bytes(file.path) != before)
        // The migrated file opens with version 2 as it is, every row holding the default.
        let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: target))
        var options = StoreOptions()
        options.isReadOnly = true
        let store = try JSONLinesStore(model: model, url: file, options: options)
        defer { store.close() }
        #expect(store.recoveryNotices.isEmpty)
        let rows = try store.fetch(StoreFetchRequest(entity: model[entityName: "Note"]!))
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        #expect(rows.map(\.objectID.primaryKey) == [1, 2, 3])
        #expect(
            rows.map(\.values)
                == (1...3).map {
                    [.attribute(.string("n\($0)")), .attribute(.boolean(false))]
                })
        // Migrating again to the same model has nothing to do.
        let again = try run("migrate", file.path, "--to", target)
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.hasPrefix("no schema change"))
        #expect(again.out.hasSuffix("\(file.path): not changed\n"))
    }

    @Test func anImpossibleMigrationExitsNonZeroWithCoreDataCodeAndLeavesTheFile() throws {
        // A required attribute without a default on existing rows: Core Data's lightweight
        // migration fails with NSMigrationError (134110), "missing attribute values on
        // mandatory destination attribute" (../shared/reference/scenarios.md B44).
        let target = try write(
            Self.model([AttributeDescription(name: "rank", type: .integer32, isOptional: false)]),
            "v3.json")
        let before = try bytes(file.path)
        for extra in [[], ["--dry-run"], ["--json"]] {
            let r = try ToolBinary.run(
                ToolBinary.objectgraph!, ["migrate", file.path, "--to", target] + extra)
            #expect(r.status == 1, "\(extra): \(r.out)")
            #expect(r.err.contains("134110"), "\(extra): \(r.err)")
            #expect(r.err.contains("rank"), "\(extra): \(r.err)")
            #expect(try bytes(file.path) == before)
            #expect(!FileManager.default.fileExists(atPath: file.path + ".pre-migration"))
        }
    }

    /// The progress bar is for a terminal only: with standard error a pipe (and with
    /// `--quiet`) a migration writes nothing there but its notice.
    @Test func aMigrationWritesNoProgressWhenStandardErrorIsNotATerminal() throws {
        let target = try version2()
        let migrated = try ToolBinary.run(
            ToolBinary.objectgraph!, ["migrate", file.path, "--to", target])
        #expect(migrated.status == 0, "\(migrated.err)")
        // Only the store's notice: no bar, no carriage return, no escape sequence.
        #expect(
            migrated.err.hasPrefix("notice: store ") && migrated.err.contains(" migrated from "))
        #expect(migrated.err.split(separator: "\n").count == 1)
        #expect(!migrated.err.contains("\r") && !migrated.err.contains("\u{1B}"))
        #expect(migrated.out.hasSuffix("migrated (the old file is \(file.path).pre-migration)\n"))
        let quiet = try ToolBinary.run(
            ToolBinary.objectgraph!, ["migrate", file.path, "--to", target, "--quiet"])
        #expect(quiet.status == 0 && !quiet.err.contains("\r"))
        let help = try ToolBinary.run(ToolBinary.objectgraph!, ["migrate", "--help"])
        #expect(help.out.contains("--quiet"))
    }
}
