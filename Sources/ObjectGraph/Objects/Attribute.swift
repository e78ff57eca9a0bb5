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
    /// The key given as `@Attribute("key")`, as its number in `ExplicitKeys`; 0 for the
    /// property's name. Two bytes in every object, where the `String?` it replaces took 16
    /// and a release when the object was freed.
    @usableFromInline let keyNumber: UInt16

    /// An attribute whose key is the property's name.
    @inlinable public init() { self.keyNumber = 0 }
    /// An attribute stored under `key`.
    ///
    /// The wrapper keeps the key as a 2-byte number in a process-wide table of explicit keys
    /// (each object of the class carries the number, not the string); making it hashes the
    /// key and finds its number without a lock.
    ///
    /// - Precondition: At most 65,535 distinct explicit keys in the process; the trap says so.
    public init(_ key: String) { self.keyNumber = ExplicitKeys.number(of: key) }

    /// The key given as `@Attribute("key")`; `nil` for the property's name.
    @usableFromInline var key: String? { ExplicitKeys.key(keyNumber) }

    /// Unavailable: `@Attribute` works only on `ManagedObject` subclasses.
    @available(*, unavailable, message: "@Attribute is available only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Attribute is available only on ManagedObject subclasses") }
        set { preconditionFailure("@Attribute is available only on ManagedObject subclasses") }
    }

    /// Reads and writes the attribute through the enclosing object.
    ///
    /// Inlinable, so that the caller's module specialises it for `Value`: the conversion to
    /// and from ``AttributeValue`` is then direct code, and the rest (finding the slot, the
    /// fault, the change record) is one non-generic call into the object. The property is
    /// named by its storage's offset (``WrapperSite``): neither key path is used otherwise,
    /// so an optimised caller makes neither.
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        @inline(__always) get {
            // A type the probe has no marker for hands it the property's own key path (made
            // on every access of that type's properties; a constant test after
            // specialisation, so the built-in types' accessors make none).
            Value.probesByMarker
                ? value(in: object, at: WrapperSite(object, storageKeyPath), wrapped: nil)
                : value(
                    in: object, at: WrapperSite(object, storageKeyPath), wrapped: wrappedKeyPath)
        }
        @inline(__always) set {
            object.setWrappedAttribute(newValue.attributeValue, WrapperSite(object, storageKeyPath))
        }
    }

    /// The getter's work once the property is identified: kept out of the accessor so that
    /// the accessor is always inlined, and its key paths folded away, even where this is not
    /// (a specialisation of the whole getter took the storage key path as an argument: every
    /// access made it, and the access enforcement of the wrapper's field stayed dynamic, a
    /// `swift_beginAccess` an access).
    ///
    /// `wrapped`: the property's own key path, given only for a type without a probe marker
    /// (``AttributeConvertible/probesByMarker``), which the probe compares with the key path
    /// it converts.
    @inlinable
    static func value(in object: ManagedObject, at site: WrapperSite, wrapped: AnyKeyPath?)
        -> Value
    {
        guard let stored = object.wrappedAttributeValue(site) else {
            return probeMarker(object, site, wrapped)
        }
        if let value = Value.fromAttributeValue(stored) { return value }
        if stored.isNull { return Value.nullValue }
        object.wrappedAttributeMismatch(site, stored, Value.self)
    }

    /// What the getter returns to a key-path probe (see `KeyPathProbe`).
    @usableFromInline
    static func probeMarker(_ object: ManagedObject, _ site: WrapperSite, _ wrapped: AnyKeyPath?)
        -> Value
    {
        KeyPathProbe.attributeMarker(object, site, Value.self, wrapped: wrapped)
    }
}

extension ManagedObject {
    /// The stored value of the attribute of the ``Attribute`` wrapper stored at `site`,
    /// firing the fault; `nil` only on a key-path probe.
    @usableFromInline
    func wrappedAttributeValue(_ site: WrapperSite) -> AttributeValue? {
        guard let slot = PropertyKeys.attributeSlot(site, of: self, wrapper: "@Attribute")
        else { return nil }
        // The queue checked without a closure (`read(slot, "…")`'s autoclosure captured the
        // object and the slot: a retain and a release of the object on every read).
        if ConcurrencyCheck.isEnabled { checkWrappedRead(slot) }
        return readChecked(slot).attributeValue
    }

    /// Sets the attribute of the ``Attribute`` wrapper stored at `site` (nothing on a
    /// key-path probe), coerced to the attribute's type.
    ///
    /// - Precondition: The value fits the attribute's type; the message names entity, key and
    ///   the expected type.
    @usableFromInline
    func setWrappedAttribute(_ newValue: AttributeValue, _ site: WrapperSite) {
        // The slot and the attribute's type from the key path's table entry: reading the
        // type from the description retained and released the entity's property array and
        // the description (three retains and releases a write, one now). With the write of
        // a fitting value as it is, W1's 100,020 writes: 53.8 M → 35.6 M instructions.
        guard let (slot, type) = PropertyKeys.attributeSlotAndType(site, of: self, entity: entity)
        else {
            _ = PropertyKeys.attributeSlot(site, of: self, wrapper: "@Attribute")
            return
        }
        // A value of the attribute's type (the common case, a wrapper's `Value` made it) is
        // written as it is; `coerced(to:)` copied it to return it.
        // The queue checked here (its message made only when it is needed, see
        // `wrappedWriteCall`), then the value stored: through `writeAttribute`, the message's
        // autoclosure captured the object (a retain and a release of it every write).
        if newValue.fits(type) {
            checkWrappedWrite(slot)
            storeAttribute(slot, newValue)
        } else if let value = newValue.coerced(to: type) {
            checkWrappedWrite(slot)
            storeAttribute(slot, value)
        } else {
            wrappedAttributeRefused(slot, newValue)
        }
    }

    /// The queue check of a read through `@Attribute` of `slot`. Out of line: only a run with
    /// the concurrency check on calls it.
    @inline(never)
    private func checkWrappedRead(_ slot: Int) {
        managedObjectContext?.checkQueue("\(entity.name).\(entity.properties[slot].name)")
    }

    /// The queue check of a write through `@Attribute` to `slot`, its message made only when
    /// the check runs.
    @inline(__always)
    private func checkWrappedWrite(_ slot: Int) {
        if ConcurrencyCheck.isEnabled { managedObjectContext?.checkQueue(wrappedWriteCall(slot)) }
    }

    /// The call a wrapper's write of slot `slot` is named by in a queue check's failure.
    /// (Spelt out in the setter instead, it measured the same.)
    @inline(never)
    private func wrappedWriteCall(_ slot: Int) -> String {
        "\(entity.name).\(entity.properties[slot].name) = …"
    }

    /// Traps: `value` does not fit attribute slot `slot`'s type.
    @inline(never)
    private func wrappedAttributeRefused(_ slot: Int, _ value: AttributeValue) -> Never {
        let attribute = unsafeDowncast(entity.properties[slot], to: AttributeDescription.self)
        preconditionFailure(
            """
            ObjectGraph: \(entity.name).\(attribute.name) expects a \(attribute.type.rawValue) value; \
            got \(value)
            """)
    }

    /// Traps: the attribute of the wrapper stored at `site` holds `stored`, which is not a
    /// `type`.
    @usableFromInline
    func wrappedAttributeMismatch(_ site: WrapperSite, _ stored: AttributeValue, _ type: Any.Type)
        -> Never
    {
        let slot = PropertyKeys.attributeSlot(site, of: self, wrapper: "@Attribute")
        let name =
            slot.map { entity.properties[$0].name }
            ?? PropertyKeys.key(of: site, in: Swift.type(of: self))
        preconditionFailure(
            "ObjectGraph: \(entity.name).\(name) holds \(stored), which is not a \(type)")
    }
}
