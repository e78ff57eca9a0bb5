import Foundation

extension RowCodec {
    /// Appends `rows` separated by commas; returns the bytes they would take as snapshot lines.
    /// Many rows are encoded across cores.
    ///
    /// - Throws: `.storeWriteFailed` (134030) for the first row (in order) with a value that does not
    ///   fit; `w` is then left as it was.
    func write(
        _ rows: [StoreRow], to w: JSONByteWriter,
        parallelAbove minimum: Int = ParallelChunks.threshold
    ) throws -> Int {
        var unused: [RowRun] = []
        return try write(rows, to: w, runs: &unused, member: nil, parallelAbove: minimum)
    }

    /// ``write(_:to:parallelAbove:)``, also cutting the rows into runs of about
    /// ``RowRun/targetBytes`` (whole rows each) of the array `member`, appended to `runs`
    /// with their offsets in `w`. A run's checksum is computed (on the core that encoded it)
    /// only when its rows take at least ``RowRun/targetBytes``; a line that small carries no
    /// runs.
    ///
    /// When `changed` is given (one entry per row), a row whose entry is not `nil` is written as
    /// a partial row carrying those slots only (``writePartial(_:changed:entityIndex:to:)``);
    /// the returned size counts complete rows only.
    func write(
        _ rows: [StoreRow], to w: JSONByteWriter, runs: inout [RowRun], member: String?,
        changed: [[Int]?]? = nil, parallelAbove minimum: Int = ParallelChunks.threshold
    ) throws -> Int {
        // Room for complete rows of a few columns, or partial rows of one or two (a writer
        // grows when rows are wider).
        try writeEntries(
            count: rows.count, bytesEach: changed == nil ? 192 : 64, to: w, runs: &runs,
            member: member, parallelAbove: minimum
        ) { i, local, entities in
            let entityIndex = entities.index(of: rows[i].objectID)
            if let slots = changed?[i] ?? nil {
                try writePartial(rows[i], changed: slots, entityIndex: entityIndex, to: local)
                return 0
            }
            return try write(rows[i], entityIndex: entityIndex, to: local)
                + LineFrame.snapshotRowOverhead
        }
    }

    /// The core of ``write(_:to:runs:member:changed:parallelAbove:)``: appends `count`
    /// entries separated by commas, each written by `encode` (given its position, the chunk's
    /// writer and an entity memo), which returns the bytes the entry counts toward the
    /// snapshot size; returns their sum. Cuts the entries into runs as that function says.
    func writeEntries(
        count: Int, bytesEach: Int, to w: JSONByteWriter, runs: inout [RowRun],
        member: String?, parallelAbove minimum: Int = ParallelChunks.threshold,
        encode: @Sendable (Int, JSONByteWriter, inout EntityIndexMemo) throws -> Int
    ) throws -> Int {
        if let spill = w.spill, let member, count &* bytesEach >= LineSpill.minimumBytes {
            return try writeEntries(
                count: count, bytesEach: bytesEach, spillingTo: spill, after: w, runs: &runs,
                member: member, encode: encode)
        }
        let start = w.count
        let chunks = ParallelChunks.chunkCount(for: count, minimum: minimum)
        typealias Part = (bytes: FilledWriter, size: Int, runs: [RowRun])
        let parts = ParallelChunks.map(chunks) { k -> Result<Part, any Error> in
            let range = ParallelChunks.range(k, of: chunks, count: count)
            let local = JSONByteWriter(capacity: range.count * bytesEach)
            var size = 0
            var entities = EntityIndexMemo()
            var localRuns: [RowRun] = []
            var runStart = 0
            do {
                for i in range {
                    if i > range.lowerBound { local.append(0x2C) }
                    if runStart < 0 { runStart = local.count }
                    size += try encode(i, local, &entities)
                    if member != nil, local.count - runStart >= RowRun.targetBytes {
                        localRuns.append(
                            RowRun(
                                member: member!, start: runStart, length: local.count - runStart,
                                crc: 0))
                        runStart = -1
                    }
                }
            } catch {
                return .failure(error)
            }
            if let member, runStart >= 0, local.count > runStart {
                localRuns.append(
                    RowRun(member: member, start: runStart, length: local.count - runStart, crc: 0))
            }
            if local.count >= RowRun.targetBytes {
                for i in localRuns.indices {
                    let run = localRuns[i]
                    localRuns[i].crc = CRC32C.checksum(
                        UnsafeRawBufferPointer(
                            rebasing: local.bytes[run.start..<(run.start + run.length)]))
                }
            }
            return .success((FilledWriter(local), size, localRuns))
        }
        var total = 0
        var collected: [RowRun] = []
        do {
            try w.reserve(parts.reduce(parts.count) { try $0 + $1.get().bytes.count })
            for (k, part) in parts.enumerated() {
                let (bytes, size, partRuns) = try part.get()
                if k > 0 { w.append(0x2C) }
                let offset = w.count
                bytes.moveOut(to: w)
                total += size
                collected += partRuns.map { run in
                    var run = run
                    run.start += offset
                    return run
                }
            }
        } catch {
            w.truncate(to: start)
            throw error
        }
        if w.count - start >= RowRun.targetBytes {
            // A part too small to have computed its runs' checksums (rows of a few bytes) gets
            // them here. (The buffer starts at offset `w.spilled` when an earlier array of the
            // line spilled; these entries are all in it.)
            let bufferStart = w.spilled
            for i in collected.indices where collected[i].length < RowRun.targetBytes {
                let run = collected[i]
                let from = run.start - bufferStart
                collected[i].crc = CRC32C.checksum(
                    UnsafeRawBufferPointer(rebasing: w.bytes[from..<(from + run.length)]))
            }
            runs += collected
        }
        return total
    }

    /// ``writeEntries(count:bytesEach:to:runs:member:parallelAbove:encode:)`` for a line that
    /// spills (see ``LineSpill``): writes `w`'s bytes so far, then encodes the entries in
    /// waves of parts of about ``LineSpill/partBytes`` (one part per core), writing each
    /// wave's parts in order as soon as it is done and freeing them. Each part is cut into
    /// runs of its own (a run ends at the end of its part too), and its checksum is combined
    /// from its runs' and the commas between them.
    ///
    /// - Throws: what `encode` throws, or the spill's write error; bytes may have reached the
    ///   file, which the caller then truncates.
    private func writeEntries(
        count: Int, bytesEach: Int, spillingTo spill: LineSpill, after w: JSONByteWriter,
        runs: inout [RowRun], member: String,
        encode: @Sendable (Int, JSONByteWriter, inout EntityIndexMemo) throws -> Int
    ) throws -> Int {
        try spill.flush(w)
        let perPart = max(1, LineSpill.partBytes / max(1, bytesEach))
        let cores = ParallelChunks.chunkCount(for: count, minimum: 0)
        typealias Part = (bytes: FilledWriter, size: Int, runs: [RowRun], crc: UInt32)
        var total = 0
        var first = 0
        while first < count {
            let waveEnd = min(count, first + perPart * cores)
            let parts = (waveEnd - first + perPart - 1) / perPart
            let waveStart = first
            let results = ParallelChunks.map(parts) { k -> Result<Part, any Error> in
                let lower = waveStart + k * perPart
                let upper = min(waveEnd, lower + perPart)
                let local = JSONByteWriter(capacity: (upper - lower) * bytesEach + 64)
                var size = 0
                var entities = EntityIndexMemo()
                var localRuns: [RowRun] = []
                var runStart = -1
                do {
                    for i in lower..<upper {
                        // A comma before every entry but the array's first: a part starts
                        // with the one that separates it from the part before.
                        if i > 0 { local.append(0x2C) }
                        if runStart < 0 { runStart = local.count }
                        size += try encode(i, local, &entities)
                        if local.count - runStart >= RowRun.targetBytes {
                            localRuns.append(
                                RowRun(
                                    member: member, start: runStart,
                                    length: local.count - runStart, crc: 0))
                            runStart = -1
                        }
                    }
                } catch {
                    return .failure(error)
                }
                if runStart >= 0, local.count > runStart {
                    localRuns.append(
                        RowRun(
                            member: member, start: runStart, length: local.count - runStart,
                            crc: 0))
                }
                for i in localRuns.indices {
                    let run = localRuns[i]
                    localRuns[i].crc = CRC32C.checksum(
                        UnsafeRawBufferPointer(
                            rebasing: local.bytes[run.start..<(run.start + run.length)]))
                }
                let crc = RowRun.checksum(of: local, from: 0, runs: localRuns)
                return .success((FilledWriter(local), size, localRuns, crc))
            }
            for result in results {
                let part = try result.get()
                let offset = w.count
                try part.bytes.spill(to: spill, crc: part.crc, after: w)
                total += part.size
                runs += part.runs.map { run in
                    var run = run
                    run.start += offset
                    return run
                }
            }
            first = waveEnd
        }
        return total
    }

    /// Appends one snapshot line (`{"row":…,"crc":"…"}` and LF) per row; many rows are encoded
    /// across cores.
    ///
    /// - Throws: `.storeWriteFailed` (134030) when a value does not fit; `w` is then left as it was.
    func writeSnapshotLines(
        _ rows: [StoreRow], to w: JSONByteWriter,
        parallelAbove minimum: Int = ParallelChunks.threshold
    ) throws {
        try writeSnapshotLines(rows[...], to: w, parallelAbove: minimum)
    }

    /// ``writeSnapshotLines(_:to:parallelAbove:)`` for some of an array's rows (a wave of a
    /// compaction, which writes each wave to the file before encoding the next).
    func writeSnapshotLines(
        _ rows: ArraySlice<StoreRow>, to w: JSONByteWriter,
        parallelAbove minimum: Int = ParallelChunks.threshold
    ) throws {
        let chunks = ParallelChunks.chunkCount(for: rows.count, minimum: minimum)
        let first = rows.startIndex
        let parts = ParallelChunks.map(chunks) { k -> Result<FilledWriter, any Error> in
            let offsets = ParallelChunks.range(k, of: chunks, count: rows.count)
            let range = (first + offsets.lowerBound)..<(first + offsets.upperBound)
            let local = JSONByteWriter(capacity: range.count * 192)
            var entities = EntityIndexMemo()
            do {
                for i in range {
                    let lineStart = local.count
                    local.append(ascii: "{\"row\":")
                    try write(rows[i], entityIndex: entities.index(of: rows[i]), to: local)
                    LineFrame.finish(local, bodyStart: lineStart)
                }
            } catch {
                return .failure(error)
            }
            return .success(FilledWriter(local))
        }
        let start = w.count
        do {
            try w.reserve(parts.reduce(0) { try $0 + $1.get().count })
            for part in parts { try part.get().moveOut(to: w) }
        } catch {
            w.truncate(to: start)
            throw error
        }
    }
}

/// The index of the last entity seen: rows come in runs of one entity, and reading
/// `EntityDescription.index` (a class property, each read checked for exclusive access) once
/// per run is cheaper than once per row.
struct EntityIndexMemo {
    private var entity: EntityDescription?
    private var index = 0

    mutating func index(of row: StoreRow) -> Int { index(of: row.objectID) }

    mutating func index(of id: ManagedObjectID) -> Int {
        let current = id.entity
        if current !== entity {
            entity = current
            index = current.index
        }
        return index
    }
}

/// A chunk's writer, filled by one worker of ``ParallelChunks/map(_:_:)`` and handed to the
/// caller, which copies its bytes into the line once and frees its storage at once (the
/// parts used to be copied into arrays first: a third copy of a large save's line, alive
/// until the end of the encoding).
struct FilledWriter: @unchecked Sendable {
    // Sendable: only the worker that fills the writer touches it until `ParallelChunks.map`
    // returns; after that only the caller does.
    private let writer: JSONByteWriter

    init(_ writer: JSONByteWriter) { self.writer = writer }

    /// The number of bytes written.
    var count: Int { writer.count }

    /// Appends the bytes to `w`, then frees the writer's storage.
    func moveOut(to w: JSONByteWriter) {
        w.append(writer.bytes)
        writer.reset(keepingCapacity: 0)
    }

    /// Writes the bytes, whose checksum is `crc`, through `spill` as the line's next bytes
    /// after `w`'s, then frees the writer's storage (also when the write fails).
    func spill(to spill: LineSpill, crc: UInt32, after w: JSONByteWriter) throws {
        defer { writer.reset(keepingCapacity: 0) }
        try spill.write(part: writer.bytes, crc: crc, after: w)
    }
}
