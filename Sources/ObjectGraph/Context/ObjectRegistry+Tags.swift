import Foundation

// Where the registry's table places an ID: its tag and home slot.
extension ObjectRegistry {
    /// How many of a key's low bits pick its place in its block: an entity's keys
    /// `8b ..< 8b + 8` share one block of 8 slots (see `tag(_:)`).
    @inline(__always) static var blockBits: UInt32 { 3 }

    /// The tag of an ID: its primary key's low `blockBits` bits, under 29 bits of a hash of
    /// its entity's identity and the rest of its key (`key >> blockBits`, mixed by two
    /// multiplications), the lowest of them set so that no tag is 0 (a free slot). IDs that
    /// differ only by store (or temporary against permanent) share a tag.
    ///
    /// An entity's keys in blocks of 8 share a hash, so their homes (`home(_:)`) are 8
    /// consecutive slots: objects looked up or registered in key order (a fetch's rows, the
    /// members of a to-many, a save's deletions) touch the tables' memory in runs, one cache
    /// line of `objects` every 8 keys, rather than two random lines a key. With every key
    /// hashed on its own, each of those accesses missed the caches once the table outgrew
    /// them: W5's fetch of 100,000 faults, its check of the categories' members and its
    /// removals stalled on the two arrays' random lines.
    @inline(__always)
    static func tag(_ id: ManagedObjectID) -> UInt32 {
        let entity = UInt(bitPattern: ObjectIdentifier(id.entity))
        let key = UInt64(bitPattern: id.primaryKey)
        let h =
            ((key >> UInt64(blockBits)) &* 0x9E37_79B9_7F4A_7C15)
            ^ (UInt64(entity) &* 0xC2B2_AE3D_27D4_EB4F)
        let hashed = UInt32(truncatingIfNeeded: h >> (32 + UInt64(blockBits))) | 1
        return (hashed << blockBits) | (UInt32(truncatingIfNeeded: key) & blockMask)
    }

    /// The low bits of a key that pick its place in its block (`blockBits` of them).
    @inline(__always) static var blockMask: UInt32 { (1 << blockBits) - 1 }

    /// The home slot of a tag: the top bits of its hash (the block of 8 slots, one of
    /// `tags.count / 8`), then its key's low bits (the slot in the block).
    ///
    /// - Precondition: The table has at least 8 slots (`resize(toHold:)` starts at 16), so a
    ///   block never reaches past its end.
    @inline(__always)
    func home(_ tag: UInt32) -> Int {
        let block = (tag >> Self.blockBits) >> shift
        return Int(truncatingIfNeeded: (block << Self.blockBits) | (tag & Self.blockMask))
    }

    /// The slot holding `object`, found by identity, or `nil` (tests: where the table placed
    /// an entry). O(slots).
    func slotIndex(of object: ManagedObject) -> Int? {
        tags.indices.first { tags[$0] != 0 && objects[$0] === object }
    }
}
