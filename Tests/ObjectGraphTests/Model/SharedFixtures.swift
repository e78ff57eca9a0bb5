import Foundation

/// The shared fixtures beside the package (`../shared/fixtures`), located from this file.
enum SharedFixtures {
    /// `<package root>/../shared/fixtures/xcdatamodels`.
    static let xcdatamodels: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Model
        .deletingLastPathComponent()  // ObjectGraphTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/xcdatamodels")

    /// Whether the shared Xcode model fixtures are present; prints why tests skip when not.
    static let available: Bool = {
        let present = FileManager.default.fileExists(
            atPath: xcdatamodels.appendingPathComponent("SOURCES.md").path)
        if !present {
            print("Skipping shared Xcode model fixtures: \(xcdatamodels.path) is absent")
        }
        return present
    }()

    /// Each model file's entity count as SOURCES.md lists it (`## name` then `- Entities: N`).
    static func entityCounts() throws -> [String: Int] {
        let text = try String(
            contentsOf: xcdatamodels.appendingPathComponent("SOURCES.md"), encoding: .utf8)
        var counts: [String: Int] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## ") {
                current = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            }
            if line.hasPrefix("- Entities: "), let name = current,
                let n = Int(line.dropFirst("- Entities: ".count))
            {
                counts[name] = n
            }
        }
        return counts
    }

    /// The model files (not the version plists), sorted.
    static func modelFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: xcdatamodels.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") && !$0.contains("xccurrentversion") }.sorted()
    }

    /// A temporary `.xcdatamodeld` built from shared files: `versions` maps a version folder
    /// name to a fixture file; `currentVersion` is a fixture plist to use as `.xccurrentversion`.
    static func makeBundle(named name: String, versions: [String: String], currentVersion: String?)
        throws -> URL
    {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-model-tests-\(UUID().uuidString)")
        let bundle = root.appendingPathComponent("\(name).xcdatamodeld")
        for (folder, fixture) in versions {
            let dir = bundle.appendingPathComponent("\(folder).xcdatamodel")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(contentsOf: xcdatamodels.appendingPathComponent(fixture)).write(
                to: dir.appendingPathComponent("contents"))
        }
        if let currentVersion {
            try Data(contentsOf: xcdatamodels.appendingPathComponent(currentVersion))
                .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return bundle
    }
}
