import Foundation
import ObjectGraph

/// Seeds the store at a URL (a JSON-lines file, or `/dev/null` for a RAM store) with preview
/// data: the logic of `objectgraph seed`.
///
/// The seed fixes everything: the generated values, the new store's UUID, the object IDs
/// and the timestamps, so two runs into new files give identical bytes. The data is first
/// generated into a scratch RAM store, so a model the seeder cannot satisfy is reported
/// before the destination is opened: nothing is written.
///
/// ```swift
/// try SeedJob(model: model, counts: ["Category": 6, "Transaction": 500], seed: 42)
///     .run(storeURL: URL(fileURLWithPath: "preview.jsonl"))
/// ```
///
/// - Note: No Core Data counterpart.
public struct SeedJob: Sendable {
    /// The model to generate objects of.
    public var model: ManagedObjectModel
    /// Objects per concrete entity, by name.
    public var counts: [String: Int]
    /// Objects of every concrete entity not in ``counts``. Default 0.
    public var defaultCount: Int
    /// The seed of values, store UUID and timestamps.
    public var seed: UInt64
    /// Options for opening the store; the store UUID and clock are replaced by ``seed``'s.
    public var storeOptions: StoreOptions
    /// Whether the store file must be new. When `true`, ``run(storeURL:progress:)`` writes the store
    /// in a staging directory beside it and links the finished file into place, so the path
    /// only ever holds a complete store (a full disk or a `kill -9` leaves no file there),
    /// and a file that exists meanwhile is refused (134080) untouched. Default `false`: the
    /// store at the URL is opened in place (an existing one is added to).
    public var requiresNewFile = false

    /// A job generating `counts` objects with `seed`.
    public init(
        model: ManagedObjectModel, counts: [String: Int], defaultCount: Int = 0, seed: UInt64,
        storeOptions: StoreOptions = StoreOptions()
    ) {
        self.model = model
        self.counts = counts
        self.defaultCount = defaultCount
        self.seed = seed
        self.storeOptions = storeOptions
    }

    /// Generates into a RAM store, then into the store at `storeURL`, optionally reporting
    /// progress.
    ///
    /// Each object is made twice, on the scratch RAM store that checks the model and then in
    /// the store at `storeURL`, so the `total` told to `progress` is twice the objects asked
    /// for. `progress` is called with `(0, total)` first, every few thousand values, after
    /// each entity, and with `(total, total)` once the store is saved; on the calling thread,
    /// before this method returns.
    ///
    /// - Parameters:
    ///   - storeURL: The store file to create and fill.
    ///   - progress: Told the objects made of twice the objects asked for; `nil` (the
    ///     default) reports nothing.
    /// - Returns: What was written, and the coordinator holding the open store.
    /// - Throws: ``PreviewSeeder``'s ``ObjectGraphError`` (134060 naming the rule), before the
    ///   store is opened; or the store's errors on opening or saving (134030 for a full disk,
    ///   naming the failed write), in which case the save wrote nothing and a store file this
    ///   run created is removed again.
    public func run(
        storeURL: URL, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> StoreJobResult {
        let environment = DeterministicEnvironment(seed: seed)
        let seeder = PreviewSeeder(model: model, seed: seed, referenceDate: environment.startDate)
        let objects = seeder.objectCount(counts: counts, defaultCount: defaultCount) ?? 0
        progress?(0, 2 * objects)
        _ = try seeder.generate(
            counts: counts, defaultCount: defaultCount,
            into: environment.makeCoordinator(model: model),
            progress: progress.map { report in { report($0, 2 * objects) } })
        var written: [String: Int] = [:]
        let coordinator = try StoreJobDestination.open(
            storeURL, model: model, options: storeOptions, requiresNewFile: requiresNewFile,
            environment: environment
        ) { coordinator in
            written = try seeder.generate(
                counts: counts, defaultCount: defaultCount, into: coordinator,
                progress: progress.map { report in { report(objects + $0, 2 * objects) } }
            ).counts
        }
        progress?(2 * objects, 2 * objects)
        return StoreJobResult(coordinator: coordinator, counts: written)
    }
}
