import Foundation

extension JSONLinesStore {
    /// Salvages `bytes` (the whole file, read under the lock): replays every intact line,
    /// skipping what cannot apply, and replaces the file with a snapshot of the result
    /// (<doc:StoreFileFormat#73-Salvage>). `nil` when a plain repair does it all: the header is
    /// sound and no complete line is damaged (at most the last line is incomplete).
    ///
    /// - Throws: `.storeCorrupt` (259) when the header is damaged and its content does
    ///   not hold together; the errors of ``RepairAccess/replace(with:end:keeping:what:)``.
    static func salvage(_ bytes: [UInt8], _ access: RepairAccess) throws -> JSONLinesStoreRepair? {
        let path = access.path
        return try bytes.withUnsafeBytes { raw -> JSONLinesStoreRepair? in
            var notes: [String] = []
            let header: StoreFileHeader
            do {
                header = try StoreFileLoader.readHeader(raw, path: path)
            } catch let e as ObjectGraphError where e.reason == .storeCorrupt && e.line == 1 {
                guard let lf = raw.firstIndex(of: 0x0A),
                    let usable = StoreFileHeader.salvageable(
                        UnsafeRawBufferPointer(rebasing: raw[..<lf]), path: path)
                else {
                    throw StoreFileErrors.corrupt(
                        path, line: 1,
                        StoreFileErrors.reason(e)
                            + "; the header does not hold together (its model, hashes and "
                            + "columns disagree or do not parse), so nothing can be salvaged: "
                            + "restore the file from a backup")
                }
                header = usable
                notes.append(
                    "line 1: the header fails its checksum (\(StoreFileErrors.reason(e))); its "
                        + "model, hashes and columns agree, so it was used as it reads")
            }
            let headerLength = raw.firstIndex(of: 0x0A)! + 1
            let codec = RowCodec(
                model: try header.model(path: path), storeIdentifier: header.storeIdentifier,
                path: path, formatVersion: header.version)
            let rest = UnsafeRawBufferPointer(rebasing: raw[headerLength...])
            if notes.isEmpty {
                var probe = try LogReplay(codec: codec, header: header, headerLength: headerLength)
                if (try? probe.apply(rest)) != nil { return nil }
            }
            var salvage = LogSalvage(codec: codec, header: header)
            salvage.apply(rest)
            salvage.repairReferences()
            var snapshot = header
            snapshot.version = StoreFileVersion.current
            snapshot.base = salvage.lastTransaction
            // Persistent history is not salvaged: it starts again after the salvage, so every
            // older token expires rather than return a partial list.
            if snapshot.history != nil {
                snapshot.history = HeaderHistory(start: salvage.lastTransaction, retained: 0)
            }
            snapshot.rows = salvage.table.totalRowCount
            let counters = salvage.table.primaryKeyCounters
            snapshot.keys = header.keys.map { ($0.0, max(counters[$0.0] ?? $0.1, $0.1)) }
            snapshot.compacted = access.options.clock()
            let w = JSONByteWriter(capacity: bytes.count + 4096)
            snapshot.write(to: w)
            let rows = salvage.table.allRows()
            do {
                try codec.writeSnapshotLines(rows, to: w)
            } catch {
                throw StoreFileErrors.io(
                    .storeOperationFailed, path, "encoding the salvaged rows", error)
            }
            let sidecar = try access.replace(
                with: w,
                end: StoreEndRecord(
                    store: header.storeIdentifier, transaction: salvage.lastTransaction,
                    length: w.count), keeping: bytes[...], what: "the salvaged snapshot")
            var result = JSONLinesStoreRepair(
                firstDamagedLine: notes.isEmpty ? salvage.damagedLines.first?.line : 1,
                reason: notes.isEmpty ? salvage.damagedLines.first?.reason : notes[0],
                keptLines: 1 + snapshot.rows, keptBytes: w.count, movedBytes: bytes.count,
                droppedSnapshotRows: 0, sidecarURL: URL(fileURLWithPath: sidecar))
            result.salvaged = true
            result.damagedLines = (notes.isEmpty ? [] : [1]) + salvage.damagedLines.map(\.line)
            result.skipped = notes + salvage.skipped
            result.rowCount = snapshot.rows
            return result
        }
    }
}
