import Foundation

// An object filled from a store row keeps the row's `[StoreValue]` (shared with the store's
// row table) as its values until something needs slots (`ManagedObject.slots` converts it on
// first use). These are the paths that read the row form as it is: filling a fault costs no
// conversion, and an object whose attributes alone are read (W2b's load, W5's kept half)
// never allocates slots.

extension ManagedObject {
    /// The value of slot `index` read from the kept row, as the slot would hold it, or `nil`
    /// when the row cannot answer without becoming slots: a to-one with a destination, a
    /// to-many, a slot the store does not keep.
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
        switch rowValues.unsafelyUnwrapped[index] {
        case .attribute(let v): return .attribute(v)
        case .toOne(nil): return .toOne(nil)
        case .toOne(.some), .toMany, .notStored: return nil
        }
    }

    /// Converts a kept row into slots before the object leaves its context (a saved deletion,
    /// a merged-away duplicate): without the context, its to-ones could no longer be resolved.
    @inline(__always)
    func materialiseBeforeDetaching() {
        if rowValues != nil { materialiseRow() }
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
}
