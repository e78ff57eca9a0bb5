import Foundation

/// Something a reader of a store file should be told that is not damage: the torn last line
/// of an interrupted save, lines cut off at a line boundary, a leftover temporary file
/// (<doc:StoreFileFormat#7-Reading-and-what-to-do-with-damage>). Opening reports it once;
/// `objectgraph verify` lists it as a warning and still exits 0.
struct StoreFileWarning: Sendable, Equatable {
    /// The line concerned, when there is one.
    var line: Int?
    /// What is the matter, without the file's name.
    var message: String
}

/// What lies around a store file's lines: whether a writer holds its lock now, where its last
/// writer recorded the file to end, and a leftover `FILE.tmp`.
struct StoreFileSurroundings {
    /// Whether a writer holds `FILE.lock` (`nil` when the platform cannot tell).
    var writerPresent: Bool? = nil
    /// The end record of `FILE.lock`.
    var record: StoreEndRecord? = nil
    /// The size of a leftover `FILE.tmp`, if there is one.
    var temporaryBytes: Int? = nil

    /// Looks around `path` before its lines are read (the record first: a writer records an
    /// end only after the lines are in the file, so a record read first never runs ahead of
    /// the lines read after it).
    static func look(at path: String, fileSystem fs: any StoreFileSystem) -> Self {
        let record = WriterLock.record(forStore: path, fileSystem: fs)
        let writer = fs.isLocked(atPath: path + ".lock")
        let temporary = (try? fs.status(atPath: path + ".tmp")).flatMap { $0?.size }
        return Self(writerPresent: writer, record: record, temporaryBytes: temporary)
    }

    /// The warnings about a file read with `replay`, its header and its `tail`. `recheck`
    /// reads the record again, to rule out a repair that lowered it meanwhile.
    func warnings(
        header: StoreFileHeader, replay: LogReplay, tail: LogReplay.Tail, path: String,
        recheck: () -> StoreEndRecord?
    ) -> [StoreFileWarning] {
        var warnings: [StoreFileWarning] = []
        // While a writer holds the file, a torn line or a temporary file is its work in progress.
        let quiet = writerPresent == true
        if case .torn(let line, let count) = tail, !quiet {
            warnings.append(
                .init(
                    line: line,
                    message: "incomplete last line (\(count) bytes): a save was "
                        + "interrupted before it completed, so it is not part of the store "
                        + "(the next writer removes it)"))
        }
        if let record, record.store == header.storeIdentifier,
            replay.lastTransaction < record.transaction,
            let again = recheck(), again.store == record.store,
            replay.lastTransaction < again.transaction
        {
            let missing = again.transaction - replay.lastTransaction
            warnings.append(
                .init(
                    line: nil,
                    message: "the file ends at transaction \(replay.lastTransaction) (line "
                        + "\(replay.lineCount)), but \((path as NSString).lastPathComponent).lock "
                        + "records that its writer reached transaction \(again.transaction): "
                        + "the last \(missing) transaction\(missing == 1 ? " is" : "s are") "
                        + "missing (the file was cut at a line boundary, or an older copy was "
                        + "restored); the file is used as it is"))
        }
        if let bytes = temporaryBytes, !quiet {
            warnings.append(
                .init(
                    line: nil,
                    message: "\((path as NSString).lastPathComponent).tmp (\(bytes) bytes) is "
                        + "left over from an interrupted compaction or repair; the next writer "
                        + "removes it"))
        }
        return warnings
    }
}
