import Foundation

/// A stage between two model versions whose change needs code: splitting a field, changing
/// an attribute's type, filling a new required attribute from others.
///
/// The store goes through three steps: ``willMigrateHandler`` runs on the store at the source
/// version, the inferred mapping takes it to the destination version, and
/// ``didMigrateHandler`` runs on it there. Handlers reach the store through
/// `manager.container` (a container whose view context and background contexts see the rows
/// being migrated), save their changes, and may throw to abandon the whole migration: the
/// file is then left as it was.
///
/// ```swift
/// let stage = CustomMigrationStage(migratingFrom: v1Reference, to: v2Reference)
/// stage.willMigrateHandler = { manager, _ in
///     let context = manager.container!.newBackgroundContext()
///     try context.performAndWait { … try context.save() }
/// }
/// ```
///
/// - Note: Mirrors `NSCustomMigrationStage`.
public final class CustomMigrationStage: MigrationStage, @unchecked Sendable {
    // Sendable: the handlers are guarded by the base class's `lock`.
    /// A handler's type: the manager and this stage.
    public typealias Handler =
        @Sendable (StagedMigrationManager, CustomMigrationStage) throws -> Void

    /// The source version.
    public let currentModel: ManagedObjectModelReference
    /// The destination version.
    public let nextModel: ManagedObjectModelReference
    private var _will: Handler?
    private var _did: Handler?

    /// A stage from `currentModel` to `nextModel`.
    ///
    /// - Note: Mirrors `init(migratingFrom:to:)`.
    public init(
        migratingFrom currentModel: ManagedObjectModelReference,
        to nextModel: ManagedObjectModelReference
    ) {
        self.currentModel = currentModel
        self.nextModel = nextModel
    }

    /// Runs before the mapping, on the store at ``currentModel``. Default none.
    ///
    /// - Note: Mirrors `willMigrateHandler`.
    public var willMigrateHandler: Handler? {
        get { lock.withLock { _will } }
        set { lock.withLock { _will = newValue } }
    }

    /// Runs after the mapping, on the store at ``nextModel``. Default none.
    ///
    /// - Note: Mirrors `didMigrateHandler`.
    public var didMigrateHandler: Handler? {
        get { lock.withLock { _did } }
        set { lock.withLock { _did = newValue } }
    }

    /// Runs the stage over `table`: the will handler, the mapping, the did handler.
    func run(
        _ table: consuming RowTable, mapping: InferredMapping, manager: StagedMigrationManager
    )
        throws -> RowTable
    {
        let from = table.model
        var rows = try InferredMapping(from: from, to: currentModel.resolvedModel)
            .migrate(consume table)
        if let handler = willMigrateHandler {
            rows = try manager.withContainer(rows) { try handler(manager, self) }
        }
        rows = try mapping.migrate(consume rows)
        if let handler = didMigrateHandler {
            rows = try manager.withContainer(rows) { try handler(manager, self) }
        }
        return rows
    }
}
