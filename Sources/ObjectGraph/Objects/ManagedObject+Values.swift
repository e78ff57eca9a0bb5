import Foundation

extension ManagedObject {
    /// The value of the property `key`, as a Swift value.
    ///
    /// Attributes give their natural Swift type (`String`, `Int16`, `Decimal`, `Date`, …) or
    /// `nil`; a transformable attribute gives the value its registered transformer reads
    /// back, or its stored bytes (`Data`) for the Codable default and an unregistered
    /// transformer (read those with ``transformedValue(forKey:as:)``); a to-one gives a
    /// `ManagedObject` or `nil`; a to-many gives a `Set<ManagedObject>` (an `[ManagedObject]`
    /// when ordered). Fires the fault if needed.
    ///
    /// - Precondition: `key` is a property of the entity; the message names entity and key.
    /// - Note: Mirrors key-value coding's `value(forKey:)`.
    public func value(forKey key: String) -> Any? {
        let property = self.property(key, "value(forKey:)")
        switch read(property.index, "value(forKey: \"\(key)\")") {
        case .attribute(let v): return (property as! AttributeDescription).publicValue(of: v)
        case .toOne(let o): return o
        case .toMany(let members):
            let objects = members?.objects ?? []
            return (property as! RelationshipDescription).isOrdered ? objects : Set(objects)
        }
    }

    /// Sets the property `key` from a Swift value, updating inverses of relationships.
    ///
    /// Attributes accept what ``AttributeValue/init(any:for:)`` accepts; a transformable
    /// attribute takes what its transformer turns into `Data` (any `Encodable` for the Codable
    /// default), or `Data` itself; a to-one takes a `ManagedObject` or `nil`; a to-many a
    /// `Set` or array of `ManagedObject`s.
    ///
    /// - Precondition: `key` is a property of the entity and `value` fits its type; a
    ///   mismatch traps with a message naming entity, key and the expected type.
    /// - Note: Mirrors key-value coding's `setValue(_:forKey:)`.
    public func setValue(_ value: Any?, forKey key: String) {
        let property = self.property(key, "setValue(_:forKey:)")
        if let attribute = property as? AttributeDescription {
            let v: AttributeValue
            do { v = try attribute.storedValue(for: value) } catch {
                preconditionFailure("ObjectGraph: \(error)")
            }
            writeAttribute(attribute.index, v, "setValue(_:forKey: \"\(key)\")")
            return
        }
        let relationship = property as! RelationshipDescription
        if relationship.isToMany {
            setRelated(relationship, members(value, of: relationship))
        } else {
            setToOne(relationship, destination(value, of: relationship))
        }
    }

    /// `value` as the members of the to-many `relationship`: `nil` (none), a `Set` or array of
    /// managed objects, or any collection of them; anything else traps naming the key.
    func members(_ value: Any?, of relationship: RelationshipDescription) -> [ManagedObject] {
        switch value {
        case nil: return []
        case let set as Set<ManagedObject>: return Array(set)
        case let array as [ManagedObject]: return array
        case let many as any Collection:
            return many.map { element in
                guard let o = element as? ManagedObject else {
                    relationshipMismatch(relationship, value)
                }
                return o
            }
        default: relationshipMismatch(relationship, value)
        }
    }

    /// `value` as the destination of the to-one `relationship` (a managed object or `nil`);
    /// anything else traps naming the key.
    func destination(_ value: Any?, of relationship: RelationshipDescription) -> ManagedObject? {
        guard value == nil || value is ManagedObject else {
            relationshipMismatch(relationship, value)
        }
        return value as? ManagedObject
    }

    /// The attribute `key`'s stored value.
    ///
    /// - Precondition: `key` names an attribute.
    public func attributeValue(forKey key: String) -> AttributeValue {
        guard let attribute = entity.attributesByName[key] else {
            unknownKey(key, "attributeValue(forKey:)")
        }
        return read(attribute.index, "attributeValue(forKey: \"\(key)\")").attributeValue
    }

    /// Sets the attribute `key` to a stored value.
    ///
    /// - Precondition: `key` names an attribute and `value` fits its type.
    public func setAttributeValue(_ value: AttributeValue, forKey key: String) {
        guard let attribute = entity.attributesByName[key] else {
            unknownKey(key, "setAttributeValue(_:forKey:)")
        }
        guard let v = value.coerced(to: attribute.type) else {
            preconditionFailure(
                "ObjectGraph: \(entity.name).\(key) expects a \(attribute.type.rawValue) value; got \(value)"
            )
        }
        writeAttribute(attribute.index, v, "setAttributeValue(_:forKey: \"\(key)\")")
    }

    /// The value at a dotted key path (`"category.name"`), following to-one relationships;
    /// `nil` when a step is `nil`.
    ///
    /// - Note: Mirrors `value(forKeyPath:)` for to-one paths.
    public func value(forKeyPath keyPath: String) -> Any? {
        var object: ManagedObject? = self
        let keys = keyPath.split(separator: ".").map(String.init)
        for key in keys.dropLast() {
            guard let next = object?.value(forKey: key) else { return nil }
            guard let o = next as? ManagedObject else {
                preconditionFailure("ObjectGraph: \(keyPath): \(key) is not a to-one relationship")
            }
            object = o
        }
        return object?.value(forKey: keys.last ?? keyPath)
    }

    /// The persistent properties changed since the object was last fetched or saved, with
    /// their new values.
    ///
    /// Transient properties are left out, as in Core Data: changing one still makes the object
    /// ``hasChanges`` (and ``isUpdated``), but never appears here.
    ///
    /// - Note: Mirrors `changedValues()`.
    public func changedValues() -> [String: Any] {
        managedObjectContext?.checkQueue("changedValues()")
        var result: [String: Any] = [:]
        let transient = entity.layout.transientSlots
        for index in changedSlots where !transient.contains(index) {
            let property = entity.properties[index]
            // A kept row's overlay answers without converting the row.
            if rowValues != nil, let value = rowValue(at: index) {
                result[property.name] = bridged(value, property) ?? NSNull()
                continue
            }
            // A to-many that deleted members left while it was a fault (`unlinkDeleted`).
            if case .toMany(nil) = slots[index] { loadToMany(index) }
            result[property.name] = bridged(slots[index], property) ?? NSNull()
        }
        return result
    }

    /// The last fetched or saved values of `keys` (every persistent property when `nil`).
    ///
    /// Only persistent properties are reported, as in Core Data: transient properties are
    /// never committed anywhere, and to-many relationships are not kept in snapshots.
    ///
    /// - Note: Mirrors `committedValues(forKeys:)`.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        managedObjectContext?.checkQueue("committedValues(forKeys:)")
        if !hasValues && !state.isInserted { fireFault() }
        guard snapshot != nil else { return [:] }
        var result: [String: Any] = [:]
        for property in entity.properties where keys?.contains(property.name) ?? true {
            if property.isTransient { continue }
            if let r = property as? RelationshipDescription, r.isToMany { continue }
            result[property.name] =
                bridged(committedValue(at: property.index), property) ?? NSNull()
        }
        return result
    }

    /// A slot's value as the public API gives it (see ``value(forKey:)``).
    func bridged(_ value: ObjectValue, _ property: PropertyDescription) -> Any? {
        switch value {
        case .attribute(let v): return (property as! AttributeDescription).publicValue(of: v)
        case .toOne(let o): return o
        case .toMany(let m):
            return (property as! RelationshipDescription).isOrdered
                ? (m?.objects ?? []) : Set(m?.objects ?? [])
        }
    }

    func property(_ key: String, _ call: String) -> PropertyDescription {
        guard let p = entity.propertiesByName[key] else { unknownKey(key, call) }
        return p
    }

    func unknownKey(_ key: String, _ call: String) -> Never {
        preconditionFailure(
            """
            ObjectGraph: \(call): entity \(entity.name) has no property '\(key)' \
            (it has: \(entity.properties.map(\.name).joined(separator: ", ")))
            """)
    }

    private func relationshipMismatch(_ r: RelationshipDescription, _ value: Any?) -> Never {
        preconditionFailure(
            """
            ObjectGraph: \(entity.name).\(r.name) expects \(r.isToMany ? "a set of" : "a") \
            \(r.destinationEntityName) object\(r.isToMany ? "s" : " or nil"); got \(type(of: value as Any))
            """)
    }

    // MARK: Slot access

    /// Reads slot `index`, firing the object's fault and the relationship's fault as needed.
    func read(_ index: Int, _ call: @autoclosure () -> String) -> ObjectValue {
        if ConcurrencyCheck.isEnabled { managedObjectContext?.checkQueue(call()) }
        return readChecked(index)
    }

    /// ``read(_:_:)`` of relationship `r`'s slot, the queue check naming `Entity.relationship`.
    ///
    /// The name is made only when the check runs, without a closure: the autoclosure of
    /// `read(r.index, "\(entity.name).\(r.name)")` captured the object and the relationship,
    /// a retain and a release of each on every read, checked or not.
    @inline(__always)
    func read(_ r: RelationshipDescription) -> ObjectValue {
        if ConcurrencyCheck.isEnabled { checkQueue(for: r) }
        return readChecked(r.index)
    }

    /// ``read(_:_:)`` after its queue check: for a caller that checks the queue itself.
    @inline(__always)
    func readChecked(_ index: Int) -> ObjectValue {
        if !hasValues { fireFault() }
        // A kept row answers attributes and to-ones without becoming slots.
        if rowValues != nil, let value = rowValue(at: index) { return value }
        if case .toMany(nil) = slots[index] { loadToMany(index) }
        return slots[index]
    }

    /// Makes slot `index` ready to be read in place, as ``read(_:_:)`` does before it returns
    /// the value: the queue checked, the object's fault fired, a to-many relationship fault
    /// loaded. For the sites that go on to read or change the slot themselves (`link`,
    /// `unlink`): through `read`, the slot's value was copied out and thrown away (a to-many's
    /// two arrays retained and released).
    func prepare(_ index: Int, _ call: @autoclosure () -> String) {
        if ConcurrencyCheck.isEnabled { managedObjectContext?.checkQueue(call()) }
        prepareChecked(index)
    }

    /// ``prepare(_:_:)`` of relationship `r`'s slot, the queue check naming
    /// `Entity.relationship`, made without a closure (see ``read(_:)``).
    @inline(__always)
    func prepare(_ r: RelationshipDescription) {
        if ConcurrencyCheck.isEnabled { checkQueue(for: r) }
        prepareChecked(r.index)
    }

    /// ``prepare(_:_:)`` after its queue check.
    @inline(__always)
    private func prepareChecked(_ index: Int) {
        if !hasValues { fireFault() }
        if isUnloadedToMany(index) { loadToMany(index) }
    }

    /// Checks that the caller is on the context's queue, naming the access
    /// `Entity.relationship`. Out of line: only a run with the concurrency check on calls it.
    @inline(never)
    private func checkQueue(for r: RelationshipDescription) {
        managedObjectContext?.checkQueue("\(entity.name).\(r.name)")
    }

    /// Whether slot `index` holds a to-many that is not loaded (a relationship fault), tested
    /// in place through the slots' buffer: `case .toMany(nil) = slots[index]` copied the slot's
    /// value out to test it (a retain and a release of a loaded to-many's two arrays, ≈ 80
    /// instructions for each link of an expense into its category's members).
    @inline(__always)
    private func isUnloadedToMany(_ index: Int) -> Bool {
        slots.withUnsafeBufferPointer { buffer in
            precondition(index < buffer.count, "ObjectGraph: slot \(index) out of range")
            if case .toMany(nil) = buffer[index] { return true }
            return false
        }
    }

    /// Writes attribute slot `index` and records the change (nothing when it already holds an
    /// equal value); the setters and transformable writes call it.
    ///
    /// The old value is compared by its case first (a slot of another case differs at once;
    /// one of the same case, a default included, is compared with `==`), and `value` is not
    /// wrapped in an ``ObjectValue`` until it is stored: the former `write`, taking an
    /// `ObjectValue`, copied the two values out of their enums to compare them (three copies
    /// and three destructions of an `ObjectValue` per write).
    ///
    /// An object that keeps its row records the value over the row instead, where it can
    /// (``writeOverRow(_:_:)``): the row stays its committed values.
    func writeAttribute(
        _ index: Int, _ value: AttributeValue, _ call: @autoclosure () -> String
    ) {
        if ConcurrencyCheck.isEnabled { managedObjectContext?.checkQueue(call()) }
        storeAttribute(index, value)
    }

    /// ``writeAttribute(_:_:_:)`` after its queue check: for a caller that checks the queue
    /// itself (the `@Attribute` setter, whose message would otherwise be a closure capturing
    /// the object: a retain and a release of it on every write).
    @inline(__always)
    func storeAttribute(_ index: Int, _ value: AttributeValue) {
        if !hasValues { fireFault() }
        if rowValues != nil, writeOverRow(index, value) { return }
        if slots[index].holdsAttribute(value) { return }
        keepCommittedValue(index)
        slots[index] = .attribute(value)
        markChanged(index)
    }

    /// Records that slot `index` changed (for an inserted object: that it was set, which
    /// uniqueness-constraint merges need).
    func markChanged(_ index: Int) {
        changedSlots.insert(index)
        // Two flags, one load: the context hears of an object once per event.
        if !state.isPending || !state.isUnannounced { managedObjectContext?.objectDidChange(self) }
    }

    /// Fills the object's values: from its context's parent, or defaults when detached.
    func fireFault() {
        guard !hasValues else { return }
        if let context = managedObjectContext {
            context.fulfillFault(self)
        } else {
            slots = ManagedObject.initialSlots(for: entity)
        }
    }

    /// Values for an object whose row is gone: every attribute nil, every relationship empty.
    static func emptySlots(for entity: EntityDescription) -> [ObjectValue] {
        entity.layout.kinds.map { kind in
            switch kind {
            case .attribute, .transientAttribute: .attribute(.null)
            case .toOne, .transientToOne: .toOne(nil)
            case .toManyStored, .toManyDerived, .transientToMany: .toMany(RelatedObjects())
            }
        }
    }

    /// Default values for a new object: attribute defaults, empty relationships.
    static func initialSlots(for entity: EntityDescription) -> [ObjectValue] {
        // The layout's arrays read in place, element by element: binding the layout copied
        // it (a retain and release of each of its arrays), binding its two arrays a retain
        // and release of each (four atomic reference-count operations a new object, W1).
        // Reserved, not made with `init(unsafeUninitializedCapacity:)`: that goes through the
        // standard library's unspecialised buffer allocation (W1 +5.9 M instructions at
        // N = 20,000 with this array and the saved row made that way, for a release fewer
        // each).
        let count = entity.layout.kinds.count
        var slots: [ObjectValue] = []
        slots.reserveCapacity(count)
        for i in 0..<count {
            switch entity.layout.kinds[i] {
            case .attribute, .transientAttribute:
                slots.append(.attribute(entity.layout.defaultAttributeValues[i]))
            case .toOne, .transientToOne: slots.append(.toOne(nil))
            case .toManyStored, .toManyDerived, .transientToMany:
                slots.append(.toMany(RelatedObjects()))
            }
        }
        return slots
    }
}
