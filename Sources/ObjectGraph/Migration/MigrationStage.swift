import Foundation

/// One stage of a ``StagedMigrationManager``: a lightweight or a custom stage.
///
/// - Note: Mirrors `NSMigrationStage`.
public class MigrationStage: @unchecked Sendable {
    // Sendable: `label` is guarded by `lock`; subclasses guard their own state with it.
    let lock = NSLock()
    private var _label = ""

    init() {}

    /// A name for messages and logs. Default empty.
    ///
    /// - Note: Mirrors `label`.
    public var label: String {
        get { lock.withLock { _label } }
        set { lock.withLock { _label = newValue } }
    }
}

/// A stage whose model versions follow one another by lightweight (inferred) migration.
///
/// ```swift
/// let stage = LightweightMigrationStage([v1.versionChecksum, v2.versionChecksum])
/// ```
///
/// A store whose model is one of the stage's versions is migrated to the stage's last
/// version, each step inferred. The versions are resolved among the models the manager
/// knows: its custom stages' references, the store options' ``StoreOptions/modelVersions``,
/// and the model the store is opened with.
///
/// - Note: Mirrors `NSLightweightMigrationStage`.
public final class LightweightMigrationStage: MigrationStage, @unchecked Sendable {
    // Sendable: immutable after init; `label` is guarded by the base class's lock.
    /// The versions' checksums, oldest first.
    public let versionChecksums: [String]
    /// Models given directly (``init(models:)``), resolved first.
    let models: [ManagedObjectModel]

    /// A stage over the versions with these checksums, oldest first.
    ///
    /// - Note: Mirrors `init(_:)`.
    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
        self.models = []
    }

    /// A stage over these model versions, oldest first.
    public init(models: [ManagedObjectModelReference]) {
        self.versionChecksums = models.map(\.versionChecksum)
        self.models = models.map(\.resolvedModel)
    }
}
