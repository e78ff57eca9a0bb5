import Foundation

extension ObjectGraphError.Reason {
    /// 134050 (`NSPersistentStoreSaveConflictsError`): a store found a changed or deleted row's
    /// version not the one the save expected, or an inserted ID that exists.
    public static let storeSaveConflict = Self("storeSaveConflict", code: 134050)
    /// 1550 (`NSManagedObjectValidationError`, "Dangling reference to an invalid object"): a
    /// save would write a reference to a row that will not exist; the source object is under
    /// `NSValidationObjectErrorKey`, the target under `NSValidationValueErrorKey`.
    public static let danglingReference = Self("danglingReference", code: 1550)
    /// 134030 (`NSPersistentStoreSaveError`): a save, batch request or repair on a store opened
    /// read-only.
    public static let readOnlyStore = Self("readOnlyStore", code: 134030)
    /// 134030 (`NSPersistentStoreSaveError`): a change set's row that belongs to another store
    /// or model, or whose values do not fit its entity's attributes and relationships.
    public static let invalidStoreRow = Self("invalidStoreRow", code: 134030)
}

extension ObjectGraphError {
    /// ``Reason/storeSaveConflict`` (134050), for `catch` clauses.
    public static var storeSaveConflict: Reason { .storeSaveConflict }
    /// ``Reason/danglingReference`` (1550), for `catch` clauses.
    public static var danglingReference: Reason { .danglingReference }
    /// ``Reason/readOnlyStore`` (134030), for `catch` clauses.
    public static var readOnlyStore: Reason { .readOnlyStore }
    /// ``Reason/invalidStoreRow`` (134030), for `catch` clauses.
    public static var invalidStoreRow: Reason { .invalidStoreRow }
}

/// Store error factories shared by the built-in stores.
enum StoreErrors {
    static func conflict(_ id: ManagedObjectID, _ what: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeSaveConflict, "store: \(id.entity.name) \(id) \(what)",
            entityName: id.entity.name, objectID: id)
    }

    static func readOnly(_ url: URL?, _ what: String = "save") -> ObjectGraphError {
        ObjectGraphError(
            .readOnlyStore, "store: \(url?.path ?? "the store") is open read-only; cannot \(what)",
            file: url?.path)
    }

    static func invalidStoreRow(_ id: ManagedObjectID) -> ObjectGraphError {
        ObjectGraphError(
            .invalidStoreRow, "store: row \(id) does not belong to this store or model",
            entityName: id.entity.name, objectID: id)
    }

    /// A written reference to a row that does not exist after the change set.
    static func danglingReference(_ source: ManagedObjectID, slot: Int, target: ManagedObjectID)
        -> ObjectGraphError
    {
        let entity = source.entity
        let key = entity.properties[slot].name
        return ObjectGraphError(
            .danglingReference,
            "Dangling reference to an invalid object: \(entity.name) p\(source.primaryKey)."
                + "\(key) points to \(target.entity.name) p\(target.primaryKey), which does "
                + "not exist in the store (deleted by another save?); nothing was saved",
            entityName: entity.name, key: key, objectID: source,
            userInfo: [NSValidationValueErrorKey: target])
    }
}
