import Foundation
import ObjectGraph

/// Loads and validates a fixture set once, then gives every test its own container seeded
/// with it, in constant time.
///
/// The fixture is loaded through a context and a real save into a RAM store, whose rows are
/// kept as a ``RowTable`` snapshot. ``makeContainer(name:)`` opens a new `InMemoryStore` on
/// that snapshot: rows are shared copy-on-write, so making a container does not copy them,
/// and what one test saves is never seen by another. Parallel tests may share one provider.
///
/// ```swift
/// enum ExpenseFixtures {   // loaded once; a failure is thrown by each test that asks
///     static let provider = Result { try FixtureProvider(model: model, fixtureFiles: [url]) }
/// }
///
/// @Test func renamingACategory() throws {
///     let fixtures = try ExpenseFixtures.provider.get()
///     let container = fixtures.makeContainer()
///     let context = container.newBackgroundContext()
///     try context.performAndWait {
///         let food = try fixtures.references.object("food", as: Category.self, in: context)
///         food.name = "Groceries"
///         try context.save()
///     }
/// }
/// ```
///
/// Every container has the store UUID of ``environment``, so ``references`` are valid in
/// all of them, and a fresh ``DeterministicClock`` that continues where loading left off.
///
/// - Note: No Core Data counterpart (Core Data tests usually rebuild a `/dev/null` store
///   and re-insert their fixtures for every test).
public final class FixtureProvider: Sendable {
    /// The model of the fixtures and of every container.
    public let model: ManagedObjectModel
    /// Where the store UUID and clocks come from.
    public let environment: DeterministicEnvironment
    /// The loaded rows; every container starts from a copy.
    public let snapshot: RowTable
    /// The loaded objects' IDs, valid in every container.
    public let references: FixtureReferences
    /// The first clock reading of each new container.
    private let clockStart: Date

    /// Builds the snapshot by running `populate` on a coordinator with one empty RAM store.
    ///
    /// Use it to snapshot anything: a fixture, seeded preview data, objects made in code.
    ///
    /// - Parameters:
    ///   - environment: Store UUID and clocks. Default seed 0.
    ///   - populate: Fills the store (through contexts and saves) and returns the references to keep.
    /// - Throws: whatever `populate` throws.
    public init(
        model: ManagedObjectModel,
        environment: DeterministicEnvironment = DeterministicEnvironment(),
        populate: (PersistentStoreCoordinator) throws -> FixtureReferences
    ) throws {
        let clock = environment.makeClock()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.clock = clock.reading
        let store = InMemoryStore(
            model: model, url: URL(fileURLWithPath: "/dev/null"),
            options: environment.storeOptions(clock: clock))
        coordinator.addPersistentStore(ofSameModel: store)
        self.model = model
        self.environment = environment
        self.references = try populate(coordinator)
        self.snapshot = store.snapshot()
        self.clockStart = environment.startDate.addingTimeInterval(
            Double(clock.readingCount) * environment.tick)
    }

    /// Loads `fixtures` as one set (see ``FixtureLoader``).
    ///
    /// - Throws: the loader's ``ObjectGraphError`` (134060 format errors, validation codes),
    ///   naming file, JSON path and rule.
    public convenience init(
        model: ManagedObjectModel, fixtures: [FixtureSource],
        environment: DeterministicEnvironment = DeterministicEnvironment()
    ) throws {
        try self.init(model: model, environment: environment) { coordinator in
            try FixtureLoader(model: model).load(fixtures, into: coordinator)
        }
    }

    /// Loads one fixture document held in memory.
    ///
    /// - Parameter file: The name errors use. Default none.
    /// - Throws: as ``init(model:fixtures:environment:)``.
    public convenience init(
        model: ManagedObjectModel, fixtureData: Data, file: String? = nil,
        environment: DeterministicEnvironment = DeterministicEnvironment()
    ) throws {
        try self.init(
            model: model, fixtures: [FixtureSource(data: fixtureData, name: file)],
            environment: environment)
    }

    /// Loads fixture files as one set.
    ///
    /// - Throws: as ``init(model:fixtures:environment:)``, and 134060 for a file that cannot be read.
    public convenience init(
        model: ManagedObjectModel, fixtureFiles: [URL],
        environment: DeterministicEnvironment = DeterministicEnvironment()
    ) throws {
        try self.init(
            model: model, fixtures: fixtureFiles.map(FixtureSource.init(contentsOf:)),
            environment: environment)
    }

    /// A new RAM store holding the snapshot's rows.
    ///
    /// - Complexity: O(1): rows are shared copy-on-write.
    public func makeStore() -> InMemoryStore {
        InMemoryStore(table: snapshot, url: URL(fileURLWithPath: "/dev/null"))
    }

    /// A new coordinator on a new store holding the snapshot's rows, with a fresh clock.
    ///
    /// - Complexity: O(1).
    public func makeCoordinator() -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.clock = DeterministicClock(start: clockStart, tick: environment.tick).reading
        coordinator.addPersistentStore(ofSameModel: makeStore())
        return coordinator
    }

    /// A new container whose store holds the snapshot's rows: the test's own world.
    ///
    /// The store is already loaded (``PersistentContainer/persistentStoreDescriptions`` is
    /// empty; do not call `loadPersistentStores`). Save timestamps come from a fresh clock.
    ///
    /// - Parameter name: The container's name. Default `"Fixtures"`.
    /// - Complexity: O(1): no row is copied until the test changes it.
    public func makeContainer(name: String = "Fixtures") -> PersistentContainer {
        let container = PersistentContainer(name: name, managedObjectModel: model)
        container.persistentStoreDescriptions = []
        let coordinator = container.persistentStoreCoordinator
        coordinator.clock = DeterministicClock(start: clockStart, tick: environment.tick).reading
        coordinator.addPersistentStore(ofSameModel: makeStore())
        return container
    }
}
