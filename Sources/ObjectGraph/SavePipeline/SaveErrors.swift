import Foundation

extension ObjectGraphError.Reason {
    /// 133020 (`NSManagedObjectMergeError`): optimistic-locking conflicts the merge policy did
    /// not resolve; the conflicts are under `NSPersistentStoreSaveConflictsErrorKey`.
    public static let mergeConflict = Self("mergeConflict", code: 133020)
    /// 133021 (`NSManagedObjectConstraintMergeError`): uniqueness-constraint conflicts the merge
    /// policy did not resolve; the conflicts are under `NSPersistentStoreSaveConflictsErrorKey`.
    public static let constraintConflict = Self("constraintConflict", code: 133021)
    /// 134030 (`NSPersistentStoreSaveError`): a root save with no store to write to (no
    /// coordinator, no store loaded, or its store was removed).
    public static let noPersistentStore = Self("noPersistentStore", code: 134030)
    /// 134060 (`NSCoreDataError`): `willSave()` overrides kept changing objects; the save
    /// stopped after 100 rounds.
    public static let saveDidNotSettle = Self("saveDidNotSettle", code: 134060)
    /// 134040 (`NSPersistentStoreIncompleteSaveError`): a save over several stores failed in
    /// one of them after another kept its part (a store outside this module that committed
    /// in one step, or a written part that could not be taken back); the store that failed is
    /// under `NSAffectedStoresErrorKey` (as Core Data puts "the stores prompting an error"
    /// there), those that kept their part under ``KeptStoresErrorKey``, the failure under
    /// ``ObjectGraphError/underlying``.
    public static let incompleteSave = Self("incompleteSave", code: 134040)
}

extension ObjectGraphError {
    /// ``Reason/mergeConflict`` (133020), for `catch ObjectGraphError.mergeConflict`.
    public static var mergeConflict: Reason { .mergeConflict }
    /// ``Reason/constraintConflict`` (133021), for `catch` clauses.
    public static var constraintConflict: Reason { .constraintConflict }
    /// ``Reason/noPersistentStore`` (134030), for `catch` clauses.
    public static var noPersistentStore: Reason { .noPersistentStore }
    /// ``Reason/saveDidNotSettle`` (134060), for `catch` clauses.
    public static var saveDidNotSettle: Reason { .saveDidNotSettle }
    /// ``Reason/incompleteSave`` (134040), for `catch` clauses.
    public static var incompleteSave: Reason { .incompleteSave }
}

/// Factories for the errors a save throws after validation: conflicts with the store and
/// with uniqueness constraints, and saves with nowhere to go.
enum SaveErrors {
    /// 133020: optimistic-locking conflicts the `.error` policy refuses to merge.
    static func mergeConflict(_ list: [MergeConflict]) -> ObjectGraphError {
        let first = list.first?.sourceObject
        return ObjectGraphError(
            .mergeConflict,
            "save: \(list.count) object\(list.count == 1 ? "" : "s") changed in the store since read: "
                + list.map(\.description).joined(separator: " | ")
                + "; refetch or refresh them, or set a merge policy",
            entityName: first?.entity.name, objectID: first?.objectID,
            userInfo: [
                NSPersistentStoreSaveConflictsErrorKey: list,
                NSAffectedObjectsErrorKey: list.map(\.sourceObject),
            ])
    }

    /// 133021: uniqueness-constraint conflicts the merge policy did not (or could not) resolve.
    static func constraintConflict(_ list: [ConstraintConflict], reason: String? = nil)
        -> ObjectGraphError
    {
        let first = list.first
        let objects = list.flatMap(\.conflictingObjects)
        return ObjectGraphError(
            .constraintConflict,
            "save: \(list.count) uniqueness constraint conflict\(list.count == 1 ? "" : "s"): "
                + list.map(\.description).joined(separator: " | ")
                + "; "
                + (reason ?? "change the values, or set a merge policy that merges duplicates"),
            entityName: first?.entityName, key: first?.constraint.joined(separator: ","),
            objectID: objects.first?.objectID,
            userInfo: [
                NSPersistentStoreSaveConflictsErrorKey: list,
                NSAffectedObjectsErrorKey: objects,
            ])
    }
}

extension SaveErrors {
    /// A store's 1550 "Dangling reference to an invalid object" (see
    /// `ReferenceCheck`), with the saving context's objects attached as Core
    /// Data attaches them: the source object under `NSValidationObjectErrorKey` and the
    /// target object, when the context has it, under `NSValidationValueErrorKey`.
    static func danglingReference(
        _ error: ObjectGraphError, source: ManagedObject?, target: ManagedObject?
    ) -> ObjectGraphError {
        var extra: [String: Any] = [:]
        if let source { extra[NSValidationObjectErrorKey] = source }
        if let target { extra[NSValidationValueErrorKey] = target }
        return error.relocated(message: error.message, file: error.file, userInfo: extra)
    }

    /// A relationship whose target is saved to another store than its source: `error` is the
    /// store's dangling-reference error (1550), reworded to say why and what to do.
    static func crossStoreReference(
        _ error: ObjectGraphError, source: ManagedObject?, target: ManagedObject?,
        targetStore: String
    ) -> ObjectGraphError {
        var extra: [String: Any] = [:]
        if let source { extra[NSValidationObjectErrorKey] = source }
        if let target { extra[NSValidationValueErrorKey] = target }
        let sourceStore = error.objectID?.storeIdentifier ?? "?"
        let message =
            "save: \(error.entityName ?? "an object").\(error.key ?? "?") in store "
            + "\(sourceStore) points to an object in store \(targetStore); a relationship "
            + "cannot cross stores (keep related entities in one configuration, or assign(_:to:) "
            + "both objects to one store; link stores with a fetched property or a stored ID). "
            + "Nothing was saved"
        return error.relocated(message: message, file: error.file, userInfo: extra)
    }

    /// A root save with no store: no coordinator, or none loaded.
    static func noStore(_ what: String, entity: String? = nil) -> ObjectGraphError {
        ObjectGraphError(.noPersistentStore, "save: \(what)", entityName: entity)
    }

    /// 134040: `failure`, from the store `failed`, failed a save over several stores after
    /// `kept` (which could not be taken back) kept their part of it.
    static func incompleteSave(
        _ failure: any Error, failed: (any PersistentStore)?, kept: [any PersistentStore]
    ) -> ObjectGraphError {
        let names = kept.map { "\($0.type) store \($0.identifier)" }.joined(separator: ", ")
        let failing = failed.map { "\($0.type) store \($0.identifier)" } ?? "a store"
        return ObjectGraphError(
            .incompleteSave,
            "save: \(failing) failed (\(failure)) and \(names) kept "
                + "\(kept.count == 1 ? "its" : "their") part of the save; the context keeps all "
                + "its changes, so a retry would write that part again: reset or refetch before "
                + "retrying",
            underlying: [.wrapping(failure)],
            userInfo: [
                NSAffectedStoresErrorKey: failed.map { [$0] } ?? [],
                KeptStoresErrorKey: kept,
            ])
    }

    /// `willSave()` overrides that never stop changing objects.
    static func didNotSettle(rounds: Int) -> ObjectGraphError {
        ObjectGraphError(
            .saveDidNotSettle,
            "save: willSave() kept changing objects for \(rounds) rounds; stopping")
    }

    /// Validation methods that let go of pending changes at every try (see `save()`).
    static func validationDidNotSettle(rounds: Int) -> ObjectGraphError {
        ObjectGraphError(
            .saveDidNotSettle,
            "save: validation methods let go of pending changes (reset(), rollback(), a "
                + "nested save()) in each of \(rounds) tries; stopping")
    }
}
