import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Replays every intact line of a damaged store file, skipping what cannot apply, and leaves
/// rows whose references all hold (<doc:StoreFileFormat#73-Salvage>: `objectgraph repair
/// --salvage`). Where ``LogReplay`` stops at the first damaged line, this goes on: a damaged
/// line loses its own changes only, and each later change that depended on them (an update
/// or delete of a row that never arrived, a reference to it) is skipped and listed.
struct LogSalvage {
    let codec: RowCodec
    var table: RowTable
    /// The highest transaction number seen (the header's `base` before any).
    var lastTransaction: Int64
    /// The damaged lines, in file order.
    var damagedLines: [(line: Int, reason: String)] = []
    /// Each change that could not apply, and each line lost: `line N: …`.
    var skipped: [String] = []
    /// Complete lines read, the header included.
    var lineCount = 1

    var path: String { codec.path }

    init(codec: RowCodec, header: StoreFileHeader) {
        self.codec = codec
        self.table = RowTable(model: codec.model, storeIdentifier: codec.storeIdentifier)
        self.lastTransaction = header.base
        for (name, next) in header.keys {
            if let entity = codec.model.entitiesByName[name], entity.superentity == nil {
                table.reservePrimaryKeys(for: entity, upTo: next)
            }
        }
    }

    /// Applies every complete line of `bytes` (the file after its header) that is intact.
    mutating func apply(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let shared = SharedBytes(bytes: bytes)
        var offset = 0
        while offset < bytes.count, let lf = memchr(base + offset, 0x0A, bytes.count - offset) {
            let end = base.distance(to: UnsafeRawPointer(lf))
            lineCount += 1
            let line = UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
            let isRow = line.starts(with: "{\"row\":".utf8)
            let parsed = LineParser(
                codec: codec, firstNumber: lineCount, snapshotRows: isRow ? 1 : 0
            )
            .parse(shared, [offset..<end])
            switch parsed.first {
            case .row(let row)?: insert(row, line: lineCount, what: "the snapshot")
            case .transaction(let record)?: apply(record, line: lineCount)
            case .history?, .retention?:
                break  // persistent history is not salvaged: the snapshot written has none
            case .damaged(let error)?:
                let reason = StoreFileErrors.reason(error)
                damagedLines.append((lineCount, reason))
                if !isRow, let recovered = RowRun.recover(from: line, codec: codec) {
                    apply(recovered, line: lineCount, reason: reason)
                } else {
                    skipped.append("line \(lineCount): damaged (\(reason)); its changes are lost")
                }
            case nil: break
            }
            offset = end + 1
        }
        if offset < bytes.count {
            skipped.append(
                "line \(lineCount + 1): incomplete (\(bytes.count - offset) bytes of an "
                    + "interrupted save that never completed); dropped")
        }
    }

    private mutating func apply(_ transaction: TransactionRecord, line: Int) {
        var record = transaction
        let t = record.number
        if t > lastTransaction + 1 {
            let missing = t - lastTransaction - 1
            skipped.append(
                "line \(line): transaction \(t) follows transaction \(lastTransaction): "
                    + "\(missing == 1 ? "1 transaction is" : "\(missing) transactions are") missing"
            )
        }
        let what = "transaction \(t)"
        for id in record.deleted {
            if table.row(for: id) != nil {
                table.remove(id)
            } else {
                skipped.append("line \(line): \(what) deletes \(name(id)), which is not there")
            }
        }
        if var batch = record.batch {
            // A batch line's rows as the salvage has them; what cannot apply is listed. Once
            // something before it was lost, an expression would be evaluated on values the
            // writer may never have held: only its constants are applied (as partial rows
            // carry values, not rules).
            if !skipped.isEmpty {
                let expressions = batch.assignments.filter {
                    if case .term = $0.value { true } else { false }
                }
                if !expressions.isEmpty {
                    let entity = codec.model.entities[batch.entityIndex]
                    let names = expressions.map { entity.properties[$0.slot].name }
                    skipped.append(
                        "line \(line): \(what) sets \(names.joined(separator: ", ")) by an "
                            + "expression over values a change lost before it may have changed; "
                            + "not applied")
                    batch.assignments.removeAll {
                        if case .term = $0.value { true } else { false }
                    }
                }
            }
            var listed: [String] = []
            if !batch.assignments.isEmpty {
                record.updated = batch.updates(of: table) {
                    listed.append("line \(line): \(what) \($0)")
                }
            }
            skipped += listed
        }
        apply(updated: record.updated, inserted: record.inserted, line: line, what: what)
        for (entityName, next) in record.keys {
            if let entity = codec.model.entitiesByName[entityName], entity.superentity == nil {
                table.reservePrimaryKeys(for: entity, upTo: next)
            }
        }
        lastTransaction = max(lastTransaction, t)
    }

    /// Applies what the intact row runs of a damaged transaction line hold.
    private mutating func apply(_ recovered: RowRun.Recovered, line: Int, reason: String) {
        let rows = recovered.inserted.count + recovered.updated.count
        skipped.append(
            "line \(line): damaged (\(reason)); \(recovered.intactRuns) of its \(recovered.runs) "
                + "row runs are intact and kept (\(rows) rows); the rest of its changes, its "
                + "deletions included, are lost")
        apply(
            updated: recovered.updated, inserted: recovered.inserted, line: line,
            what: "the damaged line's transaction")
        if let t = recovered.number, t == lastTransaction + 1 { lastTransaction = t }
    }

    /// Applies updates (of rows that exist) then inserts (of rows that do not), listing the rest.
    private mutating func apply(
        updated: [RowUpdate], inserted: [StoreRow], line: Int, what: String
    ) {
        for update in updated {
            if let old = table.row(for: update.objectID) {
                table.upsert(update.applied(to: old))
            } else {
                skipped.append(
                    "line \(line): \(what) updates \(name(update.objectID)), which never arrived")
            }
        }
        for row in inserted { insert(row, line: line, what: what) }
    }

    private mutating func insert(_ row: StoreRow, line: Int, what: String) {
        guard table.row(for: row.objectID) == nil else {
            skipped.append("line \(line): \(what) inserts \(name(row.objectID)), which exists")
            return
        }
        table.upsert(row)
    }

    /// Clears every stored reference to a row that is not there, and every stored reference
    /// whose stored inverse does not point back (each listed); a row that changes gets the
    /// next version. Afterwards every reference holds, as `verify` checks.
    mutating func repairReferences() {
        for entity in table.model.entities where !entity.isAbstract {
            let relationships = entity.relationships.filter(\.isStoredInRow)
            guard !relationships.isEmpty else { continue }
            for row in table.rows(of: entity) where row.objectID.entity === entity {
                var changed = row
                for relationship in relationships {
                    let value = row.values[relationship.index]
                    let kept = targets(value).filter { target in
                        guard let targetRow = table.row(for: target) else {
                            skipped.append(
                                "\(name(row.objectID)).\(relationship.name) pointed to "
                                    + "\(name(target)), which is not there: cleared")
                            return false
                        }
                        guard let inverse = relationship.inverseRelationship, inverse.isStoredInRow
                        else { return true }
                        if targets(targetRow.values[inverse.index]).contains(row.objectID) {
                            return true
                        }
                        skipped.append(
                            "\(name(row.objectID)).\(relationship.name) pointed to "
                                + "\(name(target)), whose \(inverse.name) does not point back: "
                                + "cleared")
                        return false
                    }
                    if kept.count != targets(value).count {
                        changed.values[relationship.index] =
                            relationship.isToMany ? .toMany(kept) : .toOne(kept.first)
                    }
                }
                if changed.values != row.values {
                    changed.version += 1
                    table.upsert(changed)
                }
            }
        }
    }

    private func targets(_ value: StoreValue) -> [ManagedObjectID] {
        switch value {
        case .toOne(let id?): [id]
        case .toMany(let ids): ids
        default: []
        }
    }

    private func name(_ id: ManagedObjectID) -> String { "\(id.entity.name) p\(id.primaryKey)" }
}
