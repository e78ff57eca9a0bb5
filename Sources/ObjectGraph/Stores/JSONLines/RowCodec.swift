import Foundation

/// Encodes and decodes rows as the store file holds them (docs/store-format.md §4):
/// `[entity, pk, version, value…]`, one value per stored slot.
struct RowCodec: Sendable {
    /// One stored slot of an entity, resolved once so the hot loops need no casts.
    enum Slot: Sendable {
        case attribute(index: Int, type: AttributeType, description: AttributeDescription)
        case toOne(index: Int, relationship: RelationshipDescription, destination: EntityDescription)
        case toMany(index: Int, relationship: RelationshipDescription, destination: EntityDescription)
    }

    let model: ManagedObjectModel
    let storeIdentifier: String
    let path: String
    /// Stored slots by entity index.
    let slots: [[Slot]]
    /// `"Name"` with its quotes, by entity index.
    let quotedNames: [[UInt8]]

    init(model: ManagedObjectModel, storeIdentifier: String, path: String) {
        self.model = model
        self.storeIdentifier = storeIdentifier
        self.path = path
        self.slots = model.entities.map { entity in
            Self.storedSlots(of: entity).map { property -> Slot in
                if let r = property as? RelationshipDescription {
                    let destination = r.destinationEntity!
                    return r.isToMany ? .toMany(index: r.index, relationship: r, destination: destination)
                        : .toOne(index: r.index, relationship: r, destination: destination)
                }
                let a = property as! AttributeDescription
                return .attribute(index: a.index, type: a.type, description: a)
            }
        }
        let w = JSONByteWriter(capacity: 64)
        self.quotedNames = model.entities.map { entity in
            w.reset()
            w.append(quoted: entity.name)
            return w.array
        }
    }

    /// The slots a store keeps for `entity`, in slot order: non-transient attributes and
    /// relationships kept in the row (see ``RelationshipDescription/isStoredInRow``).
    static func storedSlots(of entity: EntityDescription) -> [PropertyDescription] {
        entity.properties.filter { property in
            if let r = property as? RelationshipDescription { return r.isStoredInRow }
            return !property.isTransient
        }
    }

    // MARK: Writing

    /// Appends `row`; returns the number of bytes written.
    ///
    /// - Throws: `.storeSave` (134030) when a value does not fit its slot.
    @discardableResult
    func write(_ row: StoreRow, to w: JSONByteWriter) throws -> Int {
        let start = w.count
        let entity = row.objectID.entity
        w.append(0x5B)
        w.append(quotedNames[entity.index])
        w.append(0x2C)
        w.append(integer: row.objectID.primaryKey)
        w.append(0x2C)
        w.append(integer: row.version)
        for slot in slots[entity.index] {
            w.append(0x2C)
            switch slot {
            case .attribute(let index, let type, let attribute):
                guard case .attribute(let value) = row.values[index], value.writeCanonicalJSON(as: type, to: w) else {
                    w.truncate(to: start)
                    throw StoreFileErrors.rowValueMismatch(row, attribute, path: path)
                }
            case .toOne(let index, let relationship, let destination):
                guard case .toOne(let target) = row.values[index] else {
                    w.truncate(to: start)
                    throw StoreFileErrors.rowReferenceMismatch(row, relationship, path: path)
                }
                if let target {
                    guard writeReference(target, destination: destination, to: w) else {
                        w.truncate(to: start)
                        throw StoreFileErrors.rowReferenceMismatch(row, relationship, path: path)
                    }
                } else {
                    w.append(ascii: "null")
                }
            case .toMany(let index, let relationship, let destination):
                guard case .toMany(let targets) = row.values[index] else {
                    w.truncate(to: start)
                    throw StoreFileErrors.rowReferenceMismatch(row, relationship, path: path)
                }
                w.append(0x5B)
                for (i, target) in targets.enumerated() {
                    if i > 0 { w.append(0x2C) }
                    guard writeReference(target, destination: destination, to: w) else {
                        w.truncate(to: start)
                        throw StoreFileErrors.rowReferenceMismatch(row, relationship, path: path)
                    }
                }
                w.append(0x5D)
            }
        }
        w.append(0x5D)
        return w.count - start
    }

    /// Appends a reference: the bare key for the destination entity itself, else `[entity, pk]`.
    private func writeReference(_ id: ManagedObjectID, destination: EntityDescription, to w: JSONByteWriter) -> Bool {
        guard id.storeIdentifier == storeIdentifier, id.entity.isKind(of: destination),
              id.entity.managedObjectModel === model else { return false }
        if id.entity === destination {
            w.append(integer: id.primaryKey)
        } else {
            writeKey(id, to: w)
        }
        return true
    }

    /// Appends `[entity, pk]` (the form of deletes and of references to subentities).
    func writeKey(_ id: ManagedObjectID, to w: JSONByteWriter) {
        w.append(0x5B)
        w.append(quotedNames[id.entity.index])
        w.append(0x2C)
        w.append(integer: id.primaryKey)
        w.append(0x5D)
    }
}
