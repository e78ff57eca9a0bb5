import Foundation

extension RowCodec {
    /// Reads a row at the scanner's position.
    ///
    /// - Throws: ``JSONScanError`` naming what is wrong and where.
    func read(_ s: inout JSONScanner) throws -> StoreRow {
        try s.expect(0x5B)
        let entity = try readEntity(&s)
        try s.expect(0x2C)
        let pk = try readKey(&s)
        try s.expect(0x2C)
        let start = s.position
        let version = try s.readInt64()
        guard version >= 1 else { throw JSONScanError(offset: start, message: "version \(version) is below 1") }
        let entitySlots = slots[entity.index]
        var values = [StoreValue](repeating: .notStored, count: entity.properties.count)
        for slot in entitySlots {
            guard s.consume(0x2C) else {
                throw s.error("\(entity.name) rows have \(entitySlots.count) values; expected ','\(s.foundText)")
            }
            switch slot {
            case .attribute(let index, let type, let attribute):
                do {
                    values[index] = .attribute(try AttributeValue.readCanonicalJSON(as: type, from: &s))
                } catch let e as JSONScanError {
                    throw JSONScanError(offset: e.offset, message: "\(entity.name).\(attribute.name): \(e.message)")
                }
            case .toOne(let index, _, let destination):
                values[index] = .toOne(s.consumeNull() ? nil : try readReference(&s, destination: destination))
            case .toMany(let index, _, let destination):
                var targets: [ManagedObjectID] = []
                try s.forEachElement { s in targets.append(try readReference(&s, destination: destination)) }
                values[index] = .toMany(targets)
            }
        }
        guard s.consume(0x5D) else {
            throw s.error("\(entity.name) rows have \(entitySlots.count) values; expected ']'\(s.foundText)")
        }
        return StoreRow(objectID: ManagedObjectID(entity: entity, storeIdentifier: storeIdentifier, primaryKey: pk),
                        version: version, values: values)
    }

    /// Reads `[entity, pk]`.
    func readObjectKey(_ s: inout JSONScanner) throws -> ManagedObjectID {
        try s.expect(0x5B)
        let entity = try readEntity(&s)
        try s.expect(0x2C)
        let pk = try readKey(&s)
        try s.expect(0x5D)
        return ManagedObjectID(entity: entity, storeIdentifier: storeIdentifier, primaryKey: pk)
    }

    private func readReference(_ s: inout JSONScanner, destination: EntityDescription) throws -> ManagedObjectID {
        if s.peek() != 0x5B {
            return ManagedObjectID(entity: destination, storeIdentifier: storeIdentifier, primaryKey: try readKey(&s))
        }
        let start = s.position
        let id = try readObjectKey(&s)
        guard id.entity.isKind(of: destination) else {
            throw JSONScanError(offset: start, message: "\(id.entity.name) is not a kind of \(destination.name)")
        }
        return id
    }

    private func readKey(_ s: inout JSONScanner) throws -> Int64 {
        let start = s.position
        let pk = try s.readInt64()
        guard pk >= 1 else { throw JSONScanError(offset: start, message: "primary key \(pk) is below 1") }
        return pk
    }

    private func readEntity(_ s: inout JSONScanner) throws -> EntityDescription {
        let start = s.position
        let name = try s.readString()
        guard let entity = model.entitiesByName[name] else {
            throw JSONScanError(offset: start, message: "unknown entity \"\(name)\"")
        }
        guard !entity.isAbstract else {
            throw JSONScanError(offset: start, message: "entity \(name) is abstract and has no rows")
        }
        return entity
    }
}
