import Foundation

/// Encodes and decodes rows as the store file holds them (<doc:StoreFileFormat#4-Rows>):
/// `[entity, pk, version, value…]`, one value per stored slot.
struct RowCodec: Sendable {
    /// One stored slot of an entity, resolved once so the hot loops need no casts (and,
    /// holding no references, cost no retains).
    struct Slot: Sendable {
        enum Kind: Sendable { case attribute, toOne, toMany }
        let kind: Kind
        /// The slot's index in the entity's properties.
        let index: Int
        /// The attribute's type (attributes only).
        let type: AttributeType
        /// The destination entity's index in the model (relationships only).
        let destination: Int
    }

    let model: ManagedObjectModel
    /// The format version of the lines read (``StoreFileVersion``); lines written are always
    /// of the current version.
    var formatVersion: Int
    /// Whether `date` values read are seconds since 1970 (version 1), not since 2001.
    var readsDatesSince1970: Bool { StoreFileVersion.datesSince1970(formatVersion) }
    /// The store identifier of the IDs read and written.
    let storeIdentifier: String
    /// The ID scope of each entity in this store, by entity index: IDs read are made from
    /// these, with no interning per ID.
    let idScopes: [ObjectIDScope]
    let path: String
    /// Stored slots by entity index (copied for each reading thread, see ``forOneThread()``).
    private(set) var slots: [[Slot]]
    /// ``slots`` in one array, each entity's from `slotStarts[e]` to `slotStarts[e + 1]`: a
    /// written row reads its entity's slots from it, where the inner array of ``slots`` was
    /// retained and released for each row (copied for each reading thread too).
    private(set) var flatSlots: [Slot]
    /// Where each entity's slots start in ``flatSlots``, by entity index, then its count.
    let slotStarts: [Int]
    /// The model's entities, by index (copied for each reading thread).
    private(set) var entities: [EntityDescription]
    /// `"Name"` with its quotes, by entity index.
    let quotedNames: [[UInt8]]
    /// `,["Name",` by entity index: a key's bytes before its number, after a comma (see
    /// ``writeKey(_:to:)`` and ``writeKeys(of:to:)``, which drop the comma where none goes);
    /// a row's head without the comma (`writeHead`).
    let keyHeads: [[UInt8]]
    /// ``keyHeads`` in one array of bytes, each entity's from `keyHeadStarts[e]` to
    /// `keyHeadStarts[e + 1]`: a written row's head is read from it (``keyHeads``' inner
    /// array was retained and released for each row).
    let keyHeadBytes: [UInt8]
    /// Where each entity's key head starts in ``keyHeadBytes``, by entity index, then its count.
    let keyHeadStarts: [Int]
    /// `"column"` with its quotes, by entity index, then by position in the entity's stored
    /// slots (``slots``): the member names of partial rows.
    let quotedColumns: [[[UInt8]]]
    /// The UTF-8 of each entity's name, by entity index.
    let names: [[UInt8]]
    /// The number of slots (stored or not) of each entity, by entity index.
    let slotCounts: [Int]
    /// Whether each entity is abstract, by entity index.
    let abstract: [Bool]
    /// The quoted name of each concrete entity whose quoted name fits 16 bytes, as two
    /// words to compare with the text, by entity index (copied for each reading thread).
    private(set) var quotedPrefixes: [QuotedPrefix]

    /// Up to 16 bytes of a quoted name, zero-padded, with the mask of the bytes it holds.
    struct QuotedPrefix: Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var lowMask: UInt64 = 0
        var highMask: UInt64 = 0
        /// The bytes it holds; 0 when the name is longer or its entity abstract (no match).
        var count = 0

        init(_ quoted: [UInt8], usable: Bool) {
            guard usable, quoted.count <= 16 else { return }
            for (i, b) in quoted.enumerated() {
                let shift = UInt64(8 * (i % 8))
                if i < 8 {
                    low |= UInt64(b) << shift
                    lowMask |= 0xFF << shift
                } else {
                    high |= UInt64(b) << shift
                    highMask |= 0xFF << shift
                }
            }
            count = quoted.count
        }
    }

    /// A copy whose tables have storage of their own, for rows decoded on another thread:
    /// every row reads its entity's slot table, and threads retaining one shared buffer
    /// contend for its reference count (a cache line bounced between the cores). (Decoded IDs
    /// retain their entity's shared ``ObjectIDScope``, as they retained the entity before.)
    func forOneThread() -> RowCodec {
        var copy = self
        copy.slots = slots.map { $0.map { $0 } }
        copy.flatSlots = flatSlots.map { $0 }
        copy.entities = entities.map { $0 }
        copy.quotedPrefixes = quotedPrefixes.map { $0 }
        return copy
    }

    init(
        model: ManagedObjectModel, storeIdentifier: String, path: String,
        formatVersion: Int = StoreFileVersion.current
    ) {
        self.model = model
        self.formatVersion = formatVersion
        self.storeIdentifier = storeIdentifier
        self.idScopes = ObjectIDScope.of(model, store: storeIdentifier)
        self.path = path
        self.entities = model.entities
        self.slots = model.entities.map { entity in
            Self.storedSlots(of: entity).map { property -> Slot in
                if let r = property as? RelationshipDescription {
                    return Slot(
                        kind: r.isToMany ? .toMany : .toOne, index: r.index, type: .undefined,
                        destination: r.destinationEntity!.index)
                }
                return Slot(
                    kind: .attribute, index: property.index,
                    type: (property as! AttributeDescription).type,
                    destination: -1)
            }
        }
        self.flatSlots = slots.flatMap { $0 }
        self.slotStarts = slots.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        self.names = model.entities.map { Array($0.name.utf8) }
        self.slotCounts = model.entities.map(\.properties.count)
        self.abstract = model.entities.map(\.isAbstract)
        let w = JSONByteWriter(capacity: 64)
        self.quotedNames = model.entities.map { entity in
            w.reset()
            w.append(quoted: entity.name)
            return w.array
        }
        self.keyHeads = quotedNames.map { [0x2C, 0x5B] + $0 + [0x2C] }
        self.keyHeadBytes = keyHeads.flatMap { $0 }
        self.keyHeadStarts = keyHeads.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        self.quotedPrefixes = zip(quotedNames, model.entities).map { quoted, entity in
            QuotedPrefix(quoted, usable: !entity.isAbstract)
        }
        self.quotedColumns = model.entities.map { entity in
            Self.storedSlots(of: entity).map { property in
                w.reset()
                w.append(quoted: property.name)
                return w.array
            }
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
    /// - Throws: `.storeWriteFailed` (134030) when a value does not fit its slot.
    @discardableResult
    func write(_ row: StoreRow, to w: JSONByteWriter) throws -> Int {
        try write(row, entityIndex: row.objectID.entity.index, to: w)
    }

    /// The start of a row, complete or partial: `[`, the entity's name, the primary key and
    /// the version, each but the last followed by a comma.
    @inline(__always)
    func writeHead(_ row: StoreRow, entityIndex: Int, to w: JSONByteWriter) {
        writeHead(row.objectID, version: row.version, entityIndex: entityIndex, to: w)
    }

    /// ``writeHead(_:entityIndex:to:)`` for a row given by its ID and version.
    ///
    /// `[`, the quoted name and its comma are one run of bytes, the entity's ``keyHeads``
    /// entry without its leading comma (appending `quotedNames`' array between two single
    /// bytes called a generic append and retained and released the array).
    @inline(__always)
    func writeHead(_ id: ManagedObjectID, version: Int64, entityIndex: Int, to w: JSONByteWriter) {
        // The head is read from the one array of every head (the codec's own, borrowed):
        // `keyHeads[entityIndex]`, also through the outer array's buffer, retained and
        // released the entity's array (2 calls a row).
        let start = keyHeadStarts[entityIndex] + 1
        let end = keyHeadStarts[entityIndex + 1]
        keyHeadBytes.withUnsafeBytes { heads in
            w.append(UnsafeRawBufferPointer(rebasing: heads[start..<end]))
        }
        w.append(integer: id.primaryKey)
        w.append(0x2C)
        w.append(integer: version)
    }

    /// ``write(_:to:)`` for a row whose entity's index the caller knows.
    @discardableResult
    func write(_ row: StoreRow, entityIndex: Int, to w: JSONByteWriter) throws -> Int {
        let start = w.count
        writeHead(row, entityIndex: entityIndex, to: w)
        // The values are read in place: passing `row.values[i]` copied each one (its payload's
        // references retained, then released), a third of a compaction's instructions.
        // The entity's slots too, from the one array of every entity's (`slots[entityIndex]`,
        // also through the outer array's buffer, retained and released the entity's array).
        let first = slotStarts[entityIndex]
        let end = slotStarts[entityIndex + 1]
        let failed = row.values.withUnsafeBufferPointer { values -> Int? in
            flatSlots.withUnsafeBufferPointer { allSlots -> Int? in
                for k in first..<end {
                    let slot = allSlots[k]
                    w.append(0x2C)
                    guard write(values, slot, to: w) else { return slot.index }
                }
                return nil
            }
        }
        if let failed {
            w.truncate(to: start)
            throw mismatch(row, slot: failed)
        }
        w.append(0x5D)
        return w.count - start
    }

    /// The error for a value of `row` that does not fit its slot `index`.
    func mismatch(_ row: StoreRow, slot index: Int) -> ObjectGraphError {
        let property = row.objectID.entity.properties[index]
        if let attribute = property as? AttributeDescription {
            return StoreFileErrors.rowValueMismatch(row, attribute, path: path)
        }
        return StoreFileErrors.rowReferenceMismatch(
            row, property as! RelationshipDescription, path: path)
    }

    /// Appends one slot's value; `false` when it does not fit the slot.
    func write(_ value: StoreValue, _ slot: Slot, to w: JSONByteWriter) -> Bool {
        withUnsafePointer(to: value) {
            write(UnsafeBufferPointer(start: $0, count: 1), slot, at: 0, to: w)
        }
    }

    /// Appends the value of `slot` (`values[slot.index]`, read in place); `false` when it does
    /// not fit the slot.
    @inline(__always)
    func write(_ values: UnsafeBufferPointer<StoreValue>, _ slot: Slot, to w: JSONByteWriter)
        -> Bool
    {
        write(values, slot, at: slot.index, to: w)
    }

    private func write(
        _ values: UnsafeBufferPointer<StoreValue>, _ slot: Slot, at index: Int, to w: JSONByteWriter
    ) -> Bool {
        switch slot.kind {
        case .attribute:
            return values[index].writeAttribute(as: slot.type, to: w)
        case .toOne:
            // The usual target, of the destination entity itself in this store (its ID's scope
            // is that entity's here), is written from the key read in place; any other value
            // through `writeToOne`, also matched where it lies. `case .toOne(let target) =
            // values[index]` copied the value and destroyed the copy (2 calls a to-one).
            let destination = slot.destination
            if let key = idScopes.withUnsafeBufferPointer({
                values[index].toOneKey(in: $0[destination])
            }) {
                w.append(integer: key)
                return true
            }
            return values[index].writeToOne(destination: destination, codec: self, to: w)
        case .toMany:
            guard case .toMany(let targets) = values[index] else { return false }
            w.append(0x5B)
            for (i, target) in targets.enumerated() {
                if i > 0 { w.append(0x2C) }
                guard writeReference(target, destination: slot.destination, to: w) else {
                    return false
                }
            }
            w.append(0x5D)
            return true
        }
    }

    /// Appends a reference: the bare key for the destination entity itself, else `[entity, pk]`.
    fileprivate func writeReference(_ id: ManagedObjectID, destination: Int, to w: JSONByteWriter)
        -> Bool
    {
        guard sameStore(id) else { return false }
        // The destination is this model's, so an ID of that very entity needs no model check
        // (reading the entity's model is an unowned reference's strong load). The entity is
        // compared where the array holds it: binding `entities[destination]` retained and
        // released it (2 calls a reference written).
        if entities.withUnsafeBufferPointer({ id.entity === $0[destination] }) {
            w.append(integer: id.primaryKey)
            return true
        }
        let target = entities[destination]
        guard id.entity.isKind(of: target), id.entity.managedObjectModel === model else {
            return false
        }
        writeKey(id, to: w)
        return true
    }

    /// Whether `id` is of this codec's store.
    @inline(__always)
    private func sameStore(_ id: ManagedObjectID) -> Bool {
        id.scope === idScopes[id.entity.index] || id.storeIdentifier == storeIdentifier
    }

    /// Appends the key of each of `deleted`, in order, as ``writeKey(_:to:)`` writes it,
    /// separated by commas: a transaction line's deletions.
    ///
    /// The deletions are read through the array's buffer (iterating copied each, a retain and
    /// a release of its ID's scope), and each key's comma, `[`, quoted entity name and comma
    /// go in as one run of bytes, the entity's ``keyHeads`` entry (appending the name's array
    /// per key retained and released it). ≈ 150 instructions a deletion fewer; deletions of
    /// alternating entities cost no more than a run of one entity.
    func writeKeys(of deleted: [(objectID: ManagedObjectID, version: Int64)], to w: JSONByteWriter)
    {
        keyHeads.withUnsafeBufferPointer { heads in
            deleted.withUnsafeBufferPointer { deleted in
                for i in deleted.indices {
                    heads[deleted[i].objectID.entity.index].withUnsafeBytes { head in
                        // The first key without the leading comma.
                        w.append(i == 0 ? UnsafeRawBufferPointer(rebasing: head.dropFirst()) : head)
                    }
                    w.append(integer: deleted[i].objectID.primaryKey)
                    w.append(0x5D)
                }
            }
        }
    }

    /// Appends `[entity, pk]` (the form of deletes and of references to subentities).
    func writeKey(_ id: ManagedObjectID, to w: JSONByteWriter) {
        keyHeads[id.entity.index].withUnsafeBytes { head in
            w.append(UnsafeRawBufferPointer(rebasing: head.dropFirst()))
        }
        w.append(integer: id.primaryKey)
        w.append(0x5D)
    }
}

extension StoreValue {
    /// Appends this attribute value's canonical JSON for an attribute of `type`; `false`
    /// (writing nothing) when it is not an attribute value or does not fit `type`.
    ///
    /// A method so that the row's value is switched on where it lies (`self` is borrowed):
    /// matching `values[i]` in the caller copied the whole value and destroyed the copy
    /// (outlined functions switching on its case). The common payloads are matched together
    /// with the type, with no second switch; every other value goes through
    /// `writeCanonicalJSON(as:to:)`, which refuses the same mismatches (`null` fits every type
    /// there too).
    fileprivate func writeAttribute(as type: AttributeType, to w: JSONByteWriter) -> Bool {
        switch self {
        case .attribute(.double(let v)) where type == .double:
            AttributeValue.write(double: v, to: w)
        case .attribute(.date(let v)) where type == .date:
            AttributeValue.write(double: v.timeIntervalSinceReferenceDate, to: w)
        case .attribute(.string(let v)) where type == .string:
            w.append(quoted: v)
        case .attribute(.uuid(let v)) where type == .uuid:
            w.append(quotedUUID: v)
        case .attribute(.null):
            w.append(ascii: "null")
        case .attribute(let v):
            return v.writeCanonicalJSON(as: type, to: w)
        default:
            return false
        }
        return true
    }

    /// The primary key of this to-one's target when its ID's scope is `scope`; `nil`
    /// otherwise (no target, another scope, not a to-one). Reads the value in place.
    @inline(__always)
    fileprivate func toOneKey(in scope: ObjectIDScope) -> Int64? {
        if case .toOne(let id?) = self, id.scope === scope { return id.primaryKey }
        return nil
    }

    /// Appends this to-one value as a reference to an entity of index `destination` (or
    /// `null`); `false` when it is not a to-one or its target does not fit. A method for the
    /// same reason as ``writeAttribute(as:to:)``: the value is matched where it lies.
    fileprivate func writeToOne(destination: Int, codec: RowCodec, to w: JSONByteWriter) -> Bool {
        switch self {
        case .toOne(let target?):
            return codec.writeReference(target, destination: destination, to: w)
        case .toOne(nil):
            w.append(ascii: "null")
            return true
        default:
            return false
        }
    }
}
