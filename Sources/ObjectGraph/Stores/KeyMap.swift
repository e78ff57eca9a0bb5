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

/// The sources of one derived to-many, by target key.
///
/// Sources are kept by their primary key (unique within the to-one's hierarchy), so adding and
/// removing are O(1); a read sorts one target's sources into primary-key order.
struct ReverseIndex: Sendable {
    private var sources: [Int64: [Int64: ManagedObjectID]] = [:]

    mutating func add(_ source: ManagedObjectID, to target: Int64) {
        sources[target, default: [:]][source.primaryKey] = source
    }

    mutating func remove(_ source: ManagedObjectID, from target: Int64) {
        sources[target]?[source.primaryKey] = nil
    }

    subscript(target: Int64) -> [ManagedObjectID] {
        guard let members = sources[target] else { return [] }
        return members.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The primary keys of one target's sources, unordered (fetch candidates read only these).
    func sourceKeys(of target: Int64) -> Dictionary<Int64, ManagedObjectID>.Keys? {
        sources[target]?.keys
    }
}
