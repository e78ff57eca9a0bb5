import Foundation

extension RowCodec {
    /// Reads a row at the scanner's position.
    ///
    /// - Throws: ``JSONScanError`` naming what is wrong and where.
    func read(_ s: inout JSONScanner) throws -> StoreRow {
        try readValues(&s, try readHead(&s))
    }

    /// The start of a row: `[`, the entity, the primary key and the version.
    func readHead(_ s: inout JSONScanner) throws -> (entityIndex: Int, pk: Int64, version: Int64) {
        try s.expect(0x5B)
        let entityIndex = try readEntity(&s)
        try s.expect(0x2C)
        let pk = try readKey(&s)
        try s.expect(0x2C)
        let start = s.position
        let version = try s.readInt64()
        guard version >= 1 else {
            throw JSONScanError(offset: start, message: "version \(version) is below 1")
        }
        return (entityIndex, pk, version)
    }

    /// The rest of a complete row after ``readHead(_:)``: one value per stored slot, and `]`.
    func readValues(
        _ s: inout JSONScanner, _ head: (entityIndex: Int, pk: Int64, version: Int64)
    ) throws -> StoreRow {
        let (entityIndex, pk, version) = head
        let entity = entities[entityIndex]
        let entitySlots = slots[entityIndex]
        // Each slot is appended once, in order, into storage reserved once. (Building the array
        // with `init(unsafeUninitializedCapacity:)` allocated it through the standard library's
        // unspecialised path, a generic metadata lookup and all: a sixth of reading a row.)
        let count = slotCounts[entityIndex]
        var values: [StoreValue] = []
        values.reserveCapacity(count)
        for slot in entitySlots {
            while values.count < slot.index { values.append(.notStored) }
            guard s.consume(0x2C) else {
                throw s.error(
                    "\(entity.name) rows have \(entitySlots.count) values; expected ','\(s.foundText)"
                )
            }
            values.append(try readValue(&s, slot, entity: entity))
        }
        while values.count < count { values.append(.notStored) }
        guard s.consume(0x5D) else {
            throw s.error(
                "\(entity.name) rows have \(entitySlots.count) values; expected ']'\(s.foundText)")
        }
        return StoreRow(
            objectID: ManagedObjectID(scope: idScopes[entityIndex], primaryKey: pk),
            version: version, values: values)
    }

    func readValue(_ s: inout JSONScanner, _ slot: Slot, entity: EntityDescription) throws
        -> StoreValue
    {
        switch slot.kind {
        case .attribute:
            do {
                if slot.type == .date, readsDatesSince1970, !s.consumeNull() {
                    return .attribute(.date(try StoreFileVersion.readDate(&s, version: 1)))
                }
                return .attribute(try AttributeValue.readCanonicalJSON(as: slot.type, from: &s))
            } catch let e as JSONScanError {
                let name = entity.properties[slot.index].name
                throw JSONScanError(
                    offset: e.offset, message: "\(entity.name).\(name): \(e.message)")
            }
        case .toOne:
            return .toOne(
                s.consumeNull()
                    ? nil : try readReference(&s, destination: entities[slot.destination]))
        case .toMany:
            let destination = entities[slot.destination]
            var targets: [ManagedObjectID] = []
            try s.forEachElement { s in
                targets.append(try readReference(&s, destination: destination))
            }
            return .toMany(targets)
        }
    }

    /// Reads `[entity, pk]`.
    func readObjectKey(_ s: inout JSONScanner) throws -> ManagedObjectID {
        try s.expect(0x5B)
        let entityIndex = try readEntity(&s)
        try s.expect(0x2C)
        let pk = try readKey(&s)
        try s.expect(0x5D)
        return ManagedObjectID(scope: idScopes[entityIndex], primaryKey: pk)
    }

    private func readReference(_ s: inout JSONScanner, destination: EntityDescription) throws
        -> ManagedObjectID
    {
        if s.peek() != 0x5B {
            return ManagedObjectID(scope: idScopes[destination.index], primaryKey: try readKey(&s))
        }
        let start = s.position
        let id = try readObjectKey(&s)
        guard id.entity.isKind(of: destination) else {
            throw JSONScanError(
                offset: start, message: "\(id.entity.name) is not a kind of \(destination.name)")
        }
        return id
    }

    func readKey(_ s: inout JSONScanner) throws -> Int64 {
        let start = s.position
        let pk = try s.readInt64()
        guard pk >= 1 else {
            throw JSONScanError(offset: start, message: "primary key \(pk) is below 1")
        }
        return pk
    }

    /// Reads an entity name; returns the entity's index in the model.
    func readEntity(_ s: inout JSONScanner) throws -> Int {
        s.skipSpace()
        let start = s.position
        // The usual case: a name exactly as this library writes it, quotes included; a quoted
        // name of up to 16 bytes is told by two word compares (`memcmp` per entity cost
        // ≈ 136 instructions a row with two entities).
        if s.end &- start >= 16 {
            let text = UnsafeRawPointer(s.p + start)
            let low = UInt64(littleEndian: text.loadUnaligned(as: UInt64.self))
            let high = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            for i in quotedPrefixes.indices {
                let q = quotedPrefixes[i]
                if q.count > 0, low & q.lowMask == q.low, high & q.highMask == q.high {
                    s.position = start &+ q.count
                    return i
                }
            }
        }
        for (i, quoted) in quotedNames.enumerated() where s.end - start >= quoted.count {
            let same = quoted.withUnsafeBytes { q in
                memcmp(q.baseAddress!, s.p + start, q.count) == 0
            }
            if same && !abstract[i] {
                s.position = start + quoted.count
                return i
            }
        }
        var scratch: [UInt8] = []
        let range = try s.readStringRange(scratch: &scratch)
        let found =
            range.map { entityIndex(named: s.bytes(in: $0)) }
            ?? scratch.withUnsafeBytes { entityIndex(named: $0) }
        guard let index = found else {
            let bytes = range.map { Array(s.bytes(in: $0)) } ?? scratch
            throw JSONScanError(
                offset: start,
                message: "unknown entity \"\(String(decoding: bytes, as: UTF8.self))\"")
        }
        guard !abstract[index] else {
            throw JSONScanError(
                offset: start,
                message: "entity \(model.entities[index].name) is abstract and has no rows")
        }
        return index
    }

    private func entityIndex(named bytes: UnsafeRawBufferPointer) -> Int? {
        for (i, name) in names.enumerated() where name.count == bytes.count {
            if name.withUnsafeBytes({ $0.elementsEqual(bytes) }) { return i }
        }
        return nil
    }
}
