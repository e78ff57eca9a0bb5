import Foundation

extension ObjectGraphError.Reason {
    /// 259 (Foundation's `NSFileReadCorruptFileError`, which Core Data reports for a damaged
    /// SQLite file): a store file line fails its checksum, does not parse, or breaks the
    /// format's rules; the message names the line.
    public static let storeCorrupt = Self("storeCorrupt", code: 259)
    /// 134000 (`NSPersistentStoreInvalidTypeError`): the file is not a store of this type, or
    /// of a format version this build cannot read.
    public static let notAStoreFile = Self("notAStoreFile", code: 134000)
    /// 134100 (`NSPersistentStoreIncompatibleVersionHashError`): the store was written with
    /// another model.
    public static let incompatibleModel = Self("incompatibleModel", code: 134100)
    /// 134090 (`NSPersistentStoreTimeoutError`): another process holds the store's writer lock.
    public static let storeLocked = Self("storeLocked", code: 134090)
    /// 134080 (`NSPersistentStoreOpenError`): the store file could not be opened, read or
    /// created (the underlying error is in the message).
    public static let storeOpenFailed = Self("storeOpenFailed", code: 134080)
    /// 134080 (`NSPersistentStoreOpenError`): a read-only store's file does not exist (a
    /// reader never creates one).
    public static let storeFileNotFound = Self("storeFileNotFound", code: 134080)
    /// 134070 (`NSPersistentStoreOperationError`): reading, following, compacting or repairing
    /// an open store failed.
    public static let storeOperationFailed = Self("storeOperationFailed", code: 134070)
    /// 134070 (`NSPersistentStoreOperationError`): the store was closed.
    public static let storeClosed = Self("storeClosed", code: 134070)
    /// 134030 (`NSPersistentStoreSaveError`): appending a save to the file, or syncing it,
    /// failed; the file is as it was.
    public static let storeWriteFailed = Self("storeWriteFailed", code: 134030)
    /// 134030 (`NSPersistentStoreSaveError`): a failed write could not be undone; the store
    /// refuses saves until reopened.
    public static let storeUnusable = Self("storeUnusable", code: 134030)
    /// 134060 (`NSCoreDataError`): a value that does not fit its attribute type.
    public static let valueTypeMismatch = Self("valueTypeMismatch", code: 134060)
    /// 134060 (`NSCoreDataError`): text that does not read as a value in the store's canonical
    /// form.
    public static let invalidValueText = Self("invalidValueText", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/storeCorrupt`` (259), for `catch` clauses.
    public static var storeCorrupt: Reason { .storeCorrupt }
    /// ``Reason/notAStoreFile`` (134000), for `catch` clauses.
    public static var notAStoreFile: Reason { .notAStoreFile }
    /// ``Reason/incompatibleModel`` (134100), for `catch` clauses.
    public static var incompatibleModel: Reason { .incompatibleModel }
    /// ``Reason/storeLocked`` (134090), for `catch` clauses.
    public static var storeLocked: Reason { .storeLocked }
    /// ``Reason/storeOpenFailed`` (134080), for `catch` clauses.
    public static var storeOpenFailed: Reason { .storeOpenFailed }
    /// ``Reason/storeFileNotFound`` (134080), for `catch` clauses.
    public static var storeFileNotFound: Reason { .storeFileNotFound }
    /// ``Reason/storeOperationFailed`` (134070), for `catch` clauses.
    public static var storeOperationFailed: Reason { .storeOperationFailed }
    /// ``Reason/storeClosed`` (134070), for `catch` clauses.
    public static var storeClosed: Reason { .storeClosed }
    /// ``Reason/storeWriteFailed`` (134030), for `catch` clauses.
    public static var storeWriteFailed: Reason { .storeWriteFailed }
    /// ``Reason/storeUnusable`` (134030), for `catch` clauses.
    public static var storeUnusable: Reason { .storeUnusable }
    /// ``Reason/valueTypeMismatch`` (134060), for `catch` clauses.
    public static var valueTypeMismatch: Reason { .valueTypeMismatch }
    /// ``Reason/invalidValueText`` (134060), for `catch` clauses.
    public static var invalidValueText: Reason { .invalidValueText }
}

/// Factories for the errors of the JSON-lines file store and its codec; one per rule, so the
/// wording stays consistent. Every message names the file and, for damage, the line.
enum StoreFileErrors {
    static func valueMismatch(_ value: AttributeValue, _ type: AttributeType) -> ObjectGraphError {
        ObjectGraphError(
            .valueTypeMismatch, "value: \(value) is not a valid \(type.rawValue) value",
            value: value)
    }

    static func invalidValueText(_ problem: String, type: AttributeType, column: Int)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidValueText, "value: \(problem) in \(type.rawValue) text at column \(column)",
            column: column)
    }

    static func rowValueMismatch(_ row: StoreRow, _ attribute: AttributeDescription, path: String)
        -> ObjectGraphError
    {
        let value = row.values[attribute.index].attributeValue
        return ObjectGraphError(
            .invalidStoreRow,
            "store \(path): \(row.objectID.entity.name).\(attribute.name) of \(row.objectID) "
                + "holds \(value), not a \(attribute.type.rawValue) value",
            entityName: row.objectID.entity.name, key: attribute.name, value: value,
            objectID: row.objectID, file: path)
    }

    static func rowReferenceMismatch(
        _ row: StoreRow, _ relationship: RelationshipDescription, path: String
    )
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidStoreRow,
            "store \(path): \(row.objectID.entity.name).\(relationship.name) of \(row.objectID) "
                + "holds a value that is not a \(relationship.isToMany ? "list of" : "single") permanent "
                + "\(relationship.destinationEntityName) ID of this store",
            entityName: row.objectID.entity.name, key: relationship.name, objectID: row.objectID,
            file: path)
    }

    /// The userInfo key under which damage errors keep their bare reason (no file, no line).
    static let reasonKey = "ObjectGraphDamageReason"

    static func corrupt(_ path: String, line: Int, _ reason: String, column: Int? = nil)
        -> ObjectGraphError
    {
        let at = column.map { "line \(line), column \($0)" } ?? "line \(line)"
        let detail = column.map { "\(reason) (column \($0))" } ?? reason
        return ObjectGraphError(
            .storeCorrupt,
            "store \(path): \(at): \(reason); run `objectgraph repair \(path)` to keep the good part",
            file: path, line: line, column: column, userInfo: [reasonKey: detail])
    }

    /// What is wrong, without the file and line the message also names.
    static func reason(_ error: any Error) -> String {
        guard let e = error as? ObjectGraphError else { return "\(error)" }
        return e.userInfo[reasonKey] as? String ?? e.message
    }

    static func notAStore(_ path: String, _ reason: String) -> ObjectGraphError {
        ObjectGraphError(
            .notAStoreFile, "store \(path) is not a JSON-lines store file: \(reason)",
            file: path,
            line: 1)
    }

    static func incompatibleModel(_ path: String, entities: [String], detail: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .incompatibleModel,
            "store \(path) was written with another model: \(detail) (entities: "
                + "\(entities.joined(separator: ", ")))",
            entityName: entities.first, file: path)
    }

    static func locked(_ path: String, pid: String?, inThisProcess: Bool, waited: TimeInterval)
        -> ObjectGraphError
    {
        let holder =
            inThisProcess
            ? "this process (another JSONLinesStore is open for writing)"
            : pid.map { "process \($0)" } ?? "another process"
        let wait = waited > 0 ? " after waiting \(waited) s" : ""
        return ObjectGraphError(
            .storeLocked,
            "store \(path) is locked by another writer, \(holder)\(wait); open it read-only, "
                + "or close the other writer", file: path)
    }

    /// An I/O failure: `reason` is ``ObjectGraphError/Reason/storeOpenFailed``,
    /// ``ObjectGraphError/Reason/storeOperationFailed`` or
    /// ``ObjectGraphError/Reason/storeWriteFailed``.
    static func io(
        _ reason: ObjectGraphError.Reason, _ path: String, _ what: String, _ failure: any Error
    ) -> ObjectGraphError {
        ObjectGraphError(reason, "store \(path): \(what) failed: \(failure)", file: path)
    }

    /// A failure with no underlying error (a file that is not a regular file, a store that
    /// was replaced): `reason` as in ``io(_:_:_:_:)``.
    static func failed(_ reason: ObjectGraphError.Reason, _ path: String, _ what: String)
        -> ObjectGraphError
    {
        ObjectGraphError(reason, "store \(path) \(what)", file: path)
    }

    static func missing(_ path: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeFileNotFound, "store \(path) does not exist (a read-only store is never created)",
            file: path)
    }

    static func closed(_ path: String) -> ObjectGraphError {
        ObjectGraphError(.storeClosed, "store \(path) is closed", file: path)
    }

    static func unusable(_ path: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeUnusable,
            "store \(path) could not undo a failed write and no longer accepts saves; "
                + "close and reopen it", file: path)
    }
}
