import Foundation

/// One transaction line as read back from a file (<doc:StoreFileFormat#3-Transactions>).
struct TransactionRecord: Sendable {
    var number: Int64 = 0
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    var author: String?
    var contextName: String?
    /// (Version 4, stores tracking history) the committing program and process.
    var bundleID: String?
    var processID: String?
    var inserted: [StoreRow] = []
    /// The inserted rows instead, when the line was read for log replay
    /// (`TransactionLine.read(_:codec:checksum:keepingParts:)`) and its `ins` array across
    /// cores: in the parts the workers read them into, in order (``inserted`` is then empty).
    var insertedParts: [PartRows<StoreRow>] = []
    /// Complete rows, or (version 5) partial rows holding the changed slots only.
    var updated: [RowUpdate] = []
    var deleted: [ManagedObjectID] = []
    /// (Version 6) a batch update recorded as the update itself; a line holding it holds no
    /// `ins`, `upd` or `del`. ``LogReplay`` and ``LogSalvage`` turn it into ``updated`` on the
    /// rows as they are when they reach the line.
    var batch: BatchLine?
    /// Root entity name → next free primary key.
    var keys: [(String, Int64)] = []
}

/// Writes and reads transaction lines.
enum TransactionLine {
    /// Appends the line committing `changes` as transaction `number`, LF included.
    ///
    /// `changedSlots`, when given, has one entry per updated row: the stored slots to write as
    /// a partial row (version 5), or `nil` to write the row complete. `patchWrites` has one
    /// entry per patch of `changes` (`JSONLinesStore.patchWrites(_:)`); required, not
    /// defaulted, so that no caller forgets it for a change set with patches.
    ///
    /// - Precondition: `patchWrites.count == changes.patched.count`.
    /// - Returns: The bytes the inserted and the updated rows written complete would take in a
    ///   snapshot.
    /// - Throws: `.storeWriteFailed` (134030) when a value does not fit its slot; `w` is then left
    ///   as it was.
    static func write(
        _ changes: StoreChangeSet, number: Int64, keys: [(String, Int64)], codec: RowCodec,
        origin: (bundle: String, pid: String)? = nil, changedSlots: [[Int]?]? = nil,
        patchWrites: PatchWrites, to w: JSONByteWriter
    ) throws -> (inserted: Int, updated: Int) {
        try write(
            number: number, timestamp: changes.timestamp, author: changes.author,
            contextName: changes.contextName, keys: keys, origin: origin, to: w
        ) { w, runs in
            try writeMembers(
                changes, codec: codec, changedSlots: changedSlots, patchWrites: patchWrites,
                to: w, runs: &runs)
        }
    }

    /// Appends a transaction line whose change members (`"ins"`, `"upd"`, `"del"`, each with
    /// its leading comma) `members` writes, returning the snapshot sizes of the inserted and
    /// updated rows it wrote complete, and cutting its rows into `runs`; the line's head
    /// (number, time, author, context, origin) comes before them, the keys, runs and checksum
    /// after. Returns what `members` returned.
    ///
    /// - Throws: what `members` throws; `w` is then left as it was.
    static func write(
        number: Int64, timestamp: Date, author: String?, contextName: String?,
        keys: [(String, Int64)], origin: (bundle: String, pid: String)?, to w: JSONByteWriter,
        members: (JSONByteWriter, inout [RowRun]) throws -> (inserted: Int, updated: Int)
    ) throws -> (inserted: Int, updated: Int) {
        let start = w.count
        var sizes = (inserted: 0, updated: 0)
        var runs: [RowRun] = []
        do {
            w.append(ascii: "{\"t\":")
            w.append(integer: number)
            w.append(ascii: ",\"at\":")
            StoreFileVersion.write(timestamp, version: StoreFileVersion.current, to: w)
            if let author {
                w.append(ascii: ",\"author\":")
                w.append(quoted: author)
            }
            if let contextName {
                w.append(ascii: ",\"context\":")
                w.append(quoted: contextName)
            }
            if let origin {
                w.append(ascii: ",\"bundle\":")
                w.append(quoted: origin.bundle)
                w.append(ascii: ",\"pid\":")
                w.append(quoted: origin.pid)
            }
            sizes = try members(w, &runs)
            if !keys.isEmpty {
                w.append(ascii: ",\"keys\":{")
                for (i, (name, next)) in keys.enumerated() {
                    if i > 0 { w.append(0x2C) }
                    w.append(quoted: name)
                    w.append(0x3A)
                    w.append(integer: next)
                }
                w.append(0x7D)
            }
            if !runs.isEmpty { RowRun.writeMember(runs, lineStart: start, to: w) }
        } catch {
            w.truncate(to: start)
            throw error
        }
        LineFrame.finish(w, bodyStart: start, runs: runs)
        return sizes
    }

    /// The change members of the line committing `changes` (see
    /// ``write(_:number:keys:codec:origin:changedSlots:patchWrites:to:)``).
    static func writeMembers(
        _ changes: StoreChangeSet, codec: RowCodec, changedSlots: [[Int]?]?,
        patchWrites: PatchWrites, to w: JSONByteWriter, runs: inout [RowRun]
    ) throws -> (inserted: Int, updated: Int) {
        var sizes = (inserted: 0, updated: 0)
        if !changes.inserted.isEmpty {
            w.append(ascii: ",\"ins\":[")
            sizes.inserted = try codec.write(changes.inserted, to: w, runs: &runs, member: "ins")
            w.append(0x5D)
        }
        if !changes.updated.isEmpty || !changes.patched.isEmpty {
            // Complete rows, then patches (each as a partial or a complete row): one
            // `upd` array, as the file format has it.
            w.append(ascii: ",\"upd\":[")
            if !changes.updated.isEmpty {
                sizes.updated = try codec.write(
                    changes.updated, to: w, runs: &runs, member: "upd", changed: changedSlots)
            }
            if !changes.patched.isEmpty {
                if !changes.updated.isEmpty { w.append(0x2C) }
                sizes.updated += try codec.write(
                    changes.patched, writes: patchWrites, to: w, runs: &runs, member: "upd")
            }
            w.append(0x5D)
        }
        if !changes.deleted.isEmpty {
            w.append(ascii: ",\"del\":[")
            codec.writeKeys(of: changes.deleted, to: w)
            w.append(0x5D)
        }
        return sizes
    }

    /// Reads a transaction line (without its LF; its checksum already checked, or computed
    /// while it is read and checked by the caller before the result is used).
    ///
    /// - Parameter checksum: The line's checksum not yet computed: the first array read across
    ///   cores computes it in the same parts (`LineChecksum`).
    /// - Parameter keepingParts: Whether inserted rows read across cores are left in the parts
    ///   read (``TransactionRecord/insertedParts``) rather than joined into
    ///   ``TransactionRecord/inserted``.
    /// - Throws: ``JSONScanError`` naming what is wrong and where.
    static func read(
        _ line: UnsafeRawBufferPointer, codec: RowCodec, checksum: LineChecksum? = nil,
        keepingParts: Bool = false
    ) throws -> TransactionRecord {
        var s = JSONScanner(line)
        var record = TransactionRecord()
        var seen: Set<String> = []
        try s.forEachMember { key, s in
            if seen.isEmpty && key != "t" {
                throw s.error("a transaction line starts with \"t\", not \"\(key)\"")
            }
            seen.insert(key)
            switch key {
            case "t":
                record.number = try s.readInt64()
                guard record.number >= 1 else {
                    throw s.error("transaction number \(record.number) is below 1")
                }
            case "at":
                record.timestamp = try StoreFileVersion.readDate(&s, version: codec.formatVersion)
            case "author": record.author = s.consumeNull() ? nil : try s.readString()
            case "context": record.contextName = s.consumeNull() ? nil : try s.readString()
            case "bundle": record.bundleID = try s.readString()
            case "pid": record.processID = try s.readString()
            case "ins" where keepingParts:
                (record.inserted, record.insertedParts) = try codec.readRowsInParts(
                    &s, checksum: checksum)
            case "ins": record.inserted = try codec.readRows(&s, checksum: checksum)
            case "upd": record.updated = try codec.readUpdates(&s, checksum: checksum)
            case "del":
                try s.forEachElement { s in record.deleted.append(try codec.readObjectKey(&s)) }
            case "batch":
                guard codec.formatVersion >= 6 else {
                    throw s.error(
                        "a batch line (format version 6) in a file of version \(codec.formatVersion)"
                    )
                }
                record.batch = try codec.readBatch(&s)
            case "keys":
                try s.forEachMember { name, s in
                    let next = try s.readInt64()
                    guard next >= 1 else {
                        throw s.error("the next key of \(name) must be at least 1")
                    }
                    record.keys.append((name, next))
                }
            case "sums": _ = try s.skipValue()  // read by a salvage only (RowRun)
            case "crc": _ = try s.readString()
            default: throw s.error("unknown transaction member \"\(key)\"")
            }
        }
        guard seen.contains("at") else { throw s.error("the transaction has no \"at\" member") }
        let changesRows =
            !record.inserted.isEmpty || !record.insertedParts.isEmpty || !record.updated.isEmpty
            || !record.deleted.isEmpty
        if record.batch != nil {
            guard !changesRows else {
                throw s.error("a batch line holds no \"ins\", \"upd\" or \"del\"")
            }
        } else if !changesRows {
            throw s.error(
                "the transaction changes nothing (no \"ins\", \"upd\", \"del\" or \"batch\")")
        }
        guard s.isAtEnd else { throw s.error("text after the transaction object") }
        return record
    }
}
