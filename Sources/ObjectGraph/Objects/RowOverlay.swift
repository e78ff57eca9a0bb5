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

    /// The written slots' current values, in a block: ``OneWrite`` or ``ManyWrites``, told
    /// apart by their class. One class reference, as the array it replaces, so that
    /// `FaultSource` holding it stays one word with one payload's layout (an enum of the two
    /// made each fault's `FaultSource` costlier to destroy: W5 +0.3 %). Only its two
    /// subclasses are ever made (its initialiser is file-private): the overlay reads any
    /// block that is not ``OneWrite`` as ``ManyWrites`` unchecked.
    class Writes {
        fileprivate init() {}
    }

    /// The one write of an overlay of one, in a block of its own: 40 bytes (48 with glibc's
    /// header), where a one-element array of entries is 56 (64), for every object W4b writes.
    /// Never changed: a later write replaces the block (see ``set(_:_:)``), so copies of an
    /// overlay never share a changing block.
    final class OneWrite: Writes {
        /// The write.
        let entry: Entry

        /// A block holding `entry`.
        init(_ entry: Entry) { self.entry = entry }
    }

    /// Two writes or more, in first-write order (a slot appears at most once). Changed in
    /// place only while one overlay holds it (see ``set(_:_:)``).
    final class ManyWrites: Writes {
        /// The writes.
        var entries: [Entry]

        /// A block holding `entries`.
        init(_ entries: [Entry]) { self.entries = entries }
    }

    /// The written slots' current values. Never empty while the overlay is kept (no
    /// allocation before the first write).
    private var writes: Writes

    /// The block of one write, or `nil` for several.
    @inline(__always)
    private var one: OneWrite? {
        type(of: writes) == OneWrite.self ? unsafeDowncast(writes, to: OneWrite.self) : nil
    }

    /// The block of the overlay's one write, or `nil` when it has several: a save's patch of
    /// that slot holds it in place of a copy of the value (see `PatchValues`). The block is
    /// never changed, so sharing it keeps the overlay's value semantics.
    var oneWriteBlock: OneWrite? { one }

    /// An overlay of one written slot.
    ///
    /// - Precondition: `0 <= slot <= maximumSlot` (a larger slot traps in `Entry`'s init:
    ///   the caller converts the row instead).
    init(_ slot: Int, _ value: AttributeValue) {
        writes = OneWrite(Entry(slot: slot, value: value))
    }

    /// The number of slots written.
    var count: Int {
        if one != nil { return 1 }
        return unsafeDowncast(writes, to: ManyWrites.self).entries.count
    }

    /// Calls `body` with each written slot's entry, in first-write order.
    @inline(__always)
    func forEachEntry(_ body: (Entry) -> Void) {
        if let one {
            body(one.entry)
        } else {
            for entry in unsafeDowncast(writes, to: ManyWrites.self).entries { body(entry) }
        }
    }

    /// The current value of `slot` if it was written, else `nil` (the row's value is it).
    @inline(__always)
    func value(at slot: Int) -> AttributeValue? {
        if let one {
            if one.entry.slot == slot { return one.entry.value }
            return nil
        }
        for entry in unsafeDowncast(writes, to: ManyWrites.self).entries where entry.slot == slot {
            return entry.value
        }
        return nil
    }

    /// Records `value` as the current value of `slot` (replacing an earlier write of it).
    ///
    /// A rewrite of an overlay's one slot makes a new block; a second slot makes a
    /// ``ManyWrites``, which later writes change in place while this overlay alone holds it
    /// (a copy's block is copied first).
    ///
    /// - Precondition: `0 <= slot <= maximumSlot` (a larger slot traps in `Entry`'s init:
    ///   the caller converts the row instead).
    mutating func set(_ slot: Int, _ value: AttributeValue) {
        let entry = Entry(slot: slot, value: value)
        if let one {
            writes = one.entry.slot == slot ? OneWrite(entry) : ManyWrites([one.entry, entry])
            return
        }
        if !isKnownUniquelyReferenced(&writes) {
            writes = ManyWrites(unsafeDowncast(writes, to: ManyWrites.self).entries)
        }
        let many = unsafeDowncast(writes, to: ManyWrites.self)
        if let i = many.entries.firstIndex(where: { $0.slot == slot }) {
            many.entries[i].value = value
        } else {
            many.entries.append(entry)
        }
    }
}
