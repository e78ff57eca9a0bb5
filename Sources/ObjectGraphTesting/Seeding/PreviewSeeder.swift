import Foundation
import ObjectGraph

/// Generates valid, plausible objects from a model alone, the same ones for the same seed.
///
/// For every concrete entity it inserts the number of objects asked for and fills them so
/// that the model's own rules hold: types, optionality (optional attributes are sometimes
/// `nil`), defaults, numeric and date limits, string lengths, regular expressions (strings
/// are generated to match them), relationship counts and inverses, and uniqueness
/// constraints. Values look plausible: names for name-like keys, amounts with two decimals,
/// e-mail addresses and URLs for keys that say so, dates within a year of ``referenceDate``.
/// Then it saves, so the engine's validation proves the data valid.
///
/// ```swift
/// let seeder = PreviewSeeder(model: model, seed: 42)
/// try seeder.generate(counts: ["Category": 5, "Transaction": 200], into: coordinator)
/// let preview = try seeder.makeContainer(objectsPerEntity: 20)   // a RAM container, seeded
/// ```
///
/// Abstract entities are never instantiated (their subentities are); transient and derived
/// attributes are left to the engine. Relationships connect the objects of this run only.
/// Uniqueness constraints also avoid the values of objects already in the store.
///
/// - Note: No Core Data counterpart.
public struct PreviewSeeder: Sendable {
    /// The model objects are generated for.
    public let model: ManagedObjectModel
    /// The seed: the same seed, model and counts give the same objects, byte for byte.
    public let seed: UInt64
    /// The "now" that generated dates are placed around.
    public let referenceDate: Date

    /// A seeder for `model`.
    ///
    /// - Parameters:
    ///   - seed: Any number. Default 0.
    ///   - referenceDate: Dates fall in the year before it (birth dates decades before, due
    ///     dates up to half a year after), within the attributes' limits. Default
    ///     ``DeterministicEnvironment/defaultStartDate``.
    public init(
        model: ManagedObjectModel, seed: UInt64 = 0,
        referenceDate: Date = DeterministicEnvironment.defaultStartDate
    ) {
        self.model = model
        self.seed = seed
        self.referenceDate = referenceDate
    }

    /// Generates `counts[entity]` objects of each named concrete entity and `defaultCount` of
    /// every other one, in one private-queue context on `coordinator`, and saves them.
    ///
    /// - Returns: The IDs of the new objects, by entity.
    /// - Throws: ``ObjectGraphError`` 134060 naming the entity, property and rule the seeder
    ///   cannot satisfy (an unknown or abstract entity in `counts`, a negative count, a pattern
    ///   construct it does not support, limits no value fits, relationship counts the numbers
    ///   of objects cannot meet, a uniqueness constraint without enough distinct values); or,
    ///   should the generated data still fail the save, the save's error with its code. On
    ///   any error nothing is saved.
    /// - Precondition: `coordinator` uses ``model``.
    /// - Complexity: O(n) in the objects generated, plus O(n × m) for relationships whose
    ///   objects must be searched for room.
    @discardableResult
    public func generate(
        counts: [String: Int], defaultCount: Int = 0,
        into coordinator: PersistentStoreCoordinator
    ) throws -> SeedResult {
        try generate(counts: counts, defaultCount: defaultCount, into: coordinator, progress: nil)
    }

    /// ``generate(counts:defaultCount:into:)``, telling `progress` how many objects are
    /// made (every attribute set) as it goes, before relationships, uniqueness and the save.
    func generate(
        counts: [String: Int], defaultCount: Int, into coordinator: PersistentStoreCoordinator,
        progress: ((_ made: Int) -> Void)?
    ) throws -> SeedResult {
        precondition(
            coordinator.managedObjectModel === model,
            "PreviewSeeder: the coordinator uses another model")
        let plan = try resolve(counts, defaultCount: defaultCount)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.name = "PreviewSeeder"
        return try context.performAndWait {
            let run = SeedRun(context: context, seed: seed, referenceDate: referenceDate)
            run.progress = progress
            try run.checkPatterns(plan)
            try run.insertObjects(plan)
            try run.connectRelationships()
            try run.enforceUniqueness()
            do {
                try context.save()
            } catch let error as ObjectGraphError where !StoreJobDestination.isStoreError(error) {
                throw SeedErrors.saveFailed(error)
            }
            return SeedResult(objects: run.objects)
        }
    }

    /// Generates `count` objects of every concrete entity.
    ///
    /// - Throws: as ``generate(counts:defaultCount:into:)``.
    @discardableResult
    public func generate(objectsPerEntity count: Int, into coordinator: PersistentStoreCoordinator)
        throws -> SeedResult
    {
        try generate(counts: [:], defaultCount: count, into: coordinator)
    }

    /// A container on a RAM store, seeded: for previews and demos.
    ///
    /// The store UUID and clocks come from `DeterministicEnvironment(seed:startDate:)` with this
    /// seeder's seed and reference date, so two calls give identical stores.
    ///
    /// - Throws: as ``generate(counts:defaultCount:into:)``.
    public func makeContainer(
        name: String = "Preview", counts: [String: Int] = [:],
        objectsPerEntity: Int = 0
    ) throws -> PersistentContainer {
        let environment = DeterministicEnvironment(seed: seed, startDate: referenceDate)
        let container = try environment.makeContainer(name: name, model: model)
        try generate(
            counts: counts, defaultCount: objectsPerEntity,
            into: container.persistentStoreCoordinator)
        return container
    }

    /// How many objects ``generate(counts:defaultCount:into:)`` makes, or `nil` when it would
    /// refuse the counts.
    func objectCount(counts: [String: Int], defaultCount: Int) -> Int? {
        (try? resolve(counts, defaultCount: defaultCount))?.reduce(0) { $0 + $1.1 }
    }

    /// The concrete entities in model order with their counts.
    private func resolve(_ counts: [String: Int], defaultCount: Int) throws -> [(
        EntityDescription, Int
    )] {
        for name in counts.keys.sorted() {
            guard let entity = model.entitiesByName[name] else {
                throw SeedErrors.unknownEntity(name, known: model.entities.map(\.name))
            }
            if entity.isAbstract { throw SeedErrors.abstractEntity(entity) }
            if let count = counts[name], count < 0 { throw SeedErrors.negativeCount(name, count) }
        }
        if defaultCount < 0 { throw SeedErrors.negativeCount("every other entity", defaultCount) }
        return model.entities.filter { !$0.isAbstract }.map {
            ($0, counts[$0.name] ?? defaultCount)
        }
    }
}
