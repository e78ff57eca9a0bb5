import Foundation
import ObjectGraph

extension FixtureProvider {
    /// Loads a model and fixture documents that are resources of a bundle: a test target's
    /// `Bundle.module`.
    ///
    /// List the folder in the test target (`resources: [.copy("Fixtures")]` in
    /// `Package.swift`; it works on Linux too) and name each file by its path inside the
    /// target, as `.copy` keeps the folder:
    ///
    /// ```swift
    /// enum ExpenseFixtures {
    ///     // Loaded once, when a test first asks; a failure fails each test that asks, not the run.
    ///     static let provider = Result {
    ///         try FixtureProvider(
    ///             bundle: .module, model: "Fixtures/Expenses.json",
    ///             fixtures: ["Fixtures/expenses.json"],
    ///             classResolver: { ["Category": Category.self, "Transaction": Transaction.self][$0] })
    ///     }
    /// }
    /// // in a test: let fixtures = try ExpenseFixtures.provider.get()
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: The bundle holding the resources.
    ///   - model: The model file's path in the bundle: a JSON model, a `.xcdatamodeld` or a
    ///     `.xcdatamodel` (see `ManagedObjectModel(contentsOf:)`).
    ///   - fixtures: The fixture documents' paths in the bundle, loaded as one set.
    ///   - classResolver: Maps the model's class names to your `ManagedObject` subclasses;
    ///     default none (every entity uses `ManagedObject`).
    ///   - environment: Store UUID and clocks. Default seed 0.
    /// - Throws: ``ObjectGraphError`` 134060 naming the full path looked at when a resource is
    ///   missing, and the model reader's and the loader's errors (file, JSON path, rule).
    public convenience init(
        bundle: Bundle, model: String, fixtures: [String],
        classResolver: ((String) -> ManagedObject.Type?)? = nil,
        environment: DeterministicEnvironment = DeterministicEnvironment()
    ) throws {
        let modelURL = try Self.resource(model, in: bundle)
        try self.init(
            model: ManagedObjectModel(contentsOf: modelURL, classResolver: classResolver),
            bundle: bundle, fixtures: fixtures, environment: environment)
    }

    /// Loads fixture documents that are resources of a bundle, for a model you already have.
    ///
    /// - Parameters:
    ///   - bundle: The bundle holding the documents (a test target's `Bundle.module`).
    ///   - fixtures: The documents' paths in the bundle (`"Fixtures/expenses.json"`).
    /// - Throws: ``ObjectGraphError`` 134060 naming the full path looked at when a document is
    ///   missing; the loader's errors.
    public convenience init(
        model: ManagedObjectModel, bundle: Bundle, fixtures: [String],
        environment: DeterministicEnvironment = DeterministicEnvironment()
    ) throws {
        let urls = try fixtures.map { try Self.resource($0, in: bundle) }
        try self.init(model: model, fixtureFiles: urls, environment: environment)
    }

    /// The URL of the resource at `path` in `bundle`, checked to exist.
    static func resource(_ path: String, in bundle: Bundle) throws -> URL {
        let base = bundle.resourceURL ?? bundle.bundleURL
        let url = base.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureErrors.missingResource(path, at: url, bundle: bundle)
        }
        return url
    }
}
