import Foundation
import ObjectGraph

/// Loads JSON fixtures (see ObjectGraph's FixturesAndSeeding article) into a store, all or
/// nothing.
///
/// A fixture is an object keyed by entity name, each holding an array of objects; `"_ref"`
/// names an object so relationships can point at it:
///
/// ```json
/// {"Category": [{"_ref": "food", "name": "Food"}],
///  "Transaction": [{"amount": "12.50", "date": "2024-03-01", "category": "food"}]}
/// ```
///
/// ```swift
/// let refs = try FixtureLoader(model: model).load(FixtureSource(contentsOf: url), into: coordinator)
/// let food = refs["food"]!                                   // a permanent ManagedObjectID
/// ```
///
/// Every format rule is checked before any object is created; then the objects are inserted
/// in one private-queue context (entity by entity in model order, each in array order, so
/// primary keys follow the fixture) and saved once, so the model's validation rules run as
/// in any save. On any error nothing is saved.
///
/// - Note: No Core Data counterpart.
public struct FixtureLoader: Sendable {
    /// The model fixtures are checked against.
    public let model: ManagedObjectModel

    /// A loader for `model`.
    public init(model: ManagedObjectModel) {
        self.model = model
    }

    /// Checks the format rules of `sources` without loading them (validation rules, which need
    /// a save, are not checked).
    ///
    /// - Throws: ``ObjectGraphError`` 134060 naming file, JSON path and rule.
    public func check(_ sources: [FixtureSource]) throws {
        _ = try FixtureParser(model: model).parse(sources)
    }

    /// Loads one document into `coordinator`'s store with one save.
    ///
    /// - Throws: as the array form of `load(_:into:)`.
    @discardableResult
    public func load(_ source: FixtureSource, into coordinator: PersistentStoreCoordinator) throws
        -> FixtureReferences
    {
        try load([source], into: coordinator)
    }

    /// Loads several documents as one set (a `_ref` in one may be used in another) with one save.
    ///
    /// - Returns: The permanent IDs of the loaded objects, by `_ref` and by entity.
    /// - Throws: ``ObjectGraphError`` with `file` set: code 134060 for a format error (bad
    ///   JSON, unknown entity or key, wrong type, dangling, misdirected or duplicate
    ///   reference, relationship sides that disagree), naming the JSON path (e.g.
    ///   `Transaction[3].amount`) and the rule; the validation code (1550–1690, or 1560 with
    ///   each failure underneath) for a rule the save rejects, naming the path and carrying the
    ///   validation message; 133021 for a uniqueness constraint. Nothing is saved.
    /// - Precondition: `coordinator` uses ``model``.
    /// - Complexity: O(n) in the objects and references loaded.
    @discardableResult
    public func load(_ sources: [FixtureSource], into coordinator: PersistentStoreCoordinator)
        throws -> FixtureReferences
    {
        try load(sources, into: coordinator, progress: nil)
    }

    /// How many objects are given their attributes between two progress reports.
    static let progressInterval = 4_096

    /// The array form of `load(_:into:)`, telling `progress` how many of the parsed objects are made
    /// (attributes set) of how many, every ``progressInterval`` objects and at the end,
    /// before relationships and the save.
    func load(
        _ sources: [FixtureSource], into coordinator: PersistentStoreCoordinator,
        progress: ((_ made: Int, _ total: Int) -> Void)?
    ) throws -> FixtureReferences {
        precondition(
            coordinator.managedObjectModel === model,
            "FixtureLoader: the coordinator uses another model")
        let parsed = try FixtureParser(model: model).parse(sources)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.name = "FixtureLoader"
        return try context.performAndWait {
            let objects = try insert(parsed, into: context, progress: progress)
            var paths: [ManagedObjectID: FixturePath] = [:]
            for (object, p) in zip(objects, parsed) { paths[object.objectID] = p.path }
            do {
                try context.save()
            } catch let error as ObjectGraphError where !StoreJobDestination.isStoreError(error) {
                throw FixtureErrors.validation(sources.first?.name, error, paths: paths)
            }
            return FixtureReferences(parsed: parsed, objectIDs: objects.map(\.objectID))
        }
    }

    /// Inserts the objects, sets attributes then relationships, and checks both sides agree.
    private func insert(
        _ parsed: [ParsedObject], into context: ManagedObjectContext,
        progress: ((Int, Int) -> Void)?
    ) throws -> [ManagedObject] {
        let objects = parsed.map { context.insertNewObject(forEntityName: $0.entity.name) }
        for (i, (object, p)) in zip(objects, parsed).enumerated() {
            for (attribute, value) in p.attributes {
                object.setAttributeValue(value, forKey: attribute.name)
            }
            DerivedPlaceholder.fill(object)
            if let progress, i % Self.progressInterval == Self.progressInterval - 1 {
                progress(i + 1, parsed.count)
            }
        }
        progress?(parsed.count, parsed.count)
        for (object, p) in zip(objects, parsed) {
            for (r, targets) in p.relationships {
                if r.isToMany {
                    object.setValue(targets.map { objects[$0] }, forKey: r.name)
                } else {
                    object.setValue(targets.first.map { objects[$0] }, forKey: r.name)
                }
            }
        }
        try InverseAgreement(parsed: parsed, objects: objects).check()
        return objects
    }
}
