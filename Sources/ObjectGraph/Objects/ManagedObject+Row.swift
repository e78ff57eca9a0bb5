import Foundation

// An object filled from a store row keeps the row's `[StoreValue]` (shared with the store's
// row table) as its values until something needs slots (`ManagedObject.slots` converts it on
// first use). These are the paths that read the row form as it is: filling a fault costs no
// conversion, and an object whose attributes alone are read (W2b's load, W5's kept half)
// never allocates slots.

extension ManagedObject {
    /// The value of slot `index` read from the kept row (or its overlay of written
    /// attributes, ``RowOverlay``), as the slot would hold it, or `nil` when the row cannot
    /// answer without becoming slots: a to-one with a destination, a to-many, a slot the
    /// store does not keep.
    ///
    /// A to-one's destination is not resolved here: the object must hold it from its first
    /// read on, as a slot does (and as Core Data caches a related object once accessed), or a
    /// destination only it references would be dropped by the registry's sweep at the end of
    /// the event and come back as a new fault, one that cannot fire once the store is gone.
    /// Reading it converts the row (``materialiseRow()``).
    ///
    /// - Precondition: the object keeps a row (`rowValues != nil`).
    @inline(__always)
    func rowValue(at index: Int) -> ObjectValue? {
        if case .overlay(let overlay)? = faultSource, let v = overlay.value(at: index) {
            return .attribute(v)
        }
        return committedRowValue(at: index)
    }

    /// The value of slot `index` in the kept row itself (its committed value), overlay
    /// ignored; `nil` where ``rowValue(at:)`` gives `nil`.
    ///
    /// - Precondition: the object keeps a row (`rowValues != nil`).
    @inline(__always)
    func committedRowValue(at index: Int) -> ObjectValue? {
        switch rowValues.unsafelyUnwrapped[index] {
        case .attribute(let v): return .attribute(v)
        case .toOne(nil): return .toOne(nil)
        case .toOne(.some), .toMany, .notStored: return nil
        }
    }

    /// Resolves a kept row's relationships before the object leaves `context` (a saved
    /// deletion, a merged-away duplicate), while the objects deleted with it are still
    /// registered: without the context they could no longer be resolved. The row is kept;
    /// only its to-ones with a destination and its stored to-manys are resolved (into
    /// `storedSlots`, in slot order, or, for a row whose one relationship value is a to-one's
    /// destination, into `faultSource`; see `state.keepsResolvedRelationships`), so the object
    /// answers the same values as if the whole row had been converted into slots here, as it
    /// was before (that conversion cost ≈ 1,100 instructions an object, and its slots freed
    /// again with it).
    ///
    /// With `reusingKept` (the caller has checked that the registry has removed, replaced or
    /// moved no entry since delete propagation kept the object's destination, see
    /// ``keepDestinationFound(_:)``), a destination kept for the row's one to-one key is taken
    /// as it is: it is the object registered under that key, which is what the look-up would
    /// answer (≈ 100 instructions saved an object).
    ///
    /// - Precondition: the object belongs to `context` (passed in by the caller, which holds
    ///   it: loading it through the object's token would retain and release it again).
    func resolveRelationshipsBeforeLeaving(
        _ context: ManagedObjectContext, reusingKept: Bool = false
    ) {
        // Written attributes are converted with the row (the flag's field holds the overlay).
        if case .overlay? = faultSource { materialiseRow() }
        guard let row = rowValues else { return }
        row.withUnsafeBufferPointer { row in
            // The usual shape, one to-one with a destination and no stored to-many, keeps the
            // destination without an array (see `FaultSource.resolvedDestination`).
            var count = 0
            var only = -1
            for i in row.indices {
                switch row[i] {
                case .toOne(.some):
                    count += 1
                    only = i
                case .toMany: count += 2
                case .attribute, .toOne(nil), .notStored: continue
                }
            }
            if count == 1, case .toOne(let id?) = row[only] {
                // The kept destination is the one registered under `id` when it still has
                // that ID and the registry changed no entry meanwhile (`reusingKept`).
                // (A flag already set means a destination kept by an insert's save: looked up.)
                if reusingKept, !state.keepsResolvedRelationships,
                    case .resolvedDestination(let kept)? = faultSource, kept.objectID == id
                {
                    state.keepsResolvedRelationships = true
                    return
                }
                keepResolvedDestination(context.registeredOrFault(id))
                return
            }
            dropKeptDestination()  // not this shape's
            if count == 0 {
                keepResolvedRelationships([])
                return
            }
            var related: [ObjectValue] = []
            related.reserveCapacity(count)
            for i in row.indices {
                switch row[i] {
                case .toOne(let id?): related.append(.toOne(context.registeredOrFault(id)))
                case .toMany(let ids):
                    let members = ids.map { context.registeredOrFault($0) }
                    related.append(.toMany(RelatedObjects(members)))
                case .attribute, .toOne(nil), .notStored: continue
                }
            }
            keepResolvedRelationships(related)
        }
    }

    /// Drops a destination delete propagation kept beside the row (see
    /// ``keepDestinationFound(_:)``; `FaultSource.resolvedDestination` without the flag), for
    /// the paths whose row, or its values, it no longer stands for: it would otherwise keep
    /// its object alive. A destination kept as a value (the flag set) stays.
    @inline(__always)
    func dropKeptDestination() {
        if !state.keepsResolvedRelationships, case .resolvedDestination? = faultSource {
            faultSource = nil
        }
    }

    /// Drops what the field beside the row holds for that row alone: an overlay of written
    /// attributes, or a destination delete propagation kept; for the paths that forget or
    /// replace the row (their callers have already forgotten relationships kept as values).
    @inline(__always)
    func dropOverlayOrKeptDestination() {
        switch faultSource {
        case .overlay?, .resolvedDestination?: faultSource = nil
        case .row?, .batch?, nil: break
        }
    }

    /// Keeps `destination`, which delete propagation just found for one of this deleted
    /// object's to-ones from its kept row's key, beside the row, without the flag that makes
    /// it a value (see ``FaultSource/resolvedDestination(_:)``), so that
    /// ``resolveRelationshipsBeforeLeaving(_:reusingKept:)`` at the save's end need not look
    /// the key up again. Returns whether it was kept: only by an object that keeps its row
    /// and uses the field for nothing else (no overlay, no relationships kept beside it); a
    /// destination kept before is replaced. Any path that converts, replaces or forgets the
    /// row drops it (``materialiseRow()``, ``keepRow(_:)``, `forgetRow()`, `holdNoSlots()`,
    /// the refresh and merge paths that clear the field), and rollback and undo clear it.
    /// The kept destination is held by this deleted object (itself held by the pending set)
    /// until the save ends, so a registry sweep cannot drop it meanwhile.
    func keepDestinationFound(_ destination: consuming ManagedObject) -> Bool {
        guard rowValues != nil, !state.keepsResolvedRelationships else { return false }
        switch faultSource {
        case nil, .resolvedDestination?:
            faultSource = .resolvedDestination(destination)
            return true
        case .row?, .batch?, .overlay?:
            return false
        }
    }

    /// The destination of to-one `r`, read from the kept row's key when the object keeps one
    /// (the row is not converted into slots: delete propagation reads a deleted object's
    /// to-ones this way); otherwise as ``toOne(_:)``.
    ///
    /// - Precondition: the object belongs to `context`.
    func toOneKeepingRow(_ r: RelationshipDescription, in context: ManagedObjectContext)
        -> ManagedObject?
    {
        if ConcurrencyCheck.isEnabled { context.checkQueue("\(entity.name).\(r.name)") }
        if !hasValues { fireFault() }
        if let target = keptRowToOne(at: r.index, in: context) { return target }
        return toOne(r)
    }

    /// The destination of to-one slot `index` read from the kept row's key: the registered
    /// object of `context` (or a fault for it), `.some(nil)` for no destination; `nil` when
    /// the object keeps no row. The row is not converted into slots.
    ///
    /// - Precondition: the object belongs to `context`; slot `index` is a to-one.
    @inline(__always)
    func keptRowToOne(at index: Int, in context: ManagedObjectContext) -> ManagedObject?? {
        guard let row = rowValues, case .toOne(let id) = row[index] else { return nil }
        // Not `id.map(context.registeredOrFault)`: the partial application captures the
        // context, a retain and release on its slow path (≈ 170 instructions).
        guard let id else { return .some(nil) }
        return .some(context.registeredOrFault(id))
    }

    /// A kept row's values as slots for an object that left its context with it: attributes
    /// as stored, relationships from `related` (resolved as it left, in slot order), slots
    /// the store does not keep as ``ManagedObjectContext/objectValues(_:of:)`` makes them.
    static func leftValues(
        _ row: [StoreValue], related: [ObjectValue], of entity: EntityDescription
    ) -> [ObjectValue] {
        var values: [ObjectValue] = []
        values.reserveCapacity(row.count)
        var next = 0
        for (i, value) in row.enumerated() {
            switch value {
            case .attribute(let v): values.append(.attribute(v))
            case .toOne(nil): values.append(.toOne(nil))
            case .toOne(.some), .toMany:
                values.append(related[next])
                next += 1
            case .notStored: values.append(notStoredValue(at: i, of: entity))
            }
        }
        assert(next == related.count, "the resolved relationships do not match the row")
        return values
    }

    /// A kept row's values as slots for an object that has no context: relationships empty,
    /// attributes as stored (slots the store does not keep take their defaults).
    static func detachedValues(_ row: [StoreValue], of entity: EntityDescription) -> [ObjectValue] {
        var values = emptySlots(for: entity)
        for (i, value) in row.enumerated() {
            switch value {
            case .attribute(let v): values[i] = .attribute(v)
            case .notStored:
                if let a = entity.properties[i] as? AttributeDescription {
                    values[i] = .attribute(a.defaultValue)
                }
            case .toOne, .toMany: break
            }
        }
        return values
    }

    /// The value of a slot the store does not keep, as an object filled from the row holds it:
    /// a relationship fault for a to-many, `nil` for a to-one, an attribute's default.
    @inline(__always)
    static func notStoredValue(at i: Int, of entity: EntityDescription) -> ObjectValue {
        let property = entity.properties[i]
        if let r = property as? RelationshipDescription {
            return r.isToMany ? .toMany(nil) : .toOne(nil)
        }
        return .attribute((property as? AttributeDescription)?.defaultValue ?? .null)
    }
}
