import Foundation

/// An object's last fetched or saved values, kept sparsely: the old value of each slot
/// written since then; every other slot's committed value is its current one.
///
/// Copying every slot at an object's first write (the snapshot used to be a whole
/// `[ObjectValue]` sharing the slots' storage until then) cost an array per edited object,
/// 176 bytes for six slots at W4b's peak, and freeing it at save; an edit usually writes one
/// or two slots. Whatever writes a slot of an object that has a snapshot calls
/// ``ManagedObject/keepCommittedValue(_:)`` first, so the committed values read exactly as
/// a whole copy did (Core Data's snapshots: `committedValues(forKeys:)`, conflicts,
/// rollback, undo).
struct Snapshot {
    /// One kept slot: its index and committed value.
    ///
    /// A struct, not a tuple: an array of tuples is destroyed element by element through the
    /// tuple's generic value witness (`tuple_destroy`), a struct's through its own.
    struct Entry {
        let slot: Int
        var value: ObjectValue
    }

    /// The committed value of each slot written since, in first-write order; a slot appears
    /// at most once. Empty until the first write (no allocation).
    private(set) var kept: [Entry] = []

    init() {}

    /// The committed value of `slot` if it was kept, else `nil` (the current value is it).
    @inline(__always)
    func value(at slot: Int) -> ObjectValue? {
        for entry in kept where entry.slot == slot { return entry.value }
        return nil
    }

    /// Keeps `value` as the committed value of `slot`, unless one is kept already.
    @inline(__always)
    mutating func keep(_ slot: Int, _ value: ObjectValue) {
        // The first entry (most edits write one slot) is made at its size: appending to the
        // empty array took the growth path (`_consumeAndCreateNew`, ≈ 380 instructions).
        if kept.isEmpty {
            kept = [Entry(slot: slot, value: value)]
            return
        }
        for entry in kept where entry.slot == slot { return }
        kept.append(Entry(slot: slot, value: value))
    }

    /// Changes the committed value of `slot` where one is kept (else the slot's current
    /// value is the committed one, and the caller changes that).
    mutating func replaceKept(_ slot: Int, with value: ObjectValue) {
        guard let i = kept.firstIndex(where: { $0.slot == slot }) else { return }
        kept[i].value = value
    }
}

extension ManagedObject {
    /// Keeps slot `index`'s committed value before the slot is written: call before every
    /// write of a slot that is not meant to change the snapshot too. Does nothing without a
    /// snapshot (an insert, a fault) or when the slot's committed value is kept already.
    ///
    /// The slot is read before the snapshot is changed: reading it converts a kept row, which
    /// keeps its overlay's committed values in the snapshot (``materialiseRow()``).
    @inline(__always)
    func keepCommittedValue(_ index: Int) {
        if snapshot != nil {
            let value = slots[index]
            snapshot!.keep(index, value)
        }
    }

    /// The committed value of slot `index`. Only meaningful when the object has a snapshot.
    ///
    /// A kept row is the committed values (an overlay, ``RowOverlay``, holds current ones):
    /// its attributes and empty to-ones are read from it without converting it.
    func committedValue(at index: Int) -> ObjectValue {
        if rowValues != nil, let value = committedRowValue(at: index) { return value }
        return snapshot?.value(at: index) ?? slots[index]
    }

    /// Every slot's committed value, or `nil` without a snapshot (an unsaved insert, a fault).
    var committedSlots: [ObjectValue]? {
        guard snapshot != nil else { return nil }
        // Converted first: an overlay's committed values move into the snapshot.
        materialiseRow()
        var values = slots
        for entry in snapshot.unsafelyUnwrapped.kept { values[entry.slot] = entry.value }
        return values
    }

    /// Sets the snapshot so that the committed values are `committed` (one per slot), over
    /// the current slots: only the slots whose values differ are kept. O(slots).
    func setSnapshot(committed: [ObjectValue]) {
        materialiseRow()
        var fresh = Snapshot()
        for i in committed.indices where i >= slots.count || !committed[i].isSame(as: slots[i]) {
            fresh.keep(i, committed[i])
        }
        snapshot = fresh
    }

    /// Replaces every slot with `values`, keeping the committed value of each slot that
    /// changes (the snapshot stays what it was).
    func replaceSlots(with values: [ObjectValue]) {
        // Converted first, so that the snapshot keeps an overlay's committed values.
        materialiseRow()
        if snapshot != nil, slots.count == values.count {
            for i in values.indices where !slots[i].isSame(as: values[i]) {
                snapshot!.keep(i, slots[i])
            }
        }
        slots = values
    }
}
