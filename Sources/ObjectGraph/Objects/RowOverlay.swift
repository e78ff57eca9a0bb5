import Foundation

/// The attribute values written to an object that keeps its store row (see
/// ``ManagedObject/rowValues``), kept sparsely over the row: the current value of each slot
/// written since the row was taken; every other slot's current value is the row's.
///
/// The row stays the object's committed values, so a write needs no ``Snapshot`` entry and
/// no conversion of the whole row into slots (≈ 176 bytes for six slots, W4b's peak, to
/// change one value). Anything that needs real slots converts the row
/// (``ManagedObject/materialiseRow()``), which applies the overlay as the current values and
/// keeps the row's values of those slots as the committed ones. Only attributes the row
/// stores are kept here: a relationship or transient write converts the row first.
struct RowOverlay {
    /// One written slot: its index and current value.
    ///
    /// A struct, not a tuple (see ``Snapshot/Entry``).
    struct Entry {
        let slot: Int
        var value: AttributeValue
    }

    /// The current value of each slot written, in first-write order; a slot appears at most
    /// once. Never empty while the overlay is kept (no allocation before the first write).
    private(set) var entries: [Entry]

    /// An overlay of one written slot.
    init(_ slot: Int, _ value: AttributeValue) {
        entries = [Entry(slot: slot, value: value)]
    }

    /// The current value of `slot` if it was written, else `nil` (the row's value is it).
    @inline(__always)
    func value(at slot: Int) -> AttributeValue? {
        for entry in entries where entry.slot == slot { return entry.value }
        return nil
    }

    /// Records `value` as the current value of `slot` (replacing an earlier write of it).
    mutating func set(_ slot: Int, _ value: AttributeValue) {
        if let i = entries.firstIndex(where: { $0.slot == slot }) {
            entries[i].value = value
        } else {
            entries.append(Entry(slot: slot, value: value))
        }
    }
}
