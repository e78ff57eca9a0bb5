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
    /// 134030 (`NSPersistentStoreSaveError`): the writer's lock file was removed or replaced
    /// while it held it; nothing was written, and the store must be reopened.
    public static let storeLockLost = Self("storeLockLost", code: 134030)
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
    /// ``Reason/storeLockLost`` (134030), for `catch` clauses.
    public static var storeLockLost: Reason { .storeLockLost }
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
        let remedy =
            line == 1
            ? "the header cannot be rebuilt from the other lines: run `objectgraph repair "
                + "--salvage \(path)`, which uses a damaged header whose content holds together, or "
                + "restore the file from a backup"
            : "run `objectgraph repair \(path)` to keep the lines before it, or `objectgraph "
                + "repair --salvage \(path)` to keep the intact lines after it too"
        return ObjectGraphError(
            .storeCorrupt, "store \(path): \(at): \(reason); \(remedy)",
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

    /// A file in a format version this build does not read (newer, or never written).
    static func unknownVersion(_ path: String, _ version: Int64) -> ObjectGraphError {
        let readable = StoreFileVersion.readable
        let newer =
            version > Int64(StoreFileVersion.current)
            ? "it was written by a newer version of ObjectGraph; open it with that version or "
                + "a later one" : "no version of ObjectGraph wrote it"
        return ObjectGraphError(
            .notAStoreFile,
            "store \(path) is in format version \(version), which this program does not read "
                + "(it reads versions \(readable.lowerBound)–\(readable.upperBound)): \(newer); the "
                + "file is unchanged", file: path, line: 1)
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

    /// The path a store at `url` works on: the URL's path, or the file a symbolic link there
    /// leads to (so that compaction replaces the file, never the link, and every writer of the
    /// file takes the same lock).
    ///
    /// - Throws: ``ObjectGraphError/Reason/storeOpenFailed`` (134080) for a URL that is not a
    ///   file URL or a dangling link.
    static func resolving(_ url: URL, fileSystem fs: any StoreFileSystem) throws -> String {
        guard url.isFileURL else {
            throw ObjectGraphError(
                .storeOpenFailed, "store \(url.absoluteString) is not a file URL",
                file: url.absoluteString)
        }
        do {
            return try fs.resolvingSymbolicLinks(url.path)
        } catch {
            throw io(.storeOpenFailed, url.path, "following the symbolic link", error)
        }
    }

    /// `path` (the store file, or its lock file `lockFile`) is not a regular file.
    static func notRegular(_ path: String, _ kind: FileStatus.Kind, lockFile: String? = nil)
        -> ObjectGraphError
    {
        let subject = lockFile.map { "store \(path): its lock file \($0)" } ?? "store \(path)"
        return ObjectGraphError(
            .storeOpenFailed,
            "\(subject) is \(kind.rawValue), not a regular file; nothing was read or locked",
            file: path)
    }

    static func lockLost(_ path: String, lockPath: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeLockLost,
            "store \(path): the lock file \(lockPath) was removed or replaced while this writer "
                + "held it, so another writer may be writing; nothing was written. Close this "
                + "store and open it again", file: path)
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
