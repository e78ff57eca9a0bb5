import Foundation

extension ObjectGraphError.Code {
    /// 259: a store file is damaged (a line fails its checksum, does not parse, or breaks
    /// the format's rules). Foundation's `NSFileReadCorruptFileError`, which Core Data reports
    /// for a damaged SQLite file.
    public static let fileReadCorruptFile = ObjectGraphError.Code(rawValue: 259)
}

/// Factories for the errors of the JSON-lines file store and its codec; one per rule, so the
/// wording stays consistent. Every message names the file and, for damage, the line.
enum StoreFileErrors {
    static func valueMismatch(_ value: AttributeValue, _ type: AttributeType) -> ObjectGraphError {
        ObjectGraphError(
            .coreData, "value: \(value) is not a valid \(type.rawValue) value", value: value)
    }

    static func rowValueMismatch(_ row: StoreRow, _ attribute: AttributeDescription, path: String)
        -> ObjectGraphError
    {
        let value = row.values[attribute.index].attributeValue
        return ObjectGraphError(
            .storeSave,
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
            .storeSave,
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
            .fileReadCorruptFile, "store \(path): \(at): \(reason); \(remedy)",
            file: path, line: line, column: column,
            extraUserInfo: [reasonKey: UncheckedSendable(detail)])
    }

    /// What is wrong, without the file and line the message also names.
    static func reason(_ error: any Error) -> String {
        guard let e = error as? ObjectGraphError else { return "\(error)" }
        return e.extraUserInfo[reasonKey]?.value as? String ?? e.message
    }

    static func notAStore(_ path: String, _ reason: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeInvalidType, "store \(path) is not a JSON-lines store file: \(reason)",
            file: path,
            line: 1)
    }

    static func unknownVersion(_ path: String, _ version: Int64) -> ObjectGraphError {
        let readable = StoreFileVersion.readable
        let newer =
            version > Int64(StoreFileVersion.current)
            ? "it was written by a newer version of ObjectGraph; open it with that version or "
                + "a later one" : "no version of ObjectGraph wrote it"
        return ObjectGraphError(
            .storeInvalidType,
            "store \(path) is in format version \(version), which this program does not read "
                + "(it reads versions \(readable.lowerBound)–\(readable.upperBound)): \(newer); the "
                + "file is unchanged", file: path, line: 1)
    }

    static func incompatibleModel(_ path: String, entities: [String], detail: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .storeIncompatibleVersionHash,
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
            .storeTimeout,
            "store \(path) is locked by another writer, \(holder)\(wait); open it read-only, "
                + "or close the other writer", file: path)
    }

    static func io(
        _ code: ObjectGraphError.Code, _ path: String, _ what: String, _ failure: any Error
    )
        -> ObjectGraphError
    {
        ObjectGraphError(code, "store \(path): \(what) failed: \(failure)", file: path)
    }

    static func missing(_ path: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeOpen, "store \(path) does not exist (a read-only store is never created)",
            file: path)
    }

    /// The path a store at `url` works on: the URL's path, or the file a symbolic link there
    /// leads to (so that compaction replaces the file, never the link, and every writer of the
    /// file takes the same lock).
    ///
    /// - Throws: `.storeOpen` (134080) for a URL that is not a file URL or a dangling link.
    static func resolving(_ url: URL, fileSystem fs: any StoreFileSystem) throws -> String {
        guard url.isFileURL else {
            throw ObjectGraphError(
                .storeOpen, "store \(url.absoluteString) is not a file URL",
                file: url.absoluteString)
        }
        do {
            return try fs.resolvingSymbolicLinks(url.path)
        } catch {
            throw io(.storeOpen, url.path, "following the symbolic link", error)
        }
    }

    /// `path` (the store file, or its lock file `lockFile`) is not a regular file.
    static func notRegular(_ path: String, _ kind: FileStatus.Kind, lockFile: String? = nil)
        -> ObjectGraphError
    {
        let subject = lockFile.map { "store \(path): its lock file \($0)" } ?? "store \(path)"
        return ObjectGraphError(
            .storeOpen,
            "\(subject) is \(kind.rawValue), not a regular file; nothing was read or locked",
            file: path)
    }

    static func lockLost(_ path: String, lockPath: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeSave,
            "store \(path): the lock file \(lockPath) was removed or replaced while this writer "
                + "held it, so another writer may be writing; nothing was written. Close this "
                + "store and open it again", file: path)
    }

    static func closed(_ path: String) -> ObjectGraphError {
        ObjectGraphError(.storeOperation, "store \(path) is closed", file: path)
    }

    static func unusable(_ path: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeSave,
            "store \(path) could not undo a failed write and no longer accepts saves; "
                + "close and reopen it", file: path)
    }
}
