import Foundation

// Core Data's primitive values and change notifications: what custom accessors and
// `awakeFromInsert()` overrides call. A primitive read or write reaches the object's values
// without the change tracking a setter does; the will/did-change pair around a primitive write
// makes it a change exactly as the setter would (snapshot kept, object marked changed and
// announced, inverse relationships kept in step). Nothing here is on the property wrappers'
// paths: their getters and setters are unchanged.

/// The kind of change made to the members of a to-many relationship, for
/// ``ManagedObject/willChangeValue(forKey:withSetMutation:using:)``.
///
/// - Note: Stands for Foundation's `NSKeyValueSetMutationKind`, which Foundation on Linux does
///   not have (it has no key-value observing); the cases and raw values are the same.
public enum KeyValueSetMutationKind: UInt, Sendable {
    /// Members were added (`NSKeyValueUnionSetMutation`).
    case union = 1
    /// Members were removed (`NSKeyValueMinusSetMutation`).
    case minus = 2
    /// Only the members also in the given objects were kept (`NSKeyValueIntersectSetMutation`).
    case intersect = 3
    /// The members were replaced (`NSKeyValueSetSetMutation`).
    case set = 4
}

extension ManagedObject {
    // MARK: Primitive values

    /// The value of the property `key` in the object's own storage, without change tracking.
    ///
    /// Gives what ``value(forKey:)`` gives: an attribute's Swift value or `nil`, a to-one's
    /// object or `nil`, a to-many's `Set<ManagedObject>` (an `[ManagedObject]` when ordered),
    /// a transient property's current value. It fires the object's fault, and loads a to-many
    /// relationship that is not loaded yet, so that the value returned is the real one (Core
    /// Data's documentation leaves a fault's primitive value unsaid; a `nil` here would make a
    /// ported getter that omits ``willAccessValue(forKey:)`` read `nil` silently).
    ///
    /// ```swift
    /// var name: String? {
    ///     willAccessValue(forKey: "name")
    ///     defer { didAccessValue(forKey: "name") }
    ///     return primitiveValue(forKey: "name") as? String
    /// }
    /// ```
    ///
    /// A to-many's value is a copy, not a live set: Core Data's custom to-many accessors
    /// mutate the primitive set in place (`[[self primitiveEmployees] addObject:value]`),
    /// which here changes nothing (and `as? NSMutableSet` gives `nil`). Change the copy, then
    /// give it to ``setPrimitiveValue(_:forKey:)`` (see
    /// ``willChangeValue(forKey:withSetMutation:using:)``).
    ///
    /// Read by a Foundation `#Predicate` or `SortDescriptor` key path (a custom getter), it
    /// names `key` for the key path: a `String` getter resolves to its key; a getter of
    /// another type does not resolve, as any computed property that is not a chain of wrapped
    /// properties (`FetchSortDescriptor(_:)` throws `.invalidSortKey`, 134060).
    ///
    /// - Precondition: `key` is a property of the entity; the message names entity and key
    ///   (Core Data does not check: "on an unmodeled property, it will instead operate upon a
    ///   random modeled property").
    /// - Note: Mirrors `NSManagedObject.primitiveValue(forKey:)`.
    public func primitiveValue(forKey key: String) -> Any? {
        if let recorder = entity.keyPathProbe as? KeyPathProbe.Recorder {
            return KeyPathProbe.primitiveMarker(self, key: key, recorder: recorder)
        }
        let property = self.property(key, "primitiveValue(forKey:)")
        return bridged(read(property.index, "primitiveValue(forKey: \"\(key)\")"), property)
    }

    /// Sets the property `key` in the object's own storage, without change tracking.
    ///
    /// Takes what ``setValue(_:forKey:)`` takes, with the same type checks. Unlike the setter
    /// it does not mark the object changed (``hasChanges``, ``isUpdated`` and
    /// ``changedValues()`` stay as they were), posts no objects-did-change, records nothing for
    /// undo and does not touch the inverse relationship; the committed values
    /// (``committedValues(forKeys:)``) keep the value from before. So:
    /// - on an inserted object (``awakeFromInsert()``, Apple's recommended way to set initial
    ///   values), the value is a baseline: the insert is saved with it, but it is not a change;
    /// - on a fetched object whose values are saved, nothing is saved: a save writes changed
    ///   properties only (Core Data: "Core Data will not notice the change you make"), and the
    ///   value stays in memory until the object is refreshed, or saved for another change
    ///   (then the snapshot takes its current values);
    /// - between ``willChangeValue(forKey:)`` and ``didChangeValue(forKey:)`` it is a change, as
    ///   a setter makes it.
    ///
    /// A value set alone is never a change afterwards either: undo neither records it nor
    /// marks it changed when it puts back other properties, and the `.overwrite` merge policy
    /// saves the property's committed value, not it.
    ///
    /// For a to-many, the members not in `value` are removed and the others added, in the
    /// relationship's order (an ordered one takes `value`'s order).
    ///
    /// - Precondition: `key` is a property of the entity and `value` fits its type; a
    ///   mismatch traps with a message naming entity, key and the expected type.
    /// - Note: Mirrors `NSManagedObject.setPrimitiveValue(_:forKey:)`: "This method does not
    ///   invoke the change notification methods". Apple's page describes the receiver's side
    ///   only ("relates the object specified by value to the receiver, unrelating the
    ///   previously related object"); the inverse is left alone here because ObjectGraph, as
    ///   Core Data, keeps inverses in step from the change notifications, which this method
    ///   does not invoke.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        let property = self.property(key, "setPrimitiveValue(_:forKey:)")
        let index = property.index
        let new: ObjectValue
        if let attribute = property as? AttributeDescription {
            do { new = .attribute(try attribute.storedValue(for: value)) } catch {
                preconditionFailure("ObjectGraph: \(error)")
            }
        } else {
            let r = property as! RelationshipDescription
            if r.isToMany {
                let objects = members(value, of: r)
                for o in objects { checkDestination(r, o) }
                prepare(index, "setPrimitiveValue(_:forKey: \"\(key)\")")
                new = .toMany(replacingMembers(at: index, with: objects, ordered: r.isOrdered))
            } else {
                let object = destination(value, of: r)
                if let object { checkDestination(r, object) }
                new = .toOne(object)
            }
        }
        if ConcurrencyCheck.isEnabled {
            managedObjectContext?.checkQueue("setPrimitiveValue(_:forKey: \"\(key)\")")
        }
        if !hasValues { fireFault() }
        if slots[index].isSame(as: new) { return }
        // A persistent property's committed value stays the snapshot's (Core Data's snapshot is
        // not written by a primitive set). A transient one's is the value it was given: it is
        // never stored, and a value set in `awakeFromFetch()` is where it starts, not a change
        // (kept, undo would find the slot different from its committed value and mark it).
        if !property.isTransient { keepCommittedValue(index) }
        slots[index] = new
        if let context = managedObjectContext { context.noteBarePrimitiveSet(self, index, new) }
    }

    /// The loaded members of the to-many in slot `index` changed to `objects`: those not among
    /// them removed, the new ones appended (an ordered relationship takes `objects`' order).
    private func replacingMembers(at index: Int, with objects: [ManagedObject], ordered: Bool)
        -> RelatedObjects
    {
        guard !ordered, case .toMany(var members?) = slots[index] else {
            return RelatedObjects(objects)
        }
        let keep = Set(objects.map(ObjectIdentifier.init))
        for o in members.objects where !keep.contains(ObjectIdentifier(o)) { members.remove(o) }
        for o in objects { members.insert(o) }
        return members
    }

    // MARK: Access notifications

    /// Fires the object's fault before a primitive read; call it first in a custom getter,
    /// paired with ``didAccessValue(forKey:)``.
    ///
    /// Any key is accepted, `nil` included (`willAccessValue(forKey: nil)` is the Core Data
    /// idiom to fire a fault); an unmodeled key fires the fault too.
    ///
    /// - Note: Mirrors `NSManagedObject.willAccessValue(forKey:)`, which with
    ///   `didAccessValue(forKey:)` is "used to fire faults".
    public func willAccessValue(forKey key: String?) {
        if ConcurrencyCheck.isEnabled {
            managedObjectContext?.checkQueue("willAccessValue(forKey: \(key ?? "nil"))")
        }
        if !hasValues { fireFault() }
    }

    /// Ends a read begun with ``willAccessValue(forKey:)``. Does nothing here: there is no
    /// key-value observing to notify.
    ///
    /// - Note: Mirrors `NSManagedObject.didAccessValue(forKey:)`.
    public func didAccessValue(forKey key: String?) {
        if ConcurrencyCheck.isEnabled {
            managedObjectContext?.checkQueue("didAccessValue(forKey: \(key ?? "nil"))")
        }
    }

    // MARK: Change notifications

    /// Opens a change of the property `key`, to be made with
    /// ``setPrimitiveValue(_:forKey:)`` and closed with ``didChangeValue(forKey:)``.
    ///
    /// Fires the object's fault (and loads a to-many relationship), keeps the property's
    /// committed value for ``committedValues(forKeys:)``, conflicts and rollback, and notes
    /// its current value, which ``didChangeValue(forKey:)`` compares with the new one.
    ///
    /// ```swift
    /// var name: String? {
    ///     get { ... }
    ///     set {
    ///         willChangeValue(forKey: "name")
    ///         setPrimitiveValue(newValue, forKey: "name")
    ///         didChangeValue(forKey: "name")
    ///     }
    /// }
    /// ```
    ///
    /// A key that is not a property of the entity is ignored, as Core Data ignores changes to
    /// unmodeled properties (`contextShouldIgnoreUnmodeledPropertyChanges`, `true` by
    /// default). Calling it again for the same key before ``didChangeValue(forKey:)`` notes the
    /// value again (the latest call counts).
    ///
    /// - Note: Mirrors `NSManagedObject.willChangeValue(forKey:)` (key-value observing's).
    ///
    /// The noted value is kept by the object's context until ``didChangeValue(forKey:)`` takes
    /// it. A change left open is dropped when the context next saves changes, rolls back or
    /// resets (its `didChangeValue(forKey:)` then finds no noted value: see there), and
    /// goes away with the context; it never keeps its object alive beyond those. On an object
    /// without a context (`init(entity:insertInto: nil)`) nothing is noted: the pair marks the
    /// property changed and leaves inverses alone, as an unbalanced `didChangeValue` does.
    public func willChangeValue(forKey key: String) {
        guard let property = entity.propertiesByName[key] else { return }
        prepare(property.index, "willChangeValue(forKey: \"\(key)\")")
        keepCommittedValue(property.index)
        managedObjectContext?.openChange(of: self, slot: property.index)
    }

    /// Closes a change opened with ``willChangeValue(forKey:)``: when the property's value
    /// differs from the one noted then, the object is changed exactly as its setter would
    /// change it.
    ///
    /// The object is marked changed (``hasChanges``, ``isUpdated``, ``changedValues()``),
    /// announced in the next objects-did-change (and so to fetched results controllers and the
    /// undo manager's next group), and saved with the new value. For a relationship the
    /// inverse is kept in step: the old destination (or the members removed) no longer point
    /// back, the new one (or the members added) do, and a one-to-one's or one-to-many's new
    /// destination leaves its previous owner. An unchanged value changes nothing, as an equal
    /// value given to a setter does.
    ///
    /// Without a matching ``willChangeValue(forKey:)``, the old value is unknown: the property
    /// is marked changed (its committed value is what the snapshot held, or the current value
    /// when the snapshot had not kept one) and no inverse is maintained. A key that is not a
    /// property of the entity is ignored.
    ///
    /// - Note: Mirrors `NSManagedObject.didChangeValue(forKey:)`; Core Data maintains inverse
    ///   relationships from the change notifications ("each write access must be wrapped in
    ///   the willChangeValueForKey:/didChangeValueForKey: method pair").
    public func didChangeValue(forKey key: String) {
        guard let property = entity.propertiesByName[key] else { return }
        let index = property.index
        prepare(index, "didChangeValue(forKey: \"\(key)\")")
        guard let old = managedObjectContext?.closeChange(of: self, slot: index) else {
            markChanged(index)
            return
        }
        let new = slots[index]
        if old.isSame(as: new) { return }
        guard let r = property as? RelationshipDescription, let inverse = r.inverseRelationship
        else {
            markChanged(index)
            return
        }
        switch (old, new) {
        case (.toOne(let before), .toOne(let after)):
            before?.unlink(inverse, self)
            if let after, !inverse.isToMany, let previous = after.toOne(inverse), previous !== self
            {
                previous.unlink(r, after)
            }
            markChanged(index)
            after?.link(inverse, self)
        case (.toMany(let before), .toMany(let after)):
            let was = before?.objects ?? []
            let now = after?.objects ?? []
            let wasIDs = Set(was.map(ObjectIdentifier.init))
            let nowIDs = Set(now.map(ObjectIdentifier.init))
            markChanged(index)
            for o in was where !nowIDs.contains(ObjectIdentifier(o)) {
                if inverse.isToMany || o.toOne(inverse) === self { o.unlink(inverse, self) }
            }
            for o in now where !wasIDs.contains(ObjectIdentifier(o)) {
                if !inverse.isToMany, let previous = o.toOne(inverse), previous !== self {
                    previous.unlink(r, o)
                }
                o.link(inverse, self)
            }
        default:
            markChanged(index)
        }
    }

    /// Opens a change of the members of the to-many relationship `key`; see
    /// ``willChangeValue(forKey:)``.
    ///
    /// The mutation and the objects describe the change for observers; the change itself is
    /// found by comparing the members before and after, so any mutation kind is handled the
    /// same way.
    ///
    /// ```swift
    /// func addToEmployees(_ value: Employee) {
    ///     let changed: Set<AnyHashable> = [value]
    ///     willChangeValue(forKey: "employees", withSetMutation: .union, using: changed)
    ///     var members = primitiveValue(forKey: "employees") as! Set<ManagedObject>
    ///     members.insert(value)
    ///     setPrimitiveValue(members, forKey: "employees")
    ///     didChangeValue(forKey: "employees", withSetMutation: .union, using: changed)
    /// }
    /// ```
    ///
    /// - Precondition: `key` names a to-many relationship, or no property at all (ignored).
    /// - Note: Mirrors `NSManagedObject.willChangeValue(forKey:withSetMutation:using:)`;
    ///   ``KeyValueSetMutationKind`` stands for `NSKeyValueSetMutationKind`.
    public func willChangeValue(
        forKey key: String, withSetMutation mutationKind: KeyValueSetMutationKind,
        using objects: Set<AnyHashable>
    ) {
        if isModeledToMany(key, "willChangeValue(forKey:withSetMutation:using:)") {
            willChangeValue(forKey: key)
        }
    }

    /// Closes a change opened with ``willChangeValue(forKey:withSetMutation:using:)``; see
    /// ``didChangeValue(forKey:)``.
    ///
    /// - Precondition: `key` names a to-many relationship, or no property at all (ignored).
    /// - Note: Mirrors `NSManagedObject.didChangeValue(forKey:withSetMutation:using:)`.
    public func didChangeValue(
        forKey key: String, withSetMutation mutationKind: KeyValueSetMutationKind,
        using objects: Set<AnyHashable>
    ) {
        if isModeledToMany(key, "didChangeValue(forKey:withSetMutation:using:)") {
            didChangeValue(forKey: key)
        }
    }

    /// Whether `key` names a property, which must then be a to-many relationship (anything
    /// else traps naming it); `false` for an unmodeled key, which the set-mutation forms ignore.
    private func isModeledToMany(_ key: String, _ call: String) -> Bool {
        guard entity.propertiesByName[key] != nil else { return false }
        _ = toManyRelationship(key, call)
        return true
    }

    // MARK: Several values

    /// The values of `keys`, each as ``value(forKey:)`` gives it, with `NSNull()` for `nil`.
    ///
    /// ```swift
    /// let row = expense.dictionaryWithValues(forKeys: ["title", "amount"])
    /// ```
    ///
    /// - Precondition: every key is a property of the entity (the message names entity and
    ///   key; key-value coding raises for an undefined key).
    /// - Note: Mirrors `NSObject.dictionaryWithValues(forKeys:)`, which represents `nil`
    ///   values with `NSNull`.
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys {
            let property = self.property(key, "dictionaryWithValues(forKeys:)")
            result[key] =
                bridged(read(property.index, "dictionaryWithValues(forKeys:)"), property)
                ?? NSNull()
        }
        return result
    }
}

/// The values ``ManagedObject/willChangeValue(forKey:)`` noted for one object, by slot, until
/// ``ManagedObject/didChangeValue(forKey:)`` takes them.
///
/// Kept by the object's context (confined to its queue, like everything a context keeps),
/// not on the object (a field would add 8 bytes to every object for a rarely used pair) and
/// not in a process-wide table (a change left open kept its object, and what that object
/// holds, alive for the life of the process). The context drops them when it saves changes,
/// rolls back and resets.
struct OpenChange {
    let object: ManagedObject
    var values: [Int: ObjectValue]
}

extension ManagedObjectContext {
    /// Notes slot `slot`'s current value before a change of `object`.
    func openChange(of object: ManagedObject, slot: Int) {
        let value = object.slots[slot]
        openChanges[ObjectIdentifier(object), default: OpenChange(object: object, values: [:])]
            .values[slot] = value
    }

    /// The value noted for slot `slot` of `object`, forgotten now; `nil` when none was.
    func closeChange(of object: ManagedObject, slot: Int) -> ObjectValue? {
        let key = ObjectIdentifier(object)
        guard var entry = openChanges[key], entry.object === object,
            let value = entry.values.removeValue(forKey: slot)
        else { return nil }
        openChanges[key] = entry.values.isEmpty ? nil : entry
        return value
    }

    /// `object`'s slot `index` was set to `value` by `setPrimitiveValue(_:forKey:)`: outside
    /// a will/did-change pair that is no change, so what the last event left (the undo
    /// manager's baseline, `changedValuesForCurrentEvent()`'s) takes the value too, and the
    /// next undo group and event do not count it as theirs.
    func noteBarePrimitiveSet(_ object: ManagedObject, _ index: Int, _ value: ObjectValue) {
        let key = ObjectIdentifier(object)
        if !openChanges.isEmpty, let open = openChanges[key], open.object === object,
            open.values[index] != nil
        {
            return  // between the pair: a change, which `didChangeValue` records
        }
        if !undoBaselines.isEmpty, undoBaselines[key] != nil,
            index < undoBaselines[key]!.slots.count
        {
            undoBaselines[key]!.slots[index] = value
        }
        if !eventBaselines.isEmpty, var baseline = eventBaselines[key], baseline.object === object {
            var kept = Array(baseline.kept)
            if let i = kept.firstIndex(where: { $0.slot == index }) {
                kept[i].value = value
            } else {
                kept.append(Snapshot.Entry(slot: index, value: value))
            }
            baseline.kept = kept[...]
            eventBaselines[key] = baseline
        }
    }
}
