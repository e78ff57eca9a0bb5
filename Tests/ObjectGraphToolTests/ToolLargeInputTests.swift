import Foundation
import ObjectGraph
import Testing

/// `objectgraph` on inputs far larger or deeper than a person writes: a clear error or a
/// capped display, never a crash, a hang or an echo of the whole input.
@Suite(
    .enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason),
    .timeLimit(.minutes(1)))
struct ToolLargeInputTests {
    let directory: URL

    init() throws {
        directory = ToolBinary.scratchRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// 60,000 nested elements overflowed the stack (SIGSEGV, no message).
    @Test func aDeeplyNestedModelFailsWithAMessage() throws {
        let levels = 60_000
        let path = try write(
            "deep.xml",
            "<?xml version=\"1.0\"?><model>"
                + String(repeating: "<entity name=\"E\">", count: levels)
                + String(repeating: "</entity>", count: levels) + "</model>")
        let result = try ToolBinary.run(ToolBinary.objectgraph!, ["model", path])
        #expect(result.status == 1)
        #expect(result.err.contains("nested at most 256 deep"), "\(result.err)")
    }

    /// A 40,000-character entity and property name took 8–16 s to print (quadratic padding).
    @Test func aModelWithHugeNamesPrintsCappedLines() throws {
        let entity = "E" + String(repeating: "x", count: 40_000)
        let property = "p" + String(repeating: "y", count: 40_000)
        let path = try write(
            "long.xml",
            "<?xml version=\"1.0\"?><model><entity name=\"\(entity)\">"
                + "<attribute name=\"\(property)\" optional=\"YES\" attributeType=\"String\"/>"
                + "</entity></model>")
        let result = try ToolBinary.run(ToolBinary.objectgraph!, ["model", path])
        #expect(result.status == 0, "\(result.err)")
        let longest = result.out.split(separator: "\n").map(\.count).max() ?? 0
        #expect(longest < 400, "a line of \(longest) characters")
        #expect(result.out.contains("(40001 characters)"))
    }

    @Test func aHugePredicateIsNotEchoedWhole() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item", properties: [AttributeDescription(name: "name", type: .string)])
        ])
        let file = directory.appendingPathComponent("items.jsonl")
        try JSONLinesStore(model: model, url: file).close()
        let predicate = "name == 'a' AND " + String(repeating: "z", count: 100_000) + " =="
        for command in ["fetch", "count"] {
            let result = try ToolBinary.run(
                ToolBinary.objectgraph!,
                [command, file.path, "--entity", "Item", "--where", predicate])
            #expect(result.status != 0)
            let longest = result.err.split(separator: "\n").map(\.count).max() ?? 0
            #expect(longest < 600, "\(command): a line of \(longest) characters")
            #expect(result.err.contains("at column \(predicate.count + 1)"), "\(result.err)")
        }
    }

    /// Reporting 1,000 bad fixture objects took 11–19 s and 4,000 took 204 s.
    @Test func loadReportsThousandsOfBadObjectsQuicklyCappedAndCounted() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/models/ExpenseTracker.json")
        let categories = (0..<4_000).map { #"{"_ref": "c\#($0)", "name": ""}"# }
        let bad = try write("bad.json", #"{"Category": [\#(categories.joined(separator: ","))]}"#)
        let out = directory.appendingPathComponent("bad.jsonl").path
        let result = try ToolBinary.run(
            ToolBinary.objectgraph!,
            ["load", "--model", fixtures.path, "--fixtures", bad, "--out", out])
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n")
        #expect(lines.first?.hasSuffix("error 1560: 8000 validation errors in \(bad)") == true)
        #expect(lines.count == 22, "\(lines.count) lines")
        #expect(lines.last == "  and 7980 more")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.contains(" at Category[") })
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A fixture folder said "NSCocoaErrorDomain error 256"; a device as a model was read
    /// without end.
    @Test func inputsThatAreNotFilesAreNamedForWhatTheyAre() throws {
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/models/ExpenseTracker.json").path
        let folder = directory.appendingPathComponent("fixtures").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let out = directory.appendingPathComponent("out.jsonl").path
        let load = try ToolBinary.run(
            ToolBinary.objectgraph!, ["load", "--model", model, "--fixtures", folder, "--out", out])
        #expect(load.status == 1)
        #expect(load.err.hasSuffix("fixture \(folder): is a directory\n"), "\(load.err)")
        let device = try ToolBinary.run(ToolBinary.objectgraph!, ["model", "/dev/zero"])
        #expect(device.status == 1)
        #expect(device.err.contains("/dev/zero: is a character device, not a regular file"))
    }
}
