import Foundation

/// A store file read and replayed: its header, the rows, and what followed the last line.
struct LoadedStoreFile {
    var header: StoreFileHeader
    var model: ManagedObjectModel
    var replay: LogReplay
    var tail: LogReplay.Tail
    /// How the model the file was written with differs in schema from the model asked for
    /// (``SchemaComparison``); when not empty, ``model`` and the rows are the file's own, and
    /// the store migrates them (or refuses the file).
    var schemaDifferences: [String] = []
}

/// Reads a whole store file: header, snapshot and transactions
/// (<doc:StoreFileFormat#7-Reading-and-what-to-do-with-damage>).
enum StoreFileLoader {
    /// Parses and checks `bytes`, the whole file.
    ///
    /// - Parameter model: The application's model, compared with the model the header embeds
    ///   property by property (``SchemaComparison``): when their schemas agree the rows are
    ///   read with `model`, otherwise with the embedded model and the differences are
    ///   reported in ``LoadedStoreFile/schemaDifferences``. `nil` reads with the embedded
    ///   model (tools that run without application code).
    /// - Parameter prefetched: Rows of large transaction lines read while the file was still
    ///   arriving (``StoreFileStream``), each for the line at its file offset; they change
    ///   nothing the load gives, only how much of it is left to read.
    /// - Parameter parallelAbove: From how many bytes on lines are parsed across cores
    ///   (``LineParser/parallelAbove``; tests lower it), and `rowParts` how many parts a large
    ///   line's arrays are read in (``LineParser/rowParts``).
    /// - Throws: `.notAStoreFile` (134000), `.storeCorrupt` (259), or
    ///   `.incompatibleModel` (134100) when the header's hashes or columns disagree
    ///   with its own embedded model.
    static func load(
        _ bytes: [UInt8], path: String, model: ManagedObjectModel?, logsTransactions: Bool = false,
        prefetched: [PrefetchedRows<StoreRow>] = [],
        parallelAbove: Int = LineParser.parallelBytes, rowParts: Int? = nil
    ) throws -> LoadedStoreFile {
        try bytes.withUnsafeBytes { raw in
            let header = try readHeader(raw, path: path)
            let headerLength = (raw.firstIndex(of: 0x0A) ?? raw.count) + 1
            let (resolved, differences) = try resolve(header, model: model, path: path)
            let codec = RowCodec(
                model: resolved, storeIdentifier: header.storeIdentifier, path: path,
                formatVersion: header.version)
            var replay = try LogReplay(codec: codec, header: header, headerLength: headerLength)
            if logsTransactions { replay.transactionLog = [] }
            replay.parallelAbove = parallelAbove
            replay.rowParts = rowParts
            let tail = try replay.apply(
                UnsafeRawBufferPointer(rebasing: raw[headerLength...]), prefetched: prefetched)
            return LoadedStoreFile(
                header: header, model: resolved, replay: replay, tail: tail,
                schemaDifferences: differences)
        }
    }

    /// The model a file with `header` is read with, and how its schema differs from `model`
    /// (see ``load(_:path:model:logsTransactions:prefetched:parallelAbove:rowParts:)``).
    static func resolve(_ header: StoreFileHeader, model: ManagedObjectModel?, path: String)
        throws -> (model: ManagedObjectModel, differences: [String])
    {
        if let model, header.isWritten(with: model) { return (model, []) }
        var resolved = try header.model(path: path)
        try header.checkCompatible(with: resolved, path: path)
        var differences: [String] = []
        if let model {
            differences = SchemaComparison.differences(from: resolved, to: model)
            if differences.isEmpty { resolved = model }
        }
        return (resolved, differences)
    }

    /// Reads line 1 of `bytes`.
    ///
    /// A file whose first line is framed as a store line (it ends with a checksum member), or
    /// whose first bytes are this format's header opening but for at most one byte, is a store
    /// file: anything wrong with its header is damage of line 1 (259), as `verify` reports it
    /// too. Anything else is a file of another format (134000).
    static func readHeader(_ bytes: UnsafeRawBufferPointer, path: String) throws -> StoreFileHeader
    {
        guard !bytes.isEmpty else { throw StoreFileErrors.notAStore(path, "the file is empty") }
        let lf = bytes.firstIndex(of: 0x0A)
        let line = UnsafeRawBufferPointer(rebasing: bytes[..<(lf ?? bytes.count)])
        let ours =
            LineFrame.endsWithChecksumMember(line) || differences(from: opening, in: bytes) <= 1
        guard lf != nil else {
            guard ours else {
                throw StoreFileErrors.notAStore(path, "line 1 does not start with {\"format\":")
            }
            throw StoreFileErrors.corrupt(
                path, line: 1, "the header line has no newline (the file is cut short)")
        }
        return try StoreFileHeader.read(line, path: path, isStoreFile: ours)
    }

    /// How every header starts.
    private static let opening = Array("{\"format\":\"objectgraph-jsonl\",".utf8)

    /// How many of `expected`'s bytes differ from the start of `bytes` (missing ones count).
    private static func differences(from expected: [UInt8], in bytes: UnsafeRawBufferPointer)
        -> Int
    {
        var count = max(0, expected.count - bytes.count)
        for (i, b) in expected.enumerated() where i < bytes.count && bytes[i] != b { count += 1 }
        return count
    }
}
