import Foundation

/// The result of checking a store file: every checksum, the replay, and every reference.
///
/// Produced by ``JSONLinesStore/verify(at:)``; `objectgraph verify FILE` prints it.
public struct JSONLinesStoreVerification: Sendable {
    /// One thing wrong with the file.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line at fault, or `nil` for a problem of the rows as a whole (a
        /// reference to a missing row).
        public let line: Int?
        /// What is wrong.
        public let message: String
        /// `line N: message`, or the message alone.
        public var description: String { line.map { "line \($0): \(message)" } ?? message }
    }

    /// Everything wrong, in file order; empty for a healthy file.
    public let problems: [Problem]
    /// What is not damage but worth knowing: the incomplete last line of an interrupted save
    /// (while no writer holds the file), transactions missing at the end (the file ends
    /// before the end its writer recorded in `FILE.lock`), a leftover `FILE.tmp`. A file
    /// with warnings and no problems is healthy.
    public let warnings: [Problem]
    /// The header, when it could be read.
    public let metadata: JSONLinesStoreMetadata?
    /// Sizes and counts, when the whole file replayed.
    public let statistics: JSONLinesStoreStatistics?

    /// Whether no problem was found.
    public var isHealthy: Bool { problems.isEmpty }
}

extension JSONLinesStore {
    /// Checks the store file at `url` without changing it or taking its lock: the header, every
    /// line's checksum and syntax, the replay of every transaction, and that every stored
    /// reference points at an existing row of the right entity.
    ///
    /// Unlike opening the store, verification goes on after the first damaged line to check
    /// the remaining lines' checksums, so it lists every damaged line.
    ///
    /// ```swift
    /// let report = JSONLinesStore.verify(at: url)
    /// for problem in report.problems { print(problem) }
    /// ```
    ///
    /// - Returns: The problems found (none when healthy), notices, and statistics.
    /// - Complexity: O(file size).
    public static func verify(at url: URL) -> JSONLinesStoreVerification {
        verify(at: url, fileSystem: PosixFileSystem())
    }

    /// ``verify(at:)``, telling `progress` how many rows of the replayed file have had their
    /// references checked, of how many: `(0, total)` once the file is read and replayed
    /// (checksums, syntax, transactions), every ``verificationProgressInterval`` rows, and
    /// `(total, total)` at the end. Not called when the file cannot be read or replayed.
    ///
    /// `progress` runs on the calling thread, before this method returns. Core Data has no
    /// counterpart (it has no file verification).
    ///
    /// - Parameters:
    ///   - url: The store file, as in ``verify(at:)``.
    ///   - progress: Told the rows checked of the rows the file holds.
    /// - Returns: As ``verify(at:)``.
    public static func verify(
        at url: URL, progress: @escaping (_ checked: Int, _ total: Int) -> Void
    ) -> JSONLinesStoreVerification {
        verify(at: url, fileSystem: PosixFileSystem(), progress: progress)
    }

    /// How many rows a verification with progress checks between two reports.
    public static let verificationProgressInterval = 16_384

    static func verify(
        at url: URL, fileSystem fs: any StoreFileSystem, progress: ((Int, Int) -> Void)? = nil
    )
        -> JSONLinesStoreVerification
    {
        func failed(_ error: any Error, metadata: JSONLinesStoreMetadata? = nil)
            -> JSONLinesStoreVerification
        {
            let e = error as? ObjectGraphError
            return JSONLinesStoreVerification(
                problems: [.init(line: e?.line, message: StoreFileErrors.reason(error))],
                warnings: [], metadata: metadata, statistics: nil)
        }
        let metadata: JSONLinesStoreMetadata
        do { metadata = try Self.metadata(at: url, fileSystem: fs) } catch { return failed(error) }
        func resolvedPath(_ url: URL) -> String {
            (try? StoreFileErrors.resolving(url, fileSystem: fs)) ?? url.path
        }
        var options = StoreOptions()
        options.isReadOnly = true
        let store: JSONLinesStore
        do {
            store = try JSONLinesStore(
                model: metadata.model, url: url, options: options, fileSystem: fs)
        } catch {
            var report = failed(error, metadata: metadata)
            if let line = (error as? ObjectGraphError)?.line {
                report = JSONLinesStoreVerification(
                    problems: report.problems
                        + laterChecksumProblems(at: resolvedPath(url), after: line, fileSystem: fs),
                    warnings: [], metadata: metadata, statistics: nil)
            }
            return report
        }
        defer { store.close() }
        do {
            let statistics = try store.statistics()
            let problems = danglingReferences(in: try store.snapshot(), progress: progress)
            return JSONLinesStoreVerification(
                problems: problems,
                warnings: store.openingWarnings.map { .init(line: $0.line, message: $0.message) },
                metadata: metadata, statistics: statistics)
        } catch {
            return failed(error, metadata: metadata)
        }
    }

    /// Checksum and framing problems of the complete lines after line `after`.
    private static func laterChecksumProblems(
        at path: String, after: Int, fileSystem fs: any StoreFileSystem
    )
        -> [JSONLinesStoreVerification.Problem]
    {
        guard let fd = try? fs.open(path, .readOnly) else { return [] }
        defer { fs.close(fd) }
        guard let bytes = try? fs.readToEnd(fd) else { return [] }
        var problems: [JSONLinesStoreVerification.Problem] = []
        bytes.withUnsafeBytes { raw in
            var line = 1
            var start = 0
            while let lf = raw[start...].firstIndex(of: 0x0A) {
                if line > after,
                    let problem = LineFrame.problem(
                        UnsafeRawBufferPointer(rebasing: raw[start..<lf]))
                {
                    problems.append(.init(line: line, message: problem))
                }
                line += 1
                start = lf + 1
            }
        }
        return problems
    }

    /// References from stored relationships to rows that do not exist, and stored inverses
    /// that do not point back.
    private static func danglingReferences(in table: RowTable, progress: ((Int, Int) -> Void)?)
        -> [JSONLinesStoreVerification.Problem]
    {
        var problems: [JSONLinesStoreVerification.Problem] = []
        let entities = table.model.entities.filter { !$0.isAbstract }
        let total = progress == nil ? 0 : entities.reduce(0) { $0 + table.rows(of: $1).count }
        var checked = 0
        progress?(0, total)
        defer { progress?(total, total) }
        func name(_ id: ManagedObjectID) -> String { "\(id.entity.name) p\(id.primaryKey)" }
        func targets(_ value: StoreValue) -> [ManagedObjectID] {
            switch value {
            case .toOne(let id?): [id]
            case .toMany(let ids): ids
            default: []
            }
        }
        for entity in entities {
            for row in table.rows(of: entity) {
                if let progress {
                    checked += 1
                    if checked % verificationProgressInterval == 0 { progress(checked, total) }
                }
                for relationship in entity.relationships where relationship.isStoredInRow {
                    for target in targets(row.values[relationship.index]) {
                        guard let targetRow = table.row(for: target) else {
                            problems.append(
                                .init(
                                    line: nil,
                                    message: "\(name(row.objectID)).\(relationship.name) "
                                        + "points to \(name(target)), which does not exist"))
                            continue
                        }
                        guard let inverse = relationship.inverseRelationship, inverse.isStoredInRow,
                            !targets(targetRow.values[inverse.index]).contains(row.objectID)
                        else { continue }
                        problems.append(
                            .init(
                                line: nil,
                                message: "\(name(row.objectID)).\(relationship.name) "
                                    + "points to \(name(target)), but \(name(target)).\(inverse.name) does not point back"
                            ))
                    }
                }
            }
        }
        return problems
    }
}
