import Foundation

/// Declares a managed object's attribute: the Swift stand-in for `@NSManaged`.
///
/// The key is the property's name; `@Attribute("other") var x` only renames.
///
/// ```swift
/// final class Transaction: ManagedObject {
///     @Attribute var amount: Decimal
///     @Attribute var note: String?
/// }
/// ```
///
/// Reads fire the object's fault; writes record a change. A value of the wrong type for the
/// model's attribute traps, naming entity, key and expected type.
///
/// - Note: Mirrors `@NSManaged` attribute properties.
@propertyWrapper
public struct Attribute<Value: AttributeConvertible> {
    let key: String?

    /// An attribute whose key is the property's name.
    public init() { self.key = nil }
    /// An attribute stored under `key`.
    public init(_ key: String) { self.key = key }

    /// Unavailable: `@Attribute` works only on `ManagedObject` subclasses.
    @available(*, unavailable, message: "@Attribute is available only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Attribute is available only on ManagedObject subclasses") }
        set { preconditionFailure("@Attribute is available only on ManagedObject subclasses") }
    }

    /// Reads and writes the attribute through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            guard let slot = resolve(object, storageKeyPath) else {
                return KeyPathProbe.attributeMarker(object, storageKeyPath, wrappedKeyPath)
            }
            let stored = object.read(
                slot, "\(object.entity.name).\(object.entity.properties[slot].name)"
            ).attributeValue
            if stored.isNull { return Value.fromAttributeValue(.null) ?? Value.nullValue }
            guard let value = Value.fromAttributeValue(stored) else {
                preconditionFailure(
                    "ObjectGraph: \(object.entity.name).\(object.entity.properties[slot].name) holds \(stored), which is not a \(Value.self)"
                )
            }
            return value
        }
        set {
            guard let slot = resolve(object, storageKeyPath) else { return }
            // The slot was resolved through `attributesByName`: it is an attribute's.
            let attribute = unsafeDowncast(
                object.entity.properties[slot], to: AttributeDescription.self)
            guard let value = newValue.attributeValue.coerced(to: attribute.type) else {
                preconditionFailure(
                    """
                    ObjectGraph: \(object.entity.name).\(attribute.name) expects a \(attribute.type.rawValue) value; \
                    got \(newValue.attributeValue)
                    """)
            }
            object.write(slot, .attribute(value), "\(object.entity.name).\(attribute.name) = …")
        }
    }

    /// The attribute's slot; `nil` only on a key-path probe (see `KeyPathProbe`).
    private static func resolve<Object: ManagedObject>(
        _ object: Object, _ storage: ReferenceWritableKeyPath<Object, Self>
    ) -> Int? {
        PropertyKeys.attributeSlot(
            storage, key: object[keyPath: storage].key, of: object, wrapper: "@Attribute")
    }
}

/// Resolves a wrapped property's slot from its storage key path, once per property and entity.
///
/// The key is the property's name, learnt from the key path's description
/// (`\Category._name` → `name`); storage key paths are uniqued per property, so the cache is
/// keyed by the key path's identity and the lookup after the first is a hash of two words.
enum PropertyKeys {
    // Sendable: guarded by `lock`.
    // Unchecked exclusivity: every access holds `lock`, and the runtime check costs as much
    // as the lookup.
    @exclusivity(unchecked) nonisolated(unsafe) private static var table = SlotTable()
    private static let lock = NSLock()

    /// The slot of the property behind `keyPath` in `entity`, or `nil` when the entity has no
    /// such property (or it is of the other kind).
    static func slot(
        _ keyPath: AnyKeyPath, explicitKey: @autoclosure () -> String?, entity: EntityDescription,
        relationship: Bool
    ) -> Int? {
        // The key path's address (storage key paths are uniqued and never freed) and the
        // entity's serial number (an entity can be freed and another allocated at its
        // address), not hash values: hashing costs more than the lookup.
        let k = UInt(bitPattern: ObjectIdentifier(keyPath))
        let e = entity.serialNumber
        lock.lock()
        let cached = table.find(k, e)
        lock.unlock()
        if let cached { return cached }
        let name = explicitKey() ?? self.name(of: keyPath)
        let property: PropertyDescription? =
            relationship ? entity.relationshipsByName[name] : entity.attributesByName[name]
        guard let slot = property?.index else { return nil }
        lock.lock()
        table.insert(k, e, slot)
        lock.unlock()
        return slot
    }

    /// An open-addressing table from (key path, entity) identities to slots: a multiply and a
    /// probe or two per lookup, no hashing of structures.
    struct SlotTable {
        private var keys: [(UInt, UInt)] = Array(repeating: (0, 0), count: 64)
        private var values: [Int] = Array(repeating: -1, count: 64)
        private var count = 0

        private func start(_ k: UInt, _ e: UInt, _ mask: Int) -> Int {
            Int(
                truncatingIfNeeded: ((k &* 0x9E37_79B9_7F4A_7C15) ^ (e &* 0xC2B2_AE3D_27D4_EB4F))
                    >> 17) & mask
        }

        func find(_ k: UInt, _ e: UInt) -> Int? {
            let mask = keys.count - 1
            var i = start(k, e, mask)
            while values[i] >= 0 {
                if keys[i].0 == k && keys[i].1 == e { return values[i] }
                i = (i + 1) & mask
            }
            return nil
        }

        mutating func insert(_ k: UInt, _ e: UInt, _ slot: Int) {
            if find(k, e) != nil { return }
            if (count + 1) * 2 > keys.count { grow() }
            let mask = keys.count - 1
            var i = start(k, e, mask)
            while values[i] >= 0 { i = (i + 1) & mask }
            keys[i] = (k, e)
            values[i] = slot
            count += 1
        }

        private mutating func grow() {
            let old = zip(keys, values).filter { $0.1 >= 0 }
            keys = Array(repeating: (0, 0), count: keys.count * 2)
            values = Array(repeating: -1, count: values.count * 2)
            count = 0
            for (key, value) in old { insert(key.0, key.1, value) }
        }
    }

    /// The attribute slot behind a property wrapper's storage key path; `nil` only on a
    /// key-path probe (see `KeyPathProbe`).
    ///
    /// - Precondition: The entity has the attribute; the message names `wrapper` and the key.
    static func attributeSlot(
        _ storage: AnyKeyPath, key: @autoclosure () -> String?, of object: ManagedObject,
        wrapper: String
    ) -> Int? {
        // `key` reads the wrapper through its key path (a runtime projection costing more
        // than the cached lookup): only on the first use of a property, or on failure.
        guard
            let slot = slot(storage, explicitKey: key(), entity: object.entity, relationship: false)
        else {
            if object.entity.keyPathProbe != nil { return nil }
            let key = key() ?? name(of: storage)
            preconditionFailure(
                "ObjectGraph: \(wrapper) \(key): entity \(object.entity.name) has no attribute '\(key)'"
            )
        }
        return slot
    }

    /// `\Category._name` → `name`.
    static func name(of keyPath: AnyKeyPath) -> String {
        let text = "\(keyPath)"
        var name = String(text.split(separator: ".").last ?? Substring(text))
        if name.hasPrefix("_") { name.removeFirst() }
        return name
    }
}
