import Foundation

/// What a store file's header records: identity, history and the model it was written with.
///
/// Read it without opening the store through ``JSONLinesStore/metadata(at:)``, e.g. to get
/// the embedded model when no application code is at hand.
///
/// - Note: Mirrors the store metadata of `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:options:)`.
public struct JSONLinesStoreMetadata: Sendable {
    /// The format version of the file: 2 for files this library writes, 1 for older ones
    /// (read as they are; a writer upgrades them when it opens them).
    public let formatVersion: Int
    /// The store's identifier (`NSStoreUUIDKey`).
    public let storeIdentifier: String
    /// When the store was created.
    public let creationDate: Date
    /// When the file was last compacted, or `nil` if never.
    public let compactionDate: Date?
    /// The last transaction folded into the file's snapshot (0 before any compaction).
    public let baseTransactionNumber: Int64
    /// How many rows the snapshot holds.
    public let snapshotRowCount: Int
    /// Root entity name → next free primary key, as of the snapshot.
    public let primaryKeyCounters: [String: Int64]
    /// Entity name → version hash (`NSStoreModelVersionHashesKey`).
    public let entityVersionHashes: [String: Data]
    /// The model embedded in the header.
    public let model: ManagedObjectModel
    /// The store's metadata (see ``JSONLinesStore/setMetadata(_:)``); empty when none.
    public let metadata: [String: any Sendable]
    /// Whether the file records persistent history (its header has a `history` member): a
    /// writer must open it with ``StoreOptions/tracksHistory`` (else it opens read-only).
    public let tracksHistory: Bool

    init(header: StoreFileHeader, model: ManagedObjectModel) {
        self.formatVersion = header.version
        self.storeIdentifier = header.storeIdentifier
        self.creationDate = header.created
        self.compactionDate = header.compacted
        self.baseTransactionNumber = header.base
        self.snapshotRowCount = header.rows
        self.primaryKeyCounters = Dictionary(header.keys, uniquingKeysWith: { a, _ in a })
        self.entityVersionHashes = Dictionary(header.hashes, uniquingKeysWith: { a, _ in a })
        self.model = model
        self.metadata = StoreMetadataCoding.decode(header.metadata)
        self.tracksHistory = header.history != nil
    }
}

/// Sizes and counts of an open store file.
public struct JSONLinesStoreStatistics: Sendable, Equatable {
    /// The file's committed length in bytes (an incomplete last line is not counted).
    public let fileBytes: Int
    /// What a fresh snapshot of the live rows would take, in bytes.
    public let liveBytes: Int
    /// Transaction lines in the file (after its snapshot).
    public let transactionCount: Int
    /// The number of the last committed transaction (monotonic across compactions).
    public let lastTransactionNumber: Int64
    /// Rows in the file's snapshot.
    public let snapshotRowCount: Int
    /// Live rows per entity name (entities of the model, zero included).
    public let rowCounts: [String: Int]

    /// Bytes a compaction would reclaim: the file's size minus ``liveBytes`` (never negative).
    public var deadBytes: Int { max(0, fileBytes - liveBytes) }
}

extension JSONLinesStore {
    /// Reads the header of the store file at `url` without opening the store or taking a lock.
    ///
    /// ```swift
    /// let model = try JSONLinesStore.metadata(at: url).model   // no application code needed
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` — `.storeOpenFailed` (134080) when the file cannot be read;
    ///   `.notAStoreFile` (134000) or `.storeCorrupt` (259) for a bad header.
    public static func metadata(at url: URL) throws -> JSONLinesStoreMetadata {
        try metadata(at: url, fileSystem: PosixFileSystem())
    }

    static func metadata(at url: URL, fileSystem fs: any StoreFileSystem) throws
        -> JSONLinesStoreMetadata
    {
        let path = try StoreFileErrors.resolving(url, fileSystem: fs)
        let bytes: [UInt8]
        do {
            let fd = try fs.openRegularFile(path, .readOnly)
            defer { fs.close(fd) }
            bytes = try fs.readToEnd(fd)
        } catch let e as ObjectGraphError {
            throw e
        } catch {
            if (try? fs.status(atPath: path)) == .some(nil) { throw StoreFileErrors.missing(path) }
            throw StoreFileErrors.io(.storeOpenFailed, path, "reading the header", error)
        }
        let header = try bytes.withUnsafeBytes { try StoreFileLoader.readHeader($0, path: path) }
        return JSONLinesStoreMetadata(header: header, model: try header.model(path: path))
    }

    /// The header of the open file (refreshed first for a reader).
    ///
    /// - Throws: As ``fetch(_:)``.
    public func metadata() throws -> JSONLinesStoreMetadata {
        try locked {
            try refreshIfNeeded()
            return JSONLinesStoreMetadata(header: file!.header, model: model)
        }
    }

    /// Sizes and counts of the open file (refreshed first for a reader).
    ///
    /// - Throws: As ``fetch(_:)``.
    /// - Complexity: O(live rows) the first time (to measure them), O(1) after.
    public func statistics() throws -> JSONLinesStoreStatistics {
        try locked {
            try refreshIfNeeded()
            let file = file!
            return JSONLinesStoreStatistics(
                fileBytes: file.length, liveBytes: liveBytes(),
                transactionCount: file.transactionLines,
                lastTransactionNumber: file.lastTransaction, snapshotRowCount: file.header.rows,
                rowCounts: Dictionary(
                    uniqueKeysWithValues: model.entities.map { ($0.name, table.rowCount(of: $0)) }))
        }
    }
}

extension JSONLinesStore {
    /// The store's metadata: what ``setMetadata(_:)`` recorded, kept in the file's header
    /// and carried across compaction and migration (refreshed first for a reader).
    ///
    /// - Throws: As ``fetch(_:)``.
    /// - Note: Mirrors `NSPersistentStore.metadata` (its application keys).
    public func storeMetadata() throws -> [String: any Sendable] {
        try locked {
            try refreshIfNeeded()
            return StoreMetadataCoding.decode(file!.header.metadata)
        }
    }

    /// Replaces the store's metadata, rewriting the file as a snapshot with the new header
    /// (atomically, as ``compact()``): it is durable when this returns.
    ///
    /// - Parameter metadata: Strings, Booleans, integers, finite doubles, and arrays and
    ///   dictionaries of them.
    /// - Throws: `.coreData` (134060) for a value of another type or a read-only store;
    ///   `.storeOperation` (134070) when writing fails (the file is unchanged).
    /// - Complexity: O(live rows).
    /// - Note: Mirrors `NSPersistentStoreCoordinator.setMetadata(_:for:)`, which Core Data
    ///   writes at the next save.
    public func setMetadata(_ metadata: [String: any Sendable]) throws {
        let bytes = try StoreMetadataCoding.encode(metadata)
        try locked {
            guard var file else { throw StoreFileErrors.closed(path) }
            if isReadOnly {
                throw ObjectGraphError(
                    .readOnlyStore, "store \(path) is open read-only; cannot set its metadata",
                    file: path)
            }
            let previous = file.header.metadata
            file.header.metadata = bytes
            self.file = file
            do { try compactHoldingLock() } catch {
                // Unless the new file is in place (only the directory sync failed).
                if self.file?.fd == file.fd { self.file?.header.metadata = previous }
                throw error
            }
        }
    }
}
