import Foundation
import ObjectGraph

/// Everything a run needs to be reproducible, derived from one seed: the store UUID, a clock,
/// UUIDs, and random streams.
///
/// Object IDs need nothing extra: stores hand out primary keys in order, per entity
/// hierarchy, so the same inserts saved in the same order get the same IDs. Temporary IDs
/// (before the first save) come from a process-wide counter and are not reproducible;
/// compare permanent IDs only.
///
/// ```swift
/// let environment = DeterministicEnvironment(seed: 42)
/// let container = try environment.makeContainer(name: "Test", model: model)   // RAM store
/// let id = environment.makeUUIDGenerator().next()
/// ```
///
/// - Note: No Core Data counterpart.
public struct DeterministicEnvironment: Sendable {
    /// 2024-01-01T00:00:00Z, the default first clock reading and the anchor of generated dates.
    public static let defaultStartDate = Date(timeIntervalSince1970: 1_704_067_200)

    /// The seed every value here is derived from.
    public let seed: UInt64
    /// The first reading of every clock made here, and the "now" of generated dates.
    public let startDate: Date
    /// Seconds each clock reading advances.
    public let tick: TimeInterval

    /// An environment for `seed`.
    ///
    /// - Parameters:
    ///   - seed: Any number; the same number gives the same run. Default 0.
    ///   - startDate: The clock's first reading. Default ``defaultStartDate``.
    ///   - tick: Seconds between clock readings. Default 1.
    public init(seed: UInt64 = 0, startDate: Date = defaultStartDate, tick: TimeInterval = 1) {
        self.seed = seed
        self.startDate = startDate
        self.tick = tick
    }

    /// The store UUID a new store gets (uppercase UUID string, derived from ``seed``).
    public var storeIdentifier: String {
        var random = SeededRandomNumberGenerator(seed: seed, stream: "store-identifier")
        return random.uuid().uuidString
    }

    /// A new clock starting at ``startDate``; each call gives an independent clock.
    public func makeClock() -> DeterministicClock {
        DeterministicClock(start: startDate, tick: tick)
    }

    /// A new UUID generator for this seed and `stream`; generators of one stream repeat each other.
    public func makeUUIDGenerator(stream: String = "uuid") -> SeededUUIDGenerator {
        SeededUUIDGenerator(seed: seed, stream: stream)
    }

    /// A random number generator for this seed and `stream`.
    public func makeRandomNumberGenerator(stream: String) -> SeededRandomNumberGenerator {
        SeededRandomNumberGenerator(seed: seed, stream: stream)
    }

    /// `options` with ``storeIdentifier`` and `clock` set: the options of a reproducible store.
    public func storeOptions(_ options: StoreOptions = StoreOptions(), clock: DeterministicClock)
        -> StoreOptions
    {
        var options = options
        options.storeIdentifier = storeIdentifier
        options.clock = clock.reading
        return options
    }

    /// A coordinator whose save timestamps come from a new clock, with the store at `url`
    /// (default `/dev/null`, the RAM store) opened with ``storeOptions(_:clock:)`` on the same clock.
    ///
    /// - Throws: ``ObjectGraphError`` from opening the store (see
    ///   `PersistentStoreCoordinator.addPersistentStore(with:)`).
    public func makeCoordinator(
        model: ManagedObjectModel, url: URL = URL(fileURLWithPath: "/dev/null"),
        options: StoreOptions = StoreOptions()
    ) throws -> PersistentStoreCoordinator {
        let clock = makeClock()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.clock = clock.reading
        let description = PersistentStoreDescription(url: url)
        description.storeOptions = storeOptions(options, clock: clock)
        try coordinator.addPersistentStore(with: description)
        return coordinator
    }

    /// A container on a RAM store (or the store at `url`) with this environment's store UUID
    /// and a new clock for both the store and save timestamps.
    ///
    /// - Throws: ``ObjectGraphError`` from opening the store.
    public func makeContainer(
        name: String, model: ManagedObjectModel,
        url: URL = URL(fileURLWithPath: "/dev/null")
    ) throws -> PersistentContainer {
        let clock = makeClock()
        let container = PersistentContainer(name: name, managedObjectModel: model)
        container.persistentStoreCoordinator.clock = clock.reading
        let description = PersistentStoreDescription(url: url)
        description.storeOptions = storeOptions(clock: clock)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }
}
