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
    /// A patch of one value (most updates) keeps that value in a block, without an array, so this
    /// property is computed: reading it on a patch of one value builds a one-element array
    /// (a heap allocation), and setting it, or changing an element through it (`values[0] =
    /// v`, `values.removeLast()`), replaces all the values, O(values). Read it once per patch
    /// and keep the array, or use ``valueCount`` and ``value(atPosition:)``, which build
    /// nothing.
    public var values: [StoreValue] {
        get {
            switch storage {
            case .one(let box): [box.value]
            case .written(let write): [.attribute(write.block.entry.value)]
            case .many(let values): values
            }
        }
        set { storage = PatchValues(newValue) }
    }
    /// The values: one in a block (its own, or the overlay block of the object the patch
    /// updates) or an array of several. One word, so that a patch is 40 bytes.
    private var storage: PatchValues

    /// Creates a patch; `slots` ascending, one value per slot. A patch of one value keeps it
    /// in a heap block of its own (see `init(objectID:version:slots:value:)`).
    public init(objectID: ManagedObjectID, version: Int64, slots: [Int], values: [StoreValue]) {
        self.objectID = objectID
        self.version = version
        self.slots = slots
        self.storage = PatchValues(values)
    }

    /// A patch of one slot, its value in a block of its own (no array).
    ///
    /// Costs one heap block per patch (37 bytes asked, a 48-byte chunk), where a patch of
    /// one value once held it inline in 56 bytes: patches are 40 bytes, and a patch of an
    /// overlay's one write (most updates) shares the overlay's block instead.
    ///
    /// - Precondition: `slots.count == 1` (the value is the new value of `slots[0]`).
    init(objectID: ManagedObjectID, version: Int64, slots: [Int], value: StoreValue) {
        self.objectID = objectID
        self.version = version
        self.slots = slots
        assert(slots.count == 1, "StoreRowPatch: one value for \(slots.count) slots")
        self.storage = .one(PatchValue(value))
    }

    /// A patch of one slot whose value is the one write of an overlay (``RowOverlay``): the
    /// patch holds the overlay's block, shared with the object, in place of a copy of the
    /// value (W4b: 100,000 patches of `amount`, alive through the commit with the overlays).
    /// Its one value is `.attribute(write.entry.value)`.
    ///
    /// - Precondition: `slots == [write.entry.slot]` and the slot is an attribute the row
    ///   stores.
    init(objectID: ManagedObjectID, version: Int64, slots: [Int], write: RowOverlay.OneWrite) {
        self.objectID = objectID
        self.version = version
        self.slots = slots
        assert(slots == [write.entry.slot], "StoreRowPatch: the write's slot is not the patch's")
        self.storage = .written(SharedWrite(block: write))
    }

    /// The number of values: one per slot of a well-formed patch.
    ///
    /// Reads the count without building an array: O(1), no allocation, unlike
    /// `values.count`. With ``value(atPosition:)`` it is the way to read a patch's values
    /// one by one.
    ///
    /// - Note: No Core Data counterpart: a store-side type (Core Data hands an incremental
    ///   store the objects, whose `changedValues()` it reads).
    public var valueCount: Int {
        switch storage {
        case .one, .written: 1
        case .many(let values): values.count
        }
    }

    /// The `k`th value: the new value of `slots[k]`.
    ///
    /// Reads one value without building an array: O(1), no allocation, unlike
    /// `values[k]`, which builds the array of a patch of one value first.
    ///
    /// ```swift
    /// for k in 0..<patch.valueCount {
    ///     row.values[patch.slots[k]] = patch.value(atPosition: k)
    /// }
    /// ```
    ///
    /// - Precondition: `0 <= k < valueCount` (a position out of range traps).
    /// - Note: No Core Data counterpart: a store-side type (Core Data hands an incremental
    ///   store the objects, whose `changedValues()` it reads).
    @inline(__always)
    public func value(atPosition k: Int) -> StoreValue {
        switch storage {
        case .one(let box):
            precondition(k == 0, "StoreRowPatch: value \(k) of a patch of one value")
            return box.value
        case .written(let write):
            precondition(k == 0, "StoreRowPatch: value \(k) of a patch of one value")
            return .attribute(write.block.entry.value)
        case .many(let values): return values[k]
        }
    }

    /// Whether the two patches update the same row the same way: the same ID, version, slots
    /// and values (a value held in a block or in an array compares alike).
    public static func == (lhs: StoreRowPatch, rhs: StoreRowPatch) -> Bool {
        guard lhs.objectID == rhs.objectID, lhs.version == rhs.version, lhs.slots == rhs.slots,
            lhs.valueCount == rhs.valueCount
        else { return false }
        for k in 0..<lhs.valueCount where lhs.value(atPosition: k) != rhs.value(atPosition: k) {
            return false
        }
        return true
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(objectID)
        hasher.combine(version)
        hasher.combine(slots)
        hasher.combine(valueCount)
        for k in 0..<valueCount { hasher.combine(value(atPosition: k)) }
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
/// patches of `amount`) in a block, or several in an array. One word (every payload is a
/// reference).
///
/// An array of one value was a 56-byte heap block a patch, alive through the save's commit
/// (5.6 MB at W4b's peak); the value inline made a patch 56 bytes (the value is 21). A
/// patch of an object's one overlay write holds the overlay's block, which the object holds
/// until the store takes the patched row back (``StoreRowHandoff``): a 40-byte patch and no
/// copy of the value, 1.6 MB less at W4b's peak.
enum PatchValues: Sendable {
    /// One value, in a block of its own.
    case one(PatchValue)
    /// One value: an overlay's one write (`.attribute` of its value), shared.
    case written(SharedWrite)
    /// Zero or two values or more.
    case many([StoreValue])

    /// `values`, one of them in a block.
    init(_ values: [StoreValue]) {
        self = values.count == 1 ? .one(PatchValue(values[0])) : .many(values)
    }
}

/// The block of a patch's one value (see ``PatchValues``). Immutable.
final class PatchValue: Sendable {
    /// The value.
    let value: StoreValue

    /// A block holding `value`.
    init(_ value: StoreValue) { self.value = value }
}

/// An overlay's block of one write, held by a patch (see ``PatchValues``).
///
/// Sendable although `RowOverlay.OneWrite` is not declared so (its superclass is shared with
/// the mutable `ManyWrites`): the block is never changed once made (its one field is a `let`
/// of a `Sendable` value), so reading it from the store's queue while the object's context
/// holds it is safe, and its reference count is atomic.
struct SharedWrite: @unchecked Sendable {
    /// The overlay's block.
    let block: RowOverlay.OneWrite
}
