import Foundation

/// One property's value in a store row: an attribute value, a to-one reference, or the
/// members of a to-many the row keeps (see ``RelationshipDescription/isStoredInRow``).
///
/// - Note: Core Data's counterpart is the value dictionary of an `NSIncrementalStoreNode`.
public enum StoreValue: Sendable, Hashable {
    /// An attribute's value.
    case attribute(AttributeValue)
    /// A to-one relationship's destination, or `nil`.
    case toOne(ManagedObjectID?)
    /// A to-many relationship's destinations, in order for ordered relationships.
    case toMany([ManagedObjectID])
    /// A slot the store does not keep (transient attributes, to-manys derived from their inverse).
    case notStored

    /// The attribute value, or `.null` for other cases.
    public var attributeValue: AttributeValue {
        if case .attribute(let v) = self { v } else { .null }
    }

    /// The primary key of a to-one's destination; `nil` for no destination and other cases.
    var toOneKey: Int64? {
        if case .toOne(let id?) = self { id.primaryKey } else { nil }
    }
}

/// An object's persistent state as a store keeps it: its ID, its version for optimistic
/// locking, and one ``StoreValue`` per slot of its entity (``EntityDescription/properties``).
///
/// - Note: Mirrors `NSIncrementalStoreNode` (objectID, version, values).
public struct StoreRow: Sendable, Hashable {
    /// The object's permanent ID.
    public var objectID: ManagedObjectID
    /// Incremented by every committed change; a save from an older version conflicts.
    public var version: Int64
    /// One value per slot of `objectID.entity.properties`.
    public var values: [StoreValue]

    /// Creates a row.
    public init(objectID: ManagedObjectID, version: Int64, values: [StoreValue]) {
        self.objectID = objectID
        self.version = version
        self.values = values
    }

    /// The value of the property named `key`, or `nil` when the entity has no such property.
    public subscript(key: String) -> StoreValue? {
        guard let p = objectID.entity.propertiesByName[key] else { return nil }
        return values[p.index]
    }
}

/// An update of one row given as the slots it changes: the built-in stores patch the row in
/// place rather than replacing it with a complete copy.
///
/// A saving context hands a store its updates this way when the store says it accepts them
/// (``PersistentStore/acceptsRowPatches``); another store receives complete rows, made by
/// ``StoreChangeSet/completingPatches(reading:)`` from its current rows.
///
/// ```swift
/// let patch = StoreRowPatch(objectID: id, version: 3, slots: [amount.index],
///                           values: [.attribute(.double(12.5))])
/// let row = patch.applied(to: current)   // `current` is at version 2
/// ```
///
/// - Note: Core Data's save request hands an incremental store the updated objects, whose
///   `changedValues()` a store may read; this is that set of changed values as row slots.
public struct StoreRowPatch: Sendable, Hashable {
    /// The updated object's permanent ID.
    public var objectID: ManagedObjectID
    /// The version the update leaves the row at: the version the saver read, plus one.
    public var version: Int64
    /// The changed slots (indexes in the entity's ``EntityDescription/properties``, stored
    /// ones only), ascending.
    public var slots: [Int]
    /// Each changed slot's new value, in the order of ``slots``.
    ///
    /// A patch of one value keeps it inline, without an array (see `PatchValues`): reading
    /// this property then builds one.
    public var values: [StoreValue] {
        get {
            switch storage {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
        set { storage = PatchValues(newValue) }
    }
    /// The values, one inline or an array of several (never `.many` of one value, so that
    /// equal patches compare and hash equal).
    private var storage: PatchValues

    /// Creates a patch; `slots` ascending, one value per slot.
    public init(objectID: ManagedObjectID, version: Int64, slots: [Int], values: [StoreValue]) {
        self.objectID = objectID
        self.version = version
        self.slots = slots
        self.storage = PatchValues(values)
    }

    /// A patch of one slot, its value inline (no array).
    init(objectID: ManagedObjectID, version: Int64, slots: [Int], value: StoreValue) {
        self.objectID = objectID
        self.version = version
        self.slots = slots
        self.storage = .one(value)
    }

    /// The number of values (one per slot of a well-formed patch), without building an array.
    var valueCount: Int {
        switch storage {
        case .one: 1
        case .many(let values): values.count
        }
    }

    /// The `k`th value (the new value of `slots[k]`), without building an array.
    ///
    /// - Precondition: `0 <= k < valueCount`.
    @inline(__always)
    func value(atPosition k: Int) -> StoreValue {
        switch storage {
        case .one(let value):
            precondition(k == 0, "StoreRowPatch: value \(k) of a patch of one value")
            return value
        case .many(let values): return values[k]
        }
    }

    /// The complete row the update leaves: `old`'s values with the patch's over them, at the
    /// patch's version.
    ///
    /// - Precondition: `old` is a row of the same entity (a slot out of its range traps).
    public func applied(to old: StoreRow) -> StoreRow {
        var row = old
        row.version = version
        for k in 0..<min(slots.count, valueCount) { row.values[slots[k]] = value(atPosition: k) }
        return row
    }

    /// The names of the patched slots whose values differ from `old`'s: what persistent
    /// history records as the update's changed properties.
    func changedProperties(from old: StoreRow) -> [String] {
        let properties = objectID.entity.properties
        var names: [String] = []
        for k in 0..<min(slots.count, valueCount) where slots[k] < old.values.count {
            let slot = slots[k]
            let value = value(atPosition: k)
            if case .notStored = value { continue }
            if old.values[slot] != value { names.append(properties[slot].name) }
        }
        return names
    }
}

/// A patch's values: the one value of a patch of one slot (most updates: W4b's 100,000
/// patches of `amount`), held inline, or several in an array.
///
/// An array of one value was a 56-byte heap block a patch, alive through the save's commit:
/// 5.6 MB at W4b's peak, for 16 bytes more in the patch itself.
enum PatchValues: Sendable, Hashable {
    /// One value, inline.
    case one(StoreValue)
    /// Zero or two values or more.
    case many([StoreValue])

    /// `values`, one of them inline.
    init(_ values: [StoreValue]) {
        self = values.count == 1 ? .one(values[0]) : .many(values)
    }
}
