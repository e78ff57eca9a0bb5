import Foundation

// An object that keeps its store row and has attributes written keeps the row as its
// committed values and records only the written values over it (`RowOverlay`, in
// `faultSource`): these are the paths that write, read and save that form without converting
// the row into slots.

extension ManagedObject {
    /// Whether the object keeps a row with written attributes over it (see ``RowOverlay``).
    var hasRowOverlay: Bool {
        if case .overlay? = faultSource { return true }
        return false
    }

    /// The block of the overlay's one write when the object keeps a row with attributes
    /// written over it and `slot` is the only one written; `nil` otherwise. Its value is the
    /// slot's current value (``currentValue(at:)`` reads it there), so a save's patch of that
    /// slot holds the block instead of a copy of the value (see `StoreRowPatch`).
    @inline(__always)
    func overlayWriteBlock(ofSlot slot: Int) -> RowOverlay.OneWrite? {
        guard rowValues != nil, case .overlay(let overlay)? = faultSource,
            let block = overlay.oneWriteBlock, block.entry.slot == slot
        else { return nil }
        return block
    }

    /// Writes attribute slot `index` over the kept row and records the change (nothing when
    /// the slot already holds an equal value); returns `false`, having changed nothing, when
    /// the object must convert its row to be written: the slot is not an attribute the row
    /// stores, the object keeps relationships resolved beside its row (their field holds
    /// them), it has no snapshot (an insert whose save is committing), or the slot is beyond
    /// ``RowOverlay/maximumSlot``.
    ///
    /// The row holds the slot's committed value, so no ``Snapshot`` entry is kept. The value
    /// is compared as ``ObjectValue/holdsAttribute(_:)`` compares a slot's: by case, then `==`.
    ///
    /// - Precondition: the object keeps a row (`rowValues != nil`).
    /// - Complexity: O(slots written before).
    @inline(__always)
    func writeOverRow(_ index: Int, _ value: AttributeValue) -> Bool {
        guard snapshot != nil, !state.keepsResolvedRelationships, index <= RowOverlay.maximumSlot,
            case .attribute(let stored) = rowValues.unsafelyUnwrapped[index]
        else { return false }
        switch faultSource {
        case nil:
            if stored.caseNumber == value.caseNumber, stored == value { return true }
            faultSource = .overlay(RowOverlay(index, value))
        case .overlay(var overlay)?:
            let current = overlay.value(at: index) ?? stored
            if current.caseNumber == value.caseNumber, current == value { return true }
            // Taken out first, so that its block of writes is held once and changed in place.
            faultSource = nil
            overlay.set(index, value)
            faultSource = .overlay(overlay)
        case .row?, .batch?, .resolvedDestination?:
            return false
        }
        markChanged(index)
        return true
    }

    /// The current value of slot `index` without converting a kept row where the row (or its
    /// overlay) can answer (see ``rowValue(at:)``); otherwise the slot's, converting the row.
    /// Unlike ``read(_:_:)``, fires no fault and loads no to-many.
    @inline(__always)
    func currentValue(at index: Int) -> ObjectValue {
        if rowValues != nil, let value = rowValue(at: index) { return value }
        return slots[index]
    }

    /// The destination of to-one slot `index` without converting a kept row: the registered
    /// object (or a fault) of the row's key, when the object keeps a row in its context;
    /// otherwise the slot's.
    @inline(__always)
    func currentToOne(at index: Int) -> ManagedObject? {
        if rowValues != nil, !state.keepsResolvedRelationships,
            let context = managedObjectContext,
            let target = keptRowToOne(at: index, in: context)
        {
            return target
        }
        if case .toOne(let o) = slots[index] { return o }
        return nil
    }

    /// Converts a kept row with an overlay that a save committed without handing the row off
    /// (a store that applies patches its own way): the overlay's values become slots. The
    /// caller then empties the snapshot and the changes.
    ///
    /// - Precondition: the object still keeps its row (a row it lent for a patch,
    ///   ``lendRowForPatch()``, was taken back, ``takeSavedRow(_:)``: the row table's patch
    ///   always follows one with the other).
    func foldOverlayAfterSave() {
        assert(rowValues != nil, "ObjectGraph: a row lent for a patch was not taken back")
        materialiseRow()
    }
}
