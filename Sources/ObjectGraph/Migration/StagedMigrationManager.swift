import Foundation

/// Migrates a store through an ordered list of stages, lightweight and custom, into one
/// temporary file committed by a single rename (<doc:VersioningAndMigration#Staged-migration>).
///
/// ```swift
/// let manager = StagedMigrationManager([
///     LightweightMigrationStage([v1.versionChecksum, v2.versionChecksum]),
///     custom,   // CustomMigrationStage(migratingFrom: v2Reference, to: v3Reference)
/// ])
/// let description = PersistentStoreDescription(url: url)
/// description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
/// ```
///
/// A store whose model is one of the stages' versions runs the stages from there; a store of
/// any other model (a newer one included) is refused with 134100. Every stage runs in
/// memory; the file is replaced once, at the end, and kept as `FILE.pre-migration`.
///
/// - Note: Mirrors `NSStagedMigrationManager`.
public final class StagedMigrationManager: NSObject, @unchecked Sendable {
    // Sendable: `_container` is guarded by `lock`; `stages` is immutable.
    /// The stages, in order.
    ///
    /// - Note: Mirrors `stages`.
    public let stages: [MigrationStage]
    private let lock = NSLock()
    private var _container: PersistentContainer?

    /// A manager running `stages` in order.
    ///
    /// - Note: Mirrors `init(_:)`.
    public init(_ stages: [MigrationStage]) {
        self.stages = stages
        super.init()
    }

    /// While a custom stage's handler runs: a container on the store being migrated, at that
    /// stage's version. `nil` otherwise.
    ///
    /// - Note: Mirrors `container`.
    public var container: PersistentContainer? { lock.withLock { _container } }

    /// Runs `body` with ``container`` on an in-memory store holding `table`; returns the rows
    /// as `body` left them.
    func withContainer(_ table: RowTable, _ body: () throws -> Void) throws -> RowTable {
        let store = InMemoryStore(table: table)
        let container = PersistentContainer(name: "migration", managedObjectModel: table.model)
        try container.persistentStoreCoordinator.addPersistentStore(store)
        lock.withLock { _container = container }
        defer { lock.withLock { _container = nil } }
        try body()
        return store.snapshot()
    }

    /// The steps from `stored` to `current`.
    func plan(
        from stored: ManagedObjectModel, to current: ManagedObjectModel,
        known: [ManagedObjectModel],
        path: String, differences: [String], infers: Bool
    ) throws -> MigrationPlan {
        var models = known + [current]
        for case let stage as CustomMigrationStage in stages {
            models += [stage.currentModel.resolvedModel, stage.nextModel.resolvedModel]
        }
        for case let stage as LightweightMigrationStage in stages { models += stage.models }
        func resolve(_ checksum: String) throws -> ManagedObjectModel {
            guard let model = models.first(where: { $0.versionChecksum == checksum }) else {
                throw MigrationErrors.noMapping(
                    path, ["no model of the staged migration has the version checksum \(checksum)"])
            }
            return model
        }
        // The versions in stage order: (stage, model) pairs.
        var points: [(stage: Int, model: ManagedObjectModel)] = []
        for (i, stage) in stages.enumerated() {
            if let custom = stage as? CustomMigrationStage {
                points += [
                    (i, custom.currentModel.resolvedModel), (i, custom.nextModel.resolvedModel),
                ]
            } else if let light = stage as? LightweightMigrationStage {
                points += try light.versionChecksums.map { (i, try resolve($0)) }
            }
        }
        guard
            let start = points.lastIndex(where: {
                SchemaComparison.differences(from: stored, to: $0.model).isEmpty
            })
        else {
            throw MigrationErrors.incompatible(
                path,
                "the file was written with \(MigrationPlan.versionName(of: stored)), which no stage "
                    + "of the staged migration names; a newer program may have written it, and "
                    + "files are never migrated backwards", differences: differences)
        }
        var steps: [MigrationPlan.Step] = []
        var source = stored
        var index = start
        while index < points.count - 1 {
            let next = points[index + 1]
            if let custom = stages[next.stage] as? CustomMigrationStage,
                points[index].stage == next.stage
            {
                let mapping = try MigrationPlan.inferred(
                    from: custom.currentModel.resolvedModel, to: next.model, path: path)
                steps.append(.custom(custom, mapping, self))
            } else if SchemaComparison.differences(from: source, to: next.model).isEmpty {
                // Two stages meeting at one version: nothing to do between them.
            } else {
                guard infers || stages[next.stage] is LightweightMigrationStage else {
                    throw MigrationErrors.noMapping(path, differences, inferenceOff: true)
                }
                steps.append(
                    .lightweight(
                        try MigrationPlan.inferred(from: source, to: next.model, path: path)))
            }
            source = next.model
            index += 1
        }
        if !SchemaComparison.differences(from: source, to: current).isEmpty {
            guard infers else {
                throw MigrationErrors.noMapping(path, differences, inferenceOff: true)
            }
            steps.append(
                .lightweight(try MigrationPlan.inferred(from: source, to: current, path: path)))
        } else if source !== current {
            // The last stage ends at a model equal to the store's but another instance (the
            // references are matched by checksum, as in Core Data): the rows are rebound to the
            // store's model, whose entities their IDs and references must name.
            steps.append(
                .lightweight(try MigrationPlan.inferred(from: source, to: current, path: path)))
        }
        return MigrationPlan(steps: steps)
    }
}
