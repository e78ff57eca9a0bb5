import Foundation
import ObjectGraph

/// Loads fixture documents into the store at a URL (a JSON-lines file, or `/dev/null` for a
/// RAM store): the logic of `objectgraph load`.
///
/// The fixtures are first loaded into a scratch RAM store, so an invalid fixture is reported
/// before the destination is even opened: **nothing is written**. Then the store at the URL
/// is opened with a deterministic store UUID and clock (from ``seed``), and the fixtures are
/// loaded into it with one save; two runs into new files give identical bytes.
///
/// ```swift
/// let result = try LoadJob(model: model, fixtures: [FixtureSource(contentsOf: input)])
///     .run(storeURL: URL(fileURLWithPath: "expenses.jsonl"))
/// ```
///
/// - Note: No Core Data counterpart.
public struct LoadJob: Sendable {
    /// The model of the fixtures and the store.
    public var model: ManagedObjectModel
    /// The documents, loaded as one set.
    public var fixtures: [FixtureSource]
    /// Fixes the new store's UUID and timestamps. Default 0.
    public var seed: UInt64
    /// Options for opening the store (durability, lock timeout…); the store UUID and clock
    /// are replaced by ``seed``'s.
    public var storeOptions: StoreOptions
    /// Whether the store file must be new. When `true`, ``run(storeURL:progress:)`` writes the store
    /// in a staging directory beside it and links the finished file into place, so the path
    /// only ever holds a complete store (a full disk or a `kill -9` leaves no file there),
    /// and a file that exists meanwhile is refused (134080) untouched. Default `false`: the
    /// store at the URL is opened in place (an existing one is added to).
    public var requiresNewFile = false

    /// A job loading `fixtures`.
    public init(
        model: ManagedObjectModel, fixtures: [FixtureSource], seed: UInt64 = 0,
        storeOptions: StoreOptions = StoreOptions()
    ) {
        self.model = model
        self.fixtures = fixtures
        self.seed = seed
        self.storeOptions = storeOptions
    }

    /// Checks the fixtures on a RAM store, then loads them into the store at `storeURL`,
    /// optionally reporting progress.
    ///
    /// Each fixture object is made twice, on the scratch RAM store that checks the fixtures
    /// and then in the store at `storeURL`, so the `total` told to `progress` is twice the
    /// objects the fixtures hold. `progress` is called every few thousand objects, after each
    /// pass, and with `(total, total)` once the store is saved; on the calling thread, before
    /// this method returns. Nothing is reported while the fixtures are parsed.
    ///
    /// - Parameters:
    ///   - storeURL: The store file to create and fill.
    ///   - progress: Told the objects made of twice the fixtures' objects; `nil` (the
    ///     default) reports nothing.
    /// - Returns: What was written, and the coordinator holding the open store.
    /// - Throws: The loader's ``ObjectGraphError`` (134060 format errors, validation codes,
    ///   133021), before the store is opened; or the store's errors on opening or saving
    ///   (134080, 134100, 134030…), in which case the save wrote nothing and a store file this
    ///   run created is removed again.
    public func run(
        storeURL: URL, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> StoreJobResult {
        let environment = DeterministicEnvironment(seed: seed)
        let loader = FixtureLoader(model: model)
        var objects = 0
        _ = try loader.load(
            fixtures, into: environment.makeCoordinator(model: model),
            progress: progress.map { report in
                { made, total in
                    objects = total
                    report(made, 2 * total)
                }
            })
        var loaded: FixtureReferences?
        let coordinator = try StoreJobDestination.open(
            storeURL, model: model, options: storeOptions, requiresNewFile: requiresNewFile,
            environment: environment
        ) { coordinator in
            loaded = try loader.load(
                fixtures, into: coordinator,
                progress: progress.map { report in
                    { made, _ in report(objects + made, 2 * objects) }
                })
        }
        progress?(2 * objects, 2 * objects)
        let references = loaded!
        var counts: [String: Int] = [:]
        for entity in model.entities where !references.objectIDs(of: entity.name).isEmpty {
            counts[entity.name] = references.objectIDs(of: entity.name).count
        }
        return StoreJobResult(coordinator: coordinator, counts: counts)
    }
}
