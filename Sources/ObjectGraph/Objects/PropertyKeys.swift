import Foundation
import Synchronization

/// Resolves a wrapped property's slot from its storage key path, once per property and entity.
///
/// The key is the property's name, learnt from the key path's description
/// (`\Category._name` → `name`); storage key paths are uniqued per property, so the cache is
/// keyed by the key path's identity and the lookup after the first is a multiplication and a
/// probe or two.
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

    /// The slot of the property behind `keyPath` in `entity`, or `nil` when the entity has no
    /// such property (or it is of the other kind).
    @inline(__always)
    static func slot(
        _ keyPath: AnyKeyPath, explicitKey: @autoclosure () -> String?, entity: EntityDescription,
        relationship: Bool
    ) -> Int? {
        entry(keyPath, explicitKey: explicitKey(), entity: entity, relationship: relationship)?
            .slot
    }

    /// The slot and type of the attribute behind `keyPath` in `entity`, or `nil` when the
    /// entity has no such attribute: ``slot(_:explicitKey:entity:relationship:)`` with the
    /// type kept in the same table entry, so that a setter never reads the attribute's
    /// description (the entity's property array and the description, each retained and
    /// released).
    @inline(__always)
    static func attributeSlotAndType(
        _ keyPath: AnyKeyPath, explicitKey: @autoclosure () -> String?, entity: EntityDescription
    ) -> (slot: Int, type: AttributeType)? {
        entry(keyPath, explicitKey: explicitKey(), entity: entity, relationship: false)
    }

    /// The table entry for `keyPath` in `entity` (its type `.undefined` for a relationship),
    /// resolved and added on a miss; `nil` when the entity has no such property.
    @inline(__always)
    private static func entry(
        _ keyPath: AnyKeyPath, explicitKey: @autoclosure () -> String?, entity: EntityDescription,
        relationship: Bool
    ) -> (slot: Int, type: AttributeType)? {
        // The key path's address (storage key paths are uniqued and never freed) and the
        // entity's serial number (an entity can be freed and another allocated at its
        // address), not hash values: hashing costs more than the lookup.
        let k = UInt(bitPattern: ObjectIdentifier(keyPath))
        let e = entity.serialNumber
        let table = published.load(ordering: .acquiring)
        if table != 0 {
            let found = Unmanaged<SlotCells>.fromOpaque(UnsafeRawPointer(bitPattern: table)!)
                ._withUnsafeGuaranteedRef { $0.findTyped(k, e) }
            if found.slot >= 0 { return found }
        }
        guard let slot = resolve(k, e, keyPath, explicitKey(), entity, relationship) else {
            return nil
        }
        return (slot, (entity.properties[slot] as? AttributeDescription)?.type ?? .undefined)
    }

    /// The first lookup of a key path in an entity: finds the property by name and adds the
    /// entry.
    private static func resolve(
        _ k: UInt, _ e: UInt, _ keyPath: AnyKeyPath, _ explicitKey: String?,
        _ entity: EntityDescription, _ relationship: Bool
    ) -> Int? {
        let name = explicitKey ?? self.name(of: keyPath)
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

    /// The attribute slot behind a property wrapper's storage key path; `nil` only on a
    /// key-path probe (see `KeyPathProbe`).
    ///
    /// - Precondition: The entity has the attribute; the message names `wrapper` and the key.
    @inline(__always)
    static func attributeSlot(
        _ storage: AnyKeyPath, key: @autoclosure () -> String?, of object: ManagedObject,
        wrapper: String
    ) -> Int? {
        // `key` reads the wrapper through its key path (a runtime projection costing more
        // than the cached lookup): only on the first use of a property, or on failure.
        guard
            let slot = slot(storage, explicitKey: key(), entity: object.entity, relationship: false)
        else {
            return missingAttribute(storage, key(), object, wrapper)
        }
        return slot
    }

    /// `nil` for a key-path probe; traps for anything else.
    private static func missingAttribute(
        _ storage: AnyKeyPath, _ key: String?, _ object: ManagedObject, _ wrapper: String
    ) -> Int? {
        if object.entity.keyPathProbe != nil { return nil }
        let key = key ?? name(of: storage)
        preconditionFailure(
            "ObjectGraph: \(wrapper) \(key): entity \(object.entity.name) has no attribute '\(key)'"
        )
    }

    /// `\Category._name` → `name`.
    ///
    /// Read from the key path's `debugDescription`, which is what `"\(keyPath)"` prints: the
    /// interpolation first asked the runtime whether the key path's type conforms to
    /// `TextOutputStreamable` and `CustomStringConvertible`, a scan of every conformance
    /// record for each new key-path type (≈ 1 M instructions of the ≈ 1.4 M a property's first
    /// access cost).
    static func name(of keyPath: AnyKeyPath) -> String {
        let text = keyPath.debugDescription
        var name = String(text.split(separator: ".").last ?? Substring(text))
        if name.hasPrefix("_") { name.removeFirst() }
        return name
    }
}

/// An open-addressing table from (key path, entity) identities to slots, read without a lock
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
