import Foundation

/// Primary key → row slot: a dense array for the keys stores hand out (small, increasing),
/// a dictionary for anything beyond.
struct KeyMap: Sendable {
    private static let denseLimit: Int64 = 1 << 24
    private var dense: [Int32] = []
    private var sparse: [Int64: Int] = [:]

    subscript(key: Int64) -> Int? {
        get {
            if key >= 0 && key < Int64(dense.count) {
                let slot = dense[Int(key)]
                return slot < 0 ? nil : Int(slot)
            }
            return key >= 0 && key < Self.denseLimit ? nil : sparse[key]
        }
        set {
            if key >= 0 && key < Self.denseLimit && (newValue ?? 0) < Int(Int32.max) {
                let i = Int(key)
                if i >= dense.count {
                    guard newValue != nil else { return }
                    dense.append(contentsOf: repeatElement(-1, count: max(i + 1 - dense.count, dense.count / 2)))
                }
                dense[i] = newValue.map { Int32($0) } ?? -1
            } else {
                sparse[key] = newValue
            }
        }
    }

    /// Removes `key` and returns its slot.
    mutating func removeValue(forKey key: Int64) -> Int? {
        let old = self[key]
        self[key] = nil
        return old
    }
}

/// The sources of one derived to-many, by target key, each list in primary-key order.
struct ReverseIndex: Sendable {
    private var sources: [Int64: [ManagedObjectID]] = [:]

    mutating func add(_ source: ManagedObjectID, to target: Int64) {
        sources[target, default: []].insertSorted(source)
    }

    mutating func remove(_ source: ManagedObjectID, from target: Int64) {
        sources[target]?.removeSorted(source)
    }

    subscript(target: Int64) -> [ManagedObjectID] { sources[target] ?? [] }
}

extension Array where Element == ManagedObjectID {
    /// Appends in primary-key order (O(1) for increasing keys, the common case).
    mutating func insertSorted(_ id: ManagedObjectID) {
        if let last, last.primaryKey >= id.primaryKey {
            let i = insertionIndex(id.primaryKey)
            if i < count, self[i] == id { return }
            insert(id, at: i)
        } else {
            append(id)
        }
    }

    mutating func removeSorted(_ id: ManagedObjectID) {
        var i = insertionIndex(id.primaryKey)
        while i < count, self[i].primaryKey == id.primaryKey {
            if self[i] == id { remove(at: i); return }
            i += 1
        }
    }

    private func insertionIndex(_ key: Int64) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid].primaryKey < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
