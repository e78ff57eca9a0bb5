import Foundation

/// The steps that take a file's rows from the model it was written with to the model it is
/// opened with, decided before anything is written (<doc:VersioningAndMigration>).
///
/// Forward only: a file is migrated only when its model is one the application declares an
/// earlier version of the current model (``StoreOptions/modelVersions``, the stages of a
/// ``StoreOptions/stagedMigrationManager``). A file of any other model — a newer version
/// written by a newer program, or an unrelated model — is refused with 134100 naming both
/// versions, never "migrated" by inferring that attributes were removed.
package struct MigrationPlan {
    /// One step of the chain.
    package enum Step {
        /// Inferred: every row mapped through the mapping.
        case lightweight(InferredMapping)
        /// A custom stage: its handlers run around the inferred mapping between its models.
        case custom(CustomMigrationStage, InferredMapping, StagedMigrationManager)
    }

    package let steps: [Step]

    /// A short name for a model version: its version identifiers, else its checksum.
    package static func versionName(of model: ManagedObjectModel) -> String {
        model.versionIdentifiers.isEmpty
            ? "checksum " + model.versionChecksum
            : "version " + model.versionIdentifiers.sorted().joined(separator: ", ")
    }

    /// Plans the migration of a file written with `stored` to `current`.
    ///
    /// - Throws: `.incompatibleModel` (134100) when migration is off or `stored`
    ///   is not a declared earlier version; `.migrationMissingMappingModel` (134140) when
    ///   inference is off and no stage covers a step, or a step cannot be inferred.
    package static func plan(
        from stored: ManagedObjectModel, to current: ManagedObjectModel, options: StoreOptions,
        path: String
    ) throws -> MigrationPlan {
        let differences = SchemaComparison.differences(from: stored, to: current)
        guard options.shouldMigrateStoreAutomatically else {
            throw MigrationErrors.incompatible(
                path,
                "the file's model (\(versionName(of: stored))) differs from the model "
                    + "(\(versionName(of: current))) and automatic migration is off "
                    + "(shouldMigrateStoreAutomatically)", differences: differences)
        }
        if let manager = options.stagedMigrationManager {
            return try manager.plan(
                from: stored, to: current, known: options.modelVersions, path: path,
                differences: differences, infers: options.shouldInferMappingModelAutomatically)
        }
        var chain = options.modelVersions
        if let last = chain.last, SchemaComparison.differences(from: last, to: current).isEmpty {
            chain.removeLast()
        }
        chain.append(current)
        guard
            let start = chain.firstIndex(where: {
                SchemaComparison.differences(from: stored, to: $0).isEmpty
            }), start < chain.count - 1
        else {
            throw MigrationErrors.incompatible(
                path,
                "the file was written with \(versionName(of: stored)), which this program does "
                    + "not declare as an earlier version of its model (\(versionName(of: current))); "
                    + "a newer program may have written it, and files are never migrated backwards",
                differences: differences)
        }
        guard options.shouldInferMappingModelAutomatically else {
            throw MigrationErrors.noMapping(path, differences, inferenceOff: true)
        }
        var steps: [Step] = []
        var source = stored
        for next in chain[(start + 1)...] {
            steps.append(.lightweight(try inferred(from: source, to: next, path: path)))
            source = next
        }
        return MigrationPlan(steps: steps)
    }

    /// ``InferredMapping`` with the file named in its error.
    static func inferred(
        from source: ManagedObjectModel, to destination: ManagedObjectModel, path: String?
    )
        throws -> InferredMapping
    {
        do {
            return try InferredMapping(from: source, to: destination)
        } catch let e as ObjectGraphError where e.reason == .migrationMissingMappingModel {
            throw MigrationErrors.noMapping(
                path,
                e.underlying.map { String($0.message.drop(while: { $0 != ":" }).dropFirst(2)) })
        }
    }

    /// Runs every step over `table`, in memory, calling `afterStep` with the number of
    /// steps done after each. A `table` the caller no longer holds is mapped in place
    /// (``InferredMapping/migrate(_:)``); a shared one is copied first.
    ///
    /// - Throws: 134110, 134111 from a step, or what a custom stage's handler throws.
    package func run(
        _ table: consuming RowTable, afterStep: ((_ stepsDone: Int) -> Void)? = nil
    ) throws -> RowTable {
        var rows = consume table
        for (done, step) in zip(1..., steps) {
            switch step {
            case .lightweight(let mapping):
                rows = try mapping.migrate(consume rows)
            case .custom(let stage, let mapping, let manager):
                rows = try stage.run(consume rows, mapping: mapping, manager: manager)
            }
            // The kill campaign stops here after each step (nothing is written yet).
            PausePoints.reach("migrate.step")
            afterStep?(done)
        }
        return rows
    }

    /// One line per step: what it adds, removes, renames and converts, and how many rows it
    /// touches (for `objectgraph migrate --dry-run` and the store's notice).
    package func describe(rows table: RowTable) -> [String] {
        var lines: [String] = []
        var current = table
        for (i, step) in steps.enumerated() {
            let mapping: InferredMapping
            switch step {
            case .lightweight(let m): mapping = m
            case .custom(let stage, let m, _):
                mapping = m
                lines.append("step \(i + 1): custom stage \(stage.label)")
            }
            lines.append(
                "step \(i + 1): \(Self.versionName(of: mapping.source)) → "
                    + "\(Self.versionName(of: mapping.destination))")
            lines += mapping.describe(rows: current).map { "  " + $0 }
            if let next = try? mapping.migrate(current) { current = next }
        }
        return lines
    }
}
