import Foundation

/// An `upd` entry of a transaction line as read back (<doc:StoreFileFormat#3-Transactions>): a
/// complete row, or (format version 5) a partial row holding only the stored slots the update
/// changed, which applies to the row it updates.
enum RowUpdate: Sendable {
    /// A complete row (§4).
    case complete(StoreRow)
    /// `[entity, pk, version, {column: value, …}]`: the changed slots' new values.
    case partial(PartialRow)

    /// The updated object.
    var objectID: ManagedObjectID {
        switch self {
        case .complete(let row): row.objectID
        case .partial(let row): row.objectID
        }
    }

    /// The version the update leaves the row at.
    var version: Int64 {
        switch self {
        case .complete(let row): row.version
        case .partial(let row): row.version
        }
    }

    /// The row as the update leaves it: a complete row as it is; a partial row's values over
    /// `old` (the row it updates), with its version.
    func applied(to old: StoreRow) -> StoreRow {
        switch self {
        case .complete(let row): return row
        case .partial(let partial):
            var row = old
            row.version = partial.version
            for (slot, value) in zip(partial.slots, partial.values) { row.values[slot] = value }
            return row
        }
    }
}

/// The changed slots of an updated row, as a version-5 transaction line carries them.
struct PartialRow: Sendable {
    /// The updated object.
    var objectID: ManagedObjectID
    /// The version the update leaves the row at (the old version + 1).
    var version: Int64
    /// The changed slots (indexes in the entity's properties), ascending.
    var slots: [Int]
    /// Each changed slot's new value, in the order of ``slots``.
    var values: [StoreValue]

    /// The names of the changed properties, in slot order: what persistent history records as
    /// the update's changed properties.
    var propertyNames: [String] {
        let properties = objectID.entity.properties
        return slots.map { properties[$0].name }
    }
}

extension RowCodec {
    /// The stored slots whose values differ between `old` and `new` (rows of one object), in
    /// slot order: the slots a partial row carries.
    func changedSlots(from old: StoreRow, to new: StoreRow, entityIndex: Int) -> [Int] {
        var changed: [Int] = []
        for slot in slots[entityIndex]
        where slot.index < old.values.count && old.values[slot.index] != new.values[slot.index] {
            changed.append(slot.index)
        }
        return changed
    }

    /// The stored slots among `slots` (ascending) of the entity at `entityIndex`.
    func storedOnly(_ slots: [Int], entityIndex: Int) -> [Int] {
        let entitySlots = self.slots[entityIndex]
        return slots.filter { index in entitySlots.contains { $0.index == index } }
    }

    /// Whether an update changing `changed` of the entity's stored slots is written as a partial
    /// row: when it changes fewer than half of them, so that the values it leaves out outweigh
    /// the column names it adds (a row of one stored slot is always written complete).
    func writesPartially(changed: Int, entityIndex: Int) -> Bool {
        2 * changed < slots[entityIndex].count
    }

    /// Appends the partial row of `row` (its new state) carrying only `changed` (stored slots,
    /// ascending): `["Entity",pk,version,{"column":value,…}]`. Returns the bytes written.
    ///
    /// - Throws: `.storeWriteFailed` (134030) when a value does not fit its slot; `w` is then
    ///   left as it was.
    @discardableResult
    func writePartial(_ row: StoreRow, changed: [Int], entityIndex: Int, to w: JSONByteWriter)
        throws -> Int
    {
        try writePartial(
            row.objectID, version: row.version, changed: changed, entityIndex: entityIndex,
            to: w, value: { _, slot in row.values[slot] }, mismatch: { mismatch(row, slot: $0) })
    }

    /// ``writePartial(_:changed:entityIndex:to:)`` with each changed slot's new value read
    /// through `value` (given its position in `changed` and the slot: a patch's, a batch
    /// plan's), and the error of a value that does not fit made by `mismatch`.
    func writePartial(
        _ id: ManagedObjectID, version: Int64, changed: [Int], entityIndex: Int,
        to w: JSONByteWriter, value: (_ position: Int, _ slot: Int) -> StoreValue,
        mismatch: (Int) -> ObjectGraphError
    ) throws -> Int {
        let start = w.count
        writeHead(id, version: version, entityIndex: entityIndex, to: w)
        w.append(ascii: ",{")
        let entitySlots = slots[entityIndex]
        var next = 0
        for (k, index) in changed.enumerated() {
            while next < entitySlots.count && entitySlots[next].index < index { next += 1 }
            guard next < entitySlots.count, entitySlots[next].index == index else {
                w.truncate(to: start)
                throw StoreFileErrors.failed(
                    .invalidStoreRow, path,
                    "cannot write slot \(index) of \(id): it is not stored")
            }
            if k > 0 { w.append(0x2C) }
            w.append(quotedColumns[entityIndex][next])
            w.append(0x3A)
            guard write(value(k, index), entitySlots[next], to: w) else {
                w.truncate(to: start)
                throw mismatch(index)
            }
        }
        w.append(ascii: "}]")
        return w.count - start
    }

    /// A lower bound of the bytes `row` takes as a snapshot line, found without encoding it:
    /// strings count their UTF-8 bytes and quotes (escaping only adds), UUIDs their 38 bytes,
    /// data its base64, nulls and Booleans 4, every other value 1.
    func snapshotSizeLowerBound(of row: StoreRow, entityIndex: Int) -> Int {
        let entitySlots = slots[entityIndex]
        var total =
            quotedNames[entityIndex].count + 6 + entitySlots.count + LineFrame.snapshotRowOverhead
        for slot in entitySlots {
            switch row.values[slot.index] {
            case .attribute(let value):
                switch value {
                case .string(let text): total += text.utf8.count + 2
                case .uuid: total += 38
                case .data(let data), .transformable(let data):
                    total += (data.count + 2) / 3 * 4 + 2
                case .null, .boolean: total += 4
                default: total += 1
                }
            case .toOne(nil): total += 4
            case .toMany(let targets): total += targets.isEmpty ? 2 : 1 + 2 * targets.count
            default: total += 1
            }
        }
        return total
    }

    /// The bytes the values of `changed` (stored slots) of `row` take in its snapshot line.
    func valueBytes(of row: StoreRow, changed: [Int], entityIndex: Int, using w: JSONByteWriter)
        -> Int
    {
        valueBytes(changed: changed, entityIndex: entityIndex, using: w) { _, slot in
            row.values[slot]
        }
    }

    /// ``valueBytes(of:changed:entityIndex:using:)`` with each slot's value read through
    /// `value` (given its position in `changed` and the slot).
    func valueBytes(
        changed: [Int], entityIndex: Int, using w: JSONByteWriter,
        value: (_ position: Int, _ slot: Int) -> StoreValue
    ) -> Int {
        let bySlot = slots[entityIndex]
        var total = 0
        for (k, index) in changed.enumerated() {
            guard let slot = bySlot.first(where: { $0.index == index }) else { continue }
            w.reset()
            _ = write(value(k, index), slot, to: w)
            total += w.count
        }
        return total
    }

    /// Reads an `upd` entry: a complete row, or a partial row (version 5 on).
    ///
    /// - Throws: ``JSONScanError`` naming what is wrong and where; a partial row in a file of
    ///   an earlier version, an unknown or unstored column, or a column given twice included.
    func readUpdate(_ s: inout JSONScanner) throws -> RowUpdate {
        let head = try readHead(&s)
        s.skipSpace()
        guard s.peek() == 0x2C, s.position + 1 < s.end else {
            return .complete(try readValues(&s, head))
        }
        let save = s.position
        s.position += 1
        s.skipSpace()
        guard s.peek() == 0x7B else {
            s.position = save
            return .complete(try readValues(&s, head))
        }
        guard formatVersion >= 5 else {
            throw s.error(
                "a partial row (format version 5) in a file of version \(formatVersion)")
        }
        let entity = entities[head.entityIndex]
        let entitySlots = slots[head.entityIndex]
        let columns = quotedColumns[head.entityIndex]
        var found: [(slot: Int, value: StoreValue)] = []
        try s.expect(0x7B)
        if !s.consume(0x7D) {
            repeat {
                s.skipSpace()
                let start = s.position
                var k = columns.firstIndex { quoted in
                    s.end - start >= quoted.count
                        && quoted.withUnsafeBytes { memcmp($0.baseAddress!, s.p + start, $0.count) }
                            == 0
                }
                if k != nil {
                    s.position = start + columns[k!].count
                } else {
                    let name = try s.readString()
                    k = entitySlots.firstIndex { entity.properties[$0.index].name == name }
                    guard k != nil else {
                        throw JSONScanError(
                            offset: start,
                            message: "\(entity.name) has no stored column \"\(name)\"")
                    }
                }
                let slot = entitySlots[k!]
                guard !found.contains(where: { $0.slot == slot.index }) else {
                    throw JSONScanError(
                        offset: start,
                        message:
                            "duplicate member \"\(entity.properties[slot.index].name)\"")
                }
                try s.expect(0x3A)
                found.append((slot.index, try readValue(&s, slot, entity: entity)))
            } while s.consume(0x2C)
            guard s.consume(0x7D) else { throw s.error("expected ',' or '}'\(s.foundText)") }
        }
        guard s.consume(0x5D) else {
            throw s.error("a partial row ends after its object; expected ']'\(s.foundText)")
        }
        found.sort { $0.slot < $1.slot }
        return .partial(
            PartialRow(
                objectID: ManagedObjectID(scope: idScopes[head.entityIndex], primaryKey: head.pk),
                version: head.version, slots: found.map(\.slot), values: found.map(\.value)))
    }

    /// Reads a JSON array of `upd` entries at the scanner's position, across cores when large.
    ///
    /// - Parameter checksum: A large line's checksum for the split read to compute
    ///   (`readAcrossCores`), when no earlier array of the line claimed it; its threshold
    ///   replaces `minimum`.
    func readUpdates(
        _ s: inout JSONScanner, parallelAbove minimum: Int = LineParser.parallelBytes,
        checksum: LineChecksum? = nil
    ) throws -> [RowUpdate] {
        if s.end - s.position >= checksum?.rowsParallelAbove ?? minimum,
            let rows = readAcrossCores(
                &s, parts: checksum?.rowParts ?? ParallelChunks.balancedPartCount(),
                checksum: checksum, { codec, s in try codec.readUpdate(&s) })
        {
            return rows
        }
        var rows: [RowUpdate] = []
        try s.forEachElement { s in rows.append(try readUpdate(&s)) }
        return rows
    }
}
