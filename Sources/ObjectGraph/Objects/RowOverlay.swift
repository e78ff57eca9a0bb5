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
    /// write is a 40-byte block (48 with glibc's header; see ``OneWrite``), for every object
    /// W4b writes.
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

    /// The first write of an overlay of one, in a block of its own: 40 bytes (48 with glibc's
    /// header), where a one-element array of entries is 56 (64), for every object W4b writes.
    /// Never changed: a later write replaces the block (see ``set(_:_:)``), so copies of an
    /// overlay never share a changing block.
    final class OneWrite {
        /// The write.
        let entry: Entry

        /// A block holding `entry`.
        init(_ entry: Entry) { self.entry = entry }
    }

    /// The written slots' current values: one write in its own block, or several in an array,
    /// in first-write order (a slot appears at most once). Never empty while the overlay is
    /// kept (no allocation before the first write).
    private enum Storage {
        /// One slot written.
        case one(OneWrite)
        /// Two slots or more written, in first-write order.
        case many([Entry])
    }

    /// The written slots' current values.
    private var storage: Storage

    /// An overlay of one written slot.
    ///
    /// - Precondition: `0 <= slot <= maximumSlot` (a larger slot traps in `Entry`'s init:
    ///   the caller converts the row instead).
    init(_ slot: Int, _ value: AttributeValue) {
        storage = .one(OneWrite(Entry(slot: slot, value: value)))
    }

    /// The number of slots written.
    var count: Int {
        switch storage {
        case .one: 1
        case .many(let entries): entries.count
        }
    }

    /// Calls `body` with each written slot's entry, in first-write order.
    @inline(__always)
    func forEachEntry(_ body: (Entry) -> Void) {
        switch storage {
        case .one(let write): body(write.entry)
        case .many(let entries): for entry in entries { body(entry) }
        }
    }

    /// The current value of `slot` if it was written, else `nil` (the row's value is it).
    @inline(__always)
    func value(at slot: Int) -> AttributeValue? {
        switch storage {
        case .one(let write):
            // Not a `?:` with `nil`: `AttributeValue` is expressible by `nil` (its `.null`).
            if write.entry.slot == slot { return write.entry.value }
            return nil
        case .many(let entries):
            for entry in entries where entry.slot == slot { return entry.value }
            return nil
        }
    }

    /// Records `value` as the current value of `slot` (replacing an earlier write of it).
    ///
    /// A rewrite of an overlay's one slot makes a new block; a second slot makes the array.
    ///
    /// - Precondition: `0 <= slot <= maximumSlot` (a larger slot traps in `Entry`'s init:
    ///   the caller converts the row instead).
    mutating func set(_ slot: Int, _ value: AttributeValue) {
        switch storage {
        case .one(let write):
            let entry = Entry(slot: slot, value: value)
            storage =
                write.entry.slot == slot ? .one(OneWrite(entry)) : .many([write.entry, entry])
        case .many(var entries):
            // Let go of the stored array first, so that it is changed in place, not copied.
            storage = .many([])
            if let i = entries.firstIndex(where: { $0.slot == slot }) {
                entries[i].value = value
            } else {
                entries.append(Entry(slot: slot, value: value))
            }
            storage = .many(entries)
        }
    }
}
