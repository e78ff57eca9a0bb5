import Foundation
import Testing

@testable import ObjectGraph

/// Hostile or unusual Xcode model files: refused with a clear error, never a crash.
@Suite struct XcodeModelInputLimitsTests {
    /// Writes `xml` as the `contents` of a fresh `.xcdatamodel` and loads it.
    static func load(_ xml: String) throws -> ManagedObjectModel {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-xml-\(UUID().uuidString)/Deep.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"))
        return try ManagedObjectModel(contentsOf: folder)
    }

    /// `<model>` holding `levels - 1` nested `<entity>` elements.
    static func nested(_ levels: Int) -> String {
        "<?xml version=\"1.0\"?>\n<model>"
            + String(repeating: "<entity name=\"E\">", count: levels - 1)
            + String(repeating: "</entity>", count: levels - 1) + "</model>"
    }

    @Test func aModelNested60000LevelsDeepIsRefusedWithTheLimitNamed() throws {
        // This input overflowed the stack (SIGSEGV) before the reader had a depth limit.
        #expect {
            try Self.load(Self.nested(60_000))
        } throws: { error in
            let e = error as? ObjectGraphError
            return e?.code == .coreData && e?.line == 2
                && e?.message.contains("nested at most \(XMLNode.maximumDepth) deep") == true
        }
    }

    @Test func theDepthLimitIsExact() throws {
        #expect(throws: ObjectGraphError.self) {
            try Self.load(Self.nested(XMLNode.maximumDepth + 1))
        }
        // At the limit the XML parses; the reader then judges the content (nested entities
        // are not a model element, so it names the first one it meets).
        do {
            _ = try Self.load(Self.nested(XMLNode.maximumDepth))
        } catch let error as ObjectGraphError {
            #expect(!error.message.contains("nested at most"), "\(error.message)")
        }
    }
}
