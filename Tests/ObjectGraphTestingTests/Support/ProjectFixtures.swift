import Foundation
import ObjectGraph
import ObjectGraphTesting

/// The repository's Fixtures/ folder (models and fixture documents the project wrote).
enum ProjectFixtures {
    /// Package root: four levels up from Tests/ObjectGraphTestingTests/Support/<File>.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Every JSON model in Fixtures/models, by file name without extension, sorted.
    static var modelNames: [String] {
        let folder = root.appendingPathComponent("models")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Every model file of Fixtures/ (JSON models in models/, Xcode `.xcdatamodeld` bundles at
    /// the top), as paths relative to Fixtures/, sorted.
    static var modelFiles: [String] {
        let top = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return
            (modelNames.map { "models/\($0).json" } + top.filter { $0.hasSuffix(".xcdatamodeld") })
            .sorted()
    }

    /// The model in Fixtures/models/<name>.json, built fresh.
    static func model(_ name: String) throws -> ManagedObjectModel {
        try ManagedObjectModel(
            jsonData: Data(contentsOf: root.appendingPathComponent("models/\(name).json")))
    }

    /// The URL of Fixtures/fixtures/<name>.json.
    static func fixtureURL(_ name: String) -> URL {
        root.appendingPathComponent("fixtures/\(name).json")
    }

    /// The expenses fixture on the ExpenseTracker model, loaded once for the whole target.
    static let expenseProvider: FixtureProvider = {
        do {
            return try FixtureProvider(
                model: model("ExpenseTracker"), fixtureFiles: [fixtureURL("expenses")])
        } catch {
            preconditionFailure("the expenses fixture must load: \(error)")
        }
    }()
}

/// The shared Xcode models beside the package (`../shared/fixtures/xcdatamodels`).
enum SharedModels {
    /// Package root (four levels up from this file), then `../shared/fixtures/xcdatamodels`.
    static let folder = ProjectFixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/xcdatamodels")

    /// Whether they are present; prints why the tests skip when not.
    static let available: Bool = {
        let present = FileManager.default.fileExists(atPath: folder.path)
        if !present { print("Skipping the shared Xcode models: \(folder.path) is absent") }
        return present
    }()

    /// The model files (not the version plists), sorted.
    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") && !$0.contains("xccurrentversion") }.sorted()
    }
}

/// Runs `body` on a new private-queue context of `coordinator`.
func withContext<T>(
    _ coordinator: PersistentStoreCoordinator, _ body: (ManagedObjectContext) throws -> T
) rethrows -> T {
    let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    return try context.performAndWait { try body(context) }
}

/// Every object of `entityName` (and its subentities), in the stable order.
func fetchAll(_ entityName: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
    try context.fetch(FetchRequest<ManagedObject>(entityName: entityName))
}

/// The error `body` throws, as an ObjectGraphError (nil when it throws nothing or something else).
func objectGraphError(_ body: () throws -> Void) -> ObjectGraphError? {
    do {
        try body()
        return nil
    } catch {
        return error as? ObjectGraphError
    }
}
