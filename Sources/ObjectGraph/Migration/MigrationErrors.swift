import Foundation

/// Factories for migration errors, one per rule, with Core Data's codes
/// (`../shared/reference/coredata-semantics.md` (k); Apple's `CoreDataErrors.h`).
enum MigrationErrors {
    /// 134100: the file needs a migration the caller did not allow, or its model is not one
    /// the application declares an earlier version of the current one (a newer file, or an
    /// unrelated one): never migrated, so nothing is dropped.
    static func incompatible(_ path: String, _ reason: String, differences: [String])
        -> ObjectGraphError
    {
        ObjectGraphError(
            .incompatibleModel,
            "store \(path): the model used to open the store is incompatible with the one used "
                + "to create the store: \(reason); differences: "
                + differences.prefix(8).joined(separator: "; ")
                + (differences.count > 8 ? "; and \(differences.count - 8) more" : ""),
            file: path)
    }

    /// 134140 with the reason as an underlying 134190: the mapping cannot be inferred (or
    /// inference is off). Core Data reports "Can't find or automatically infer mapping model
    /// for migration" from `loadPersistentStores` in both cases.
    static func noMapping(_ path: String?, _ reasons: [String], inferenceOff: Bool = false)
        -> ObjectGraphError
    {
        let place = path.map { "store \($0): " } ?? ""
        let why =
            inferenceOff
            ? "automatic inference is off (shouldInferMappingModelAutomatically) and no "
                + "staged migration covers the change"
            : reasons.joined(separator: "; ")
        return ObjectGraphError(
            .migrationMissingMappingModel,
            place + "can't find or automatically infer mapping model for migration: " + why,
            file: path,
            underlying: inferenceOff
                ? []
                : [
                    ObjectGraphError(
                        .inferredMappingFailed,
                        "inferred mapping model creation failed: "
                            + reasons.joined(separator: "; "),
                        file: path)
                ])
    }

    /// 134110: rows that lack a value the destination requires.
    static func missingValues(_ what: String, entity: String, key: String, rows: [ManagedObjectID])
        -> ObjectGraphError
    {
        ObjectGraphError(
            .migrationFailed,
            "migration: missing \(what) values on mandatory destination \(what) \(entity).\(key) "
                + "for \(rows.count) row\(rows.count == 1 ? "" : "s"): " + listed(rows),
            entityName: entity, key: key)
    }

    /// 134110: a to-many becoming a to-one where a row has several targets.
    static func severalTargets(entity: String, key: String, rows: [ManagedObjectID])
        -> ObjectGraphError
    {
        ObjectGraphError(
            .migrationFailed,
            "migration: \(entity).\(key) becomes to-one but \(rows.count) row"
                + "\(rows.count == 1 ? " has" : "s have") several targets: " + listed(rows),
            entityName: entity, key: key)
    }

    /// 134111: rows that break a uniqueness constraint of the destination.
    static func constraint(entity: String, constraint: [String], rows: [ManagedObjectID])
        -> ObjectGraphError
    {
        ObjectGraphError(
            .migrationConstraintViolation,
            "migration: \(rows.count) rows of \(entity) share values of the uniqueness "
                + "constraint (\(constraint.joined(separator: ", "))): " + listed(rows),
            entityName: entity, key: constraint.first)
    }

    static func listed(_ rows: [ManagedObjectID]) -> String {
        let shown = rows.prefix(10).map { "\($0.entity.name) p\($0.primaryKey)" }
        return shown.joined(separator: ", ") + (rows.count > 10 ? ", …" : "")
    }
}

extension MigrationErrors {
    /// `error` with the store file named in its message and `NSFilePathErrorKey`.
    static func located(_ error: any Error, path: String) -> any Error {
        guard let e = error as? ObjectGraphError, e.file == nil else { return error }
        return e.relocated(
            message: "store \(path): " + e.message, file: path, line: e.line, column: e.column)
    }
}
