import Foundation

/// Each result's placement by object identity: an open-addressing table (linear probing, at
/// most half full) keyed by the object's address.
///
/// A tracking controller fills it with every fetched object in ``FetchedResultsController/performFetch()``;
/// a `Dictionary` hashes each key with SipHash, several times the cost of this table's one
/// multiplication per key (issue 19: `performFetch()` with a delegate within 1.2× a fetch).
struct PlacementTable {
    /// Each bucket: 0 when empty, else 1 + the index of its entry in ``ids`` and ``values``.
    private var buckets: [Int32]
    /// The objects' addresses, densely.
    private var ids: [UInt] = []
    /// The placements, densely, in the order of ``ids``.
    private var values: [FetchedPlacement] = []
    /// log2 of the number of buckets.
    private var bits: Int

    /// How many objects the table holds.
    var count: Int { ids.count }

    /// An empty table that holds `minimumCapacity` objects without growing.
    init(minimumCapacity: Int = 0) {
        var bits = 4
        while 1 << bits < minimumCapacity * 2 { bits += 1 }
        self.bits = bits
        buckets = Array(repeating: 0, count: 1 << bits)
        ids.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    /// A table of every entry's placement.
    init(_ entries: [FetchedEntry]) {
        self.init(minimumCapacity: entries.count)
        // Each object once (a fetch returns an object once): appended without a lookup.
        // Through a buffer: iterating the array copies each whole entry.
        entries.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                let key = UInt(bitPattern: ObjectIdentifier(buffer[i].object))
                var b = home(key)
                while buckets[b] != 0 { b = (b + 1) & mask }
                ids.append(key)
                values.append(buffer[i].placement)
                buckets[b] = Int32(ids.count)
            }
        }
    }

    /// The placement of the object `id`, or `nil`; setting `nil` removes it.
    ///
    /// - Complexity: O(1) expected.
    subscript(id: ObjectIdentifier) -> FetchedPlacement? {
        get {
            let (_, index) = find(UInt(bitPattern: id))
            return index.map { values[$0] }
        }
        set {
            let key = UInt(bitPattern: id)
            let (bucket, index) = find(key)
            switch (index, newValue) {
            case (let index?, let newValue?):
                values[index] = newValue
            case (let index?, nil):
                remove(bucket: bucket, index: index)
            case (nil, let newValue?):
                if (ids.count + 1) * 2 > buckets.count {
                    grow()
                    self[id] = newValue
                    return
                }
                ids.append(key)
                values.append(newValue)
                buckets[bucket] = Int32(ids.count)
            case (nil, nil):
                break
            }
        }
    }

    private var mask: Int { buckets.count - 1 }

    /// The home bucket of `key`: Fibonacci hashing of the address.
    private func home(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(UInt.bitWidth - bits))
    }

    /// The bucket holding `key` and its entry's index, or the empty bucket ending its probe
    /// run and `nil`.
    private func find(_ key: UInt) -> (bucket: Int, index: Int?) {
        var b = home(key)
        while buckets[b] != 0 {
            let index = Int(buckets[b]) - 1
            if ids[index] == key { return (b, index) }
            b = (b + 1) & mask
        }
        return (b, nil)
    }

    /// Removes the entry at dense `index`, held in `bucket`: the last entry moves into its
    /// place, and the probe run after the bucket moves back (no tombstones).
    private mutating func remove(bucket: Int, index: Int) {
        let last = ids.count - 1
        if index != last {
            let (lastBucket, _) = find(ids[last])
            ids[index] = ids[last]
            values.swapAt(index, last)
            buckets[lastBucket] = Int32(index + 1)
        }
        ids.removeLast()
        values.removeLast()
        var i = bucket
        var j = bucket
        while true {
            j = (j + 1) & mask
            guard buckets[j] != 0 else { break }
            let h = home(ids[Int(buckets[j]) - 1])
            // The entry at j may fill the hole at i unless its home lies cyclically in (i, j].
            let stays = i <= j ? (h > i && h <= j) : (h > i || h <= j)
            if !stays {
                buckets[i] = buckets[j]
                i = j
            }
        }
        buckets[i] = 0
    }

    /// Doubles the buckets and files every entry again.
    private mutating func grow() {
        bits += 1
        buckets = Array(repeating: 0, count: 1 << bits)
        for (index, key) in ids.enumerated() {
            var b = home(key)
            while buckets[b] != 0 { b = (b + 1) & mask }
            buckets[b] = Int32(index + 1)
        }
    }
}
