/// A map from objects (by identity) to positions: the index of a to-many's members.
///
/// An open-addressing hash table (linear probing, at most half full, deletion by backward
/// shift, as `ObjectRegistry`'s): an object's address is mixed by one multiplication, where
/// a `[ObjectIdentifier: Int]` hashed it through `Hasher` (about 750 instructions to insert a
/// member of a large to-many, most of setting an expense's category). Entries are (address,
/// position) pairs in one array; address 0 marks a free slot. The table holds no references.
struct ObjectPositions {
    /// (object address, position) per slot, address 0 for a free slot; then one last entry
    /// whose key is the count. Empty until the first insert.
    ///
    /// One array and nothing else, so the index is one word: `RelatedObjects` sits in every
    /// to-many's `ObjectValue`, and a larger payload made every slot copy go through the
    /// enum's outlined value witnesses (a third more instructions to set an attribute).
    private var entries: [(key: UInt, position: Int)] = []

    /// The number of objects in the table.
    var count: Int {
        entries.isEmpty ? 0 : Int(bitPattern: entries[entries.count - 1].key)
    }

    /// The number of slots (a power of two), 0 before the first insert.
    @inline(__always)
    private var size: Int { Swift.max(entries.count - 1, 0) }

    private mutating func setCount(_ count: Int) {
        entries[entries.count - 1].key = UInt(bitPattern: count)
    }

    /// Room for `capacity` objects without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity * 2 > size { resize(toHold: capacity) }
    }

    /// The position of `object`, or `nil`.
    @inline(__always)
    subscript(object: ManagedObject) -> Int? {
        guard count > 0 else { return nil }
        let (slot, found) = probe(Self.key(object))
        return found ? entries[slot].position : nil
    }

    /// Adds `object` at `position`; returns `false` (and changes nothing) when it is there.
    ///
    /// The probe and the two writes (the entry, the count) go through one buffer pointer:
    /// through the array, each write checked the array's uniqueness and bounds again (≈ 89
    /// instructions an insert besides growth in W1's profile, against ≈ 36).
    mutating func insert(_ object: ManagedObject, at position: Int) -> Bool {
        insert(address: Self.key(object), at: position)
    }

    /// ``insert(_:at:)`` for the object at `address` (its `ObjectIdentifier`'s bits), for a
    /// caller that reads the address without holding a reference (a list's storage read as
    /// words). The object must be alive, held by its caller.
    mutating func insert(address key: UInt, at position: Int) -> Bool {
        let count = self.count
        if (count + 1) * 2 > size { resize(toHold: count + 1) }
        return entries.withUnsafeMutableBufferPointer { table in
            let size = table.count - 1
            let mask = size - 1
            let shift = Self.shift(size)
            var slot = Self.home(key, shift)
            while true {
                let k = table[slot].key
                if k == key { return false }
                if k == 0 { break }
                slot = (slot + 1) & mask
            }
            table[slot] = (key, position)
            table[size].key = UInt(bitPattern: count + 1)
            return true
        }
    }

    /// Changes the position of `object`, which is in the table.
    mutating func update(_ object: ManagedObject, to position: Int) {
        let (slot, found) = probe(Self.key(object))
        precondition(found, "ObjectPositions.update: the object is not in the table")
        entries[slot].position = position
    }

    /// Removes `object`; returns its position, or `nil` when it was not there.
    mutating func removeValue(for object: ManagedObject) -> Int? {
        let count = self.count
        guard count > 0 else { return nil }
        let (slot, found) = probe(Self.key(object))
        guard found else { return nil }
        let mask = size - 1
        let position = entries[slot].position
        // Move later entries of the probe run back, so every entry stays reachable from its
        // home without tombstones.
        var hole = slot
        var next = slot
        while true {
            next = (next + 1) & mask
            let k = entries[next].key
            if k == 0 { break }
            let h = home(k)
            // The entry at `next` may fill the hole unless its home lies cyclically in
            // (hole, next].
            let stays = hole <= next ? (hole < h && h <= next) : (hole < h || h <= next)
            if stays { continue }
            entries[hole] = entries[next]
            hole = next
        }
        entries[hole] = (0, 0)
        setCount(count - 1)
        return position
    }

    // MARK: The table

    @inline(__always)
    private static func key(_ object: ManagedObject) -> UInt {
        UInt(bitPattern: ObjectIdentifier(object))
    }

    /// The slot holding `key` (`found`), or else the free slot that ends its probe run.
    ///
    /// The table must have slots (at least one insert since it was made).
    @inline(__always)
    private func probe(_ key: UInt) -> (slot: Int, found: Bool) {
        let mask = size - 1
        var slot = home(key)
        while true {
            let k = entries[slot].key
            if k == key { return (slot, true) }
            if k == 0 { return (slot, false) }
            slot = (slot + 1) & mask
        }
    }

    /// The home slot of `key`: the top bits of its product with a 64-bit odd constant.
    @inline(__always)
    private func home(_ key: UInt) -> Int { Self.home(key, Self.shift(size)) }

    /// The shift that takes a product's top bits for a table of `size` slots (a power of
    /// two).
    @inline(__always)
    private static func shift(_ size: Int) -> UInt64 {
        UInt64(64 - size.trailingZeroBitCount)
    }

    /// The home slot of `key` in a table whose ``shift(_:)`` is `shift`.
    @inline(__always)
    private static func home(_ key: UInt, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Grows the table to the smallest power of two (at least 8) slots that holds `capacity`
    /// objects at most half full, and moves the entries over.
    ///
    /// The new table is filled and the old one read through buffer pointers: through the
    /// arrays (a slice of the old entries, a bounds check and a uniqueness check at every
    /// write), growth cost W1 1.13 M instructions besides zeroing the new slots, against
    /// 0.66 M. Cost: one pass over the new slots (a `memset`) and one over the old.
    private mutating func resize(toHold capacity: Int) {
        var newSize = 8
        while newSize < capacity * 2 { newSize *= 2 }
        let count = self.count
        let shift = Self.shift(newSize)
        let mask = newSize - 1
        let grown = [(key: UInt, position: Int)](
            unsafeUninitializedCapacity: newSize + 1
        ) { table, initialized in
            table.initialize(repeating: (0, 0))
            table[newSize] = (UInt(bitPattern: count), 0)
            entries.withUnsafeBufferPointer { old in
                for entry in old.dropLast() where entry.key != 0 {
                    var slot = Self.home(entry.key, shift)
                    while table[slot].key != 0 { slot = (slot + 1) & mask }
                    table[slot] = entry
                }
            }
            initialized = newSize + 1
        }
        entries = grown
    }
}
