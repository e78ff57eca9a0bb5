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
