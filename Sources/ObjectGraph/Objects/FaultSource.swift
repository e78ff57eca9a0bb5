import Foundation

/// Where a fault's values come from when it fires, without another read; or, for an object
/// filled from a row it keeps, what stands beside that row: a relationship value kept
/// resolved, or the attribute values written over it (``RowOverlay``).
enum FaultSource {
    /// The values of the row fetched with it (its version is the object's `snapshotVersion`).
    case row([StoreValue])
    /// The fetch batch it belongs to, filled together when one member fires.
    case batch(FaultBatch)
    /// Not a fault's source: the one relationship value, a to-one's destination, of an object
    /// that keeps its row's relationship values beside it (`state.keepsResolvedRelationships`:
    /// one that left its context keeping its row, or a saved insert). Kept here, in a field a
    /// filled object does not use, rather than as a one-element `storedSlots` array (an
    /// allocation and its freeing, ≈ 450 instructions per deleted object of the usual shape:
    /// one to-one and no stored to-many).
    case resolvedDestination(ManagedObject)
    /// Not a fault's source: the attribute values written to an object that keeps its row
    /// (and no relationships beside it), over the row (see ``RowOverlay``). Kept here, in a
    /// field a filled object does not use, rather than in a field of its own (8 bytes on
    /// every object).
    case overlay(RowOverlay)
}
