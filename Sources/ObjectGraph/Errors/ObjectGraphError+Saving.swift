import Foundation

/// Factories for the errors a root save throws after validation: conflicts with the store
/// and with uniqueness constraints.
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
            extraUserInfo: [
                NSPersistentStoreSaveConflictsErrorKey: UncheckedSendable(list as [Any]),
                NSAffectedObjectsErrorKey: UncheckedSendable(list.map(\.sourceObject) as [Any]),
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
            extraUserInfo: [
                NSPersistentStoreSaveConflictsErrorKey: UncheckedSendable(list as [Any]),
                NSAffectedObjectsErrorKey: UncheckedSendable(objects as [Any]),
            ])
    }
}

extension SaveErrors {
    /// A store's 1550 "Dangling reference to an invalid object" (see
    /// `RowTable.checkReferences(_:)`), with the saving context's objects attached as Core
    /// Data attaches them: the source object under `NSValidationObjectErrorKey` and the
    /// target object, when the context has it, under `NSValidationValueErrorKey`.
    static func danglingReference(
        _ error: ObjectGraphError, source: ManagedObject?, target: ManagedObject?
    ) -> ObjectGraphError {
        var extra = error.extraUserInfo
        if let source { extra[NSValidationObjectErrorKey] = UncheckedSendable(source as Any) }
        if let target { extra[NSValidationValueErrorKey] = UncheckedSendable(target as Any) }
        return ObjectGraphError(
            error.code, error.message, entityName: error.entityName, key: error.key,
            objectID: error.objectID, file: error.file, extraUserInfo: extra)
    }
}
