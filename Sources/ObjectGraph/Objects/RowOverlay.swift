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
    /// A struct, not a tuple (see ``Snapshot/Entry``). The value comes first and the index is
    /// kept in 16 bits, in the value's padding: a 24-byte entry, so that an overlay of one
    /// write is a 56-byte block (64 with glibc's header) instead of a 64-byte one (80), for
    /// every object W4b writes.
    struct Entry {
        /// The slot's current value.
        var value: AttributeValue
        /// The slot's index, in 16 bits (see ``maximumSlot``).
        private let storedSlot: UInt16

        /// The slot's index.
        var slot: Int { Int(storedSlot) }

        /// The entry of `slot`, holding `value`.
        ///
        /// - Precondition: `0 <= slot <= maximumSlot`.
        init(slot: Int, value: AttributeValue) {
            self.value = value
            storedSlot = UInt16(slot)
        }
    }

    /// The largest slot an overlay keeps; a write of a slot beyond it converts the row (an
    /// entity of more than 65,536 properties).
    static let maximumSlot = Int(UInt16.max)

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
