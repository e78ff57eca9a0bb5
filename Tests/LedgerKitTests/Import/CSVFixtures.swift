import Foundation

/// Locates CSV fixtures: the project's own `Fixtures/csv/` and the shared real exports in
/// `../shared/fixtures/csv/` (which may be absent).
enum CSVFixtures {
    /// The package root: four levels up from this file (Tests/LedgerKitTests/Import/).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The project's quirk fixtures.
    static let own = packageRoot.appendingPathComponent("Fixtures/csv")

    /// The shared real bank exports.
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/fixtures/csv")

    /// Whether the shared exports are present; prints why the tests skip when not.
    static let sharedAvailable: Bool = {
        let present = FileManager.default.fileExists(
            atPath: shared.appendingPathComponent("EXPECTED.md").path)
        if !present { print("Skipping shared bank-export tests: \(shared.path) is absent") }
        return present
    }()

    /// The URL of an own fixture.
    static func url(_ name: String) -> URL { own.appendingPathComponent(name) }
}
