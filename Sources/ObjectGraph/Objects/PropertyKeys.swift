import Foundation
import Synchronization

/// Resolves a wrapped property's slot from where its wrapper is stored in the object, once
/// per property, class and entity.
///
/// A wrapper's accessor identifies its property by the storage's offset in the object (see
/// ``WrapperSite``), which an optimised client build folds to a constant: no key path is made
/// on any access. The table is keyed by (the object's class, the offset, the entity): offsets
/// are unique only within one class's layout, and an entity can be used with several classes.
/// The key is the wrapper's explicit key, or the name of the stored field at that offset
/// (`_name` → `name`) from the class's reflection metadata, read on the first access of the
/// property in an entity; the lookup after the first is a multiplication and a probe or two.
///
/// Every property access looks its slot up, from any thread, so the lookup takes no lock: the
/// table is read through an atomic pointer, and its entries are written once, each published
/// by a release store of its slot (see ``SlotCells``). Misses (the first access of a property
/// in an entity) take `lock`, resolve the name and add the entry. Taking an `NSLock` for every
/// lookup cost about 75 instructions per property access (a fifth of setting an attribute).
enum PropertyKeys {
    /// The table readers probe: the address of a ``SlotCells`` (0 before the first entry).
    /// Tables are never freed: a reader may still probe one that was replaced, and the tables
    /// replaced by doubling add up to less than the current one.
    private static let published = Atomic<UInt>(0)
    // Sendable: `current` and `retired` are guarded by `lock`.
    nonisolated(unsafe) private static var current: SlotCells?
    nonisolated(unsafe) private static var retired: [SlotCells] = []
    private static let lock = NSLock()

    /// The slot of the property stored at `site` in `object` (of `object`'s entity), or `nil`
    /// when the entity has no such property (or it is of the other kind).
    @inline(__always)
    static func slot(_ site: WrapperSite, of object: ManagedObject, relationship: Bool) -> Int? {
        entry(site, object, object.entity, relationship: relationship)?.slot
    }

    /// The slot and type of the attribute stored at `site` in `object`, or `nil` when the
    /// entity has no such attribute: ``slot(_:of:relationship:)`` with the type kept in the
    /// same table entry, so that a setter never reads the attribute's description (the
    /// entity's property array and the description, each retained and released).
    @inline(__always)
    static func attributeSlotAndType(
        _ site: WrapperSite, of object: ManagedObject, entity: EntityDescription
    ) -> (slot: Int, type: AttributeType)? {
        entry(site, object, entity, relationship: false)
    }

    /// The table entry for `site` in `object`'s class and `entity` (its type `.undefined` for
    /// a relationship), resolved and added on a miss; `nil` when the entity has no such
    /// property.
    @inline(__always)
    private static func entry(
        _ site: WrapperSite, _ object: ManagedObject, _ entity: EntityDescription,
        relationship: Bool
    ) -> (slot: Int, type: AttributeType)? {
        // The class's metadata address (classes are never freed), and the entity's serial
        // number (an entity can be freed and another allocated at its address) with the
        // offset in its low bits (`WrapperSite` checked that it fits), not hash values:
        // hashing costs more than the lookup.
        let k = UInt(bitPattern: ObjectIdentifier(type(of: object)))
        let e = entity.serialNumber &<< WrapperSite.offsetBits | UInt(bitPattern: site.offset)
        let table = published.load(ordering: .acquiring)
        if table != 0 {
            let found = Unmanaged<SlotCells>.fromOpaque(UnsafeRawPointer(bitPattern: table)!)
                ._withUnsafeGuaranteedRef { $0.findTyped(k, e) }
            if found.slot >= 0 { return found }
        }
        guard let slot = resolve(k, e, site, type(of: object), entity, relationship) else {
            return nil
        }
        return (slot, (entity.properties[slot] as? AttributeDescription)?.type ?? .undefined)
    }

    /// The first lookup of a property in a class and an entity: finds the property by name
    /// and adds the entry.
    private static func resolve(
        _ k: UInt, _ e: UInt, _ site: WrapperSite, _ objectClass: ManagedObject.Type,
        _ entity: EntityDescription, _ relationship: Bool
    ) -> Int? {
        let name = key(of: site, in: objectClass)
        let property: PropertyDescription? =
            relationship ? entity.relationshipsByName[name] : entity.attributesByName[name]
        guard let slot = property?.index else { return nil }
        let type = (property as? AttributeDescription)?.type ?? .undefined
        lock.lock()
        defer { lock.unlock() }
        if let current, current.find(k, e) >= 0 { return slot }
        if current == nil || !current!.hasRoom {
            let bigger = SlotCells(capacity: max(64, (current?.capacity ?? 0) * 2))
            if let current {
                current.forEachEntry { bigger.insert($0, $1, $2, $3) }
                retired.append(current)
            }
            bigger.insert(k, e, slot, type)
            current = bigger
            published.store(
                UInt(bitPattern: Unmanaged.passUnretained(bigger).toOpaque()),
                ordering: .releasing)
        } else {
            current!.insert(k, e, slot, type)
        }
        return slot
    }

    /// The attribute slot of the wrapper stored at `site` in `object`; `nil` only on a
    /// key-path probe (see `KeyPathProbe`).
    ///
    /// - Precondition: The entity has the attribute; the message names `wrapper` and the key.
    @inline(__always)
    static func attributeSlot(_ site: WrapperSite, of object: ManagedObject, wrapper: String)
        -> Int?
    {
        guard let slot = slot(site, of: object, relationship: false) else {
            return missingAttribute(site, object, wrapper)
        }
        return slot
    }

    /// `nil` for a key-path probe; traps for anything else.
    private static func missingAttribute(
        _ site: WrapperSite, _ object: ManagedObject, _ wrapper: String
    ) -> Int? {
        if object.entity.keyPathProbe != nil { return nil }
        let key = key(of: site, in: type(of: object))
        preconditionFailure(
            "ObjectGraph: \(wrapper) \(key): entity \(object.entity.name) has no attribute '\(key)'"
        )
    }

    /// The key of the wrapper stored at `site` in objects of `objectClass`: its explicit key,
    /// or its property's name (see ``fieldName(of:offset:)``).
    ///
    /// The field is looked up for an explicit key too (this runs only on a table miss, a probe
    /// or a trap): a site whose offset is no wrapper field's traps here rather than sharing a
    /// slot with another property (the review's case: a storage key path the compiler makes
    /// computed projects a temporary, whose address is no field's offset).
    static func key(of site: WrapperSite, in objectClass: AnyClass) -> String {
        let name = fieldName(of: objectClass, offset: site.offset)
        return ExplicitKeys.key(site.keyNumber) ?? name
    }
}

/// An open-addressing table from (class, entity and offset) identities to slots, read without a lock
/// while one writer (holding `PropertyKeys`' lock) adds entries.
///
/// An entry is never changed or removed once written. The writer writes a cell's two key
/// words, then its slot with a release store; a reader loads the slot with an acquire load
/// and reads the key words only when the slot is set, so it sees them complete. A slot of
/// -1 marks an empty cell (the end of a probe). The table is replaced by one twice as large
/// before it is half full.
final class SlotCells: @unchecked Sendable {
    // Sendable: cells are written once by one writer (under `PropertyKeys`' lock) and
    // published by the release store of their slot; readers read only published cells.
    let capacity: Int
    private let keys: UnsafeMutablePointer<(UInt, UInt)>
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    /// Each entry's attribute type (`.undefined` for a relationship), written with its key
    /// words before its slot is published.
    private let types: UnsafeMutablePointer<AttributeType>
    /// Entries written; read and written by the writer only.
    private var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: (0, 0), count: capacity)
        slots = .allocate(capacity: capacity)
        for i in 0..<capacity { (slots + i).initialize(to: Atomic(-1)) }
        types = .allocate(capacity: capacity)
        types.initialize(repeating: .undefined, count: capacity)
    }

    deinit {
        keys.deallocate()
        slots.deallocate()
        types.deallocate()
    }

    /// Whether one more entry keeps the table at most half full.
    var hasRoom: Bool { (count + 1) * 2 <= capacity }

    @inline(__always)
    private func start(_ k: UInt, _ e: UInt) -> Int {
        Int(
            truncatingIfNeeded: ((k &* 0x9E37_79B9_7F4A_7C15) ^ (e &* 0xC2B2_AE3D_27D4_EB4F))
                >> 17) & (capacity - 1)
    }

    /// The slot stored for (k, e), or -1.
    @inline(__always)
    func find(_ k: UInt, _ e: UInt) -> Int { findTyped(k, e).slot }

    /// The slot and attribute type stored for (k, e), or a slot of -1.
    @inline(__always)
    func findTyped(_ k: UInt, _ e: UInt) -> (slot: Int, type: AttributeType) {
        var i = start(k, e)
        while true {
            let slot = slots[i].load(ordering: .acquiring)
            if slot < 0 { return (-1, .undefined) }
            if keys[i].0 == k && keys[i].1 == e { return (slot, types[i]) }
            i = (i + 1) & (capacity - 1)
        }
    }

    /// Adds an entry that is not in the table; call as the one writer, with room left.
    func insert(_ k: UInt, _ e: UInt, _ slot: Int, _ type: AttributeType) {
        var i = start(k, e)
        while slots[i].load(ordering: .relaxed) >= 0 { i = (i + 1) & (capacity - 1) }
        keys[i] = (k, e)
        types[i] = type
        slots[i].store(slot, ordering: .releasing)
        count += 1
    }

    /// Calls `body` with every entry; call as the one writer.
    func forEachEntry(_ body: (UInt, UInt, Int, AttributeType) -> Void) {
        for i in 0..<capacity {
            let slot = slots[i].load(ordering: .relaxed)
            if slot >= 0 { body(keys[i].0, keys[i].1, slot, types[i]) }
        }
    }
}
