import Foundation

/// Primary key → row slot: a dense array for the keys stores hand out (small, increasing),
/// a dictionary for anything beyond.
///
/// Keys in `0 ..< denseLimit` live in the dense array, every other key in the dictionary; the
/// dense array never grows past `denseLimit`, so the getter and the setter agree on where a
/// key lives.
struct KeyMap: Sendable {
    /// The default bound of the dense array (2^24 keys, 64 MiB of slots).
    static let defaultDenseLimit: Int64 = 1 << 24
    private let denseLimit: Int64
    private var dense: [Int32] = []
    private var sparse: [Int64: Int] = [:]

    /// An empty map whose dense array holds keys below `denseLimit`.
    init(denseLimit: Int64 = KeyMap.defaultDenseLimit) {
        self.denseLimit = denseLimit
    }

    subscript(key: Int64) -> Int? {
        get {
            if key >= 0 && key < Int64(dense.count) {
                let slot = dense[Int(key)]
                return slot < 0 ? nil : Int(slot)
            }
            return key >= 0 && key < denseLimit ? nil : sparse[key]
        }
        set {
            if key >= 0 && key < denseLimit {
                let i = Int(key)
                if i >= dense.count {
                    guard newValue != nil else { return }
                    // Half again, but never past the limit: a key at or above it is the
                    // dictionary's, and the getter must not find it in the array.
                    let grown = min(max(i + 1, dense.count + dense.count / 2), Int(denseLimit))
                    dense.append(contentsOf: repeatElement(-1, count: grown - dense.count))
                }
                guard let slot = newValue else {
                    dense[i] = -1
                    return
                }
                precondition(slot < Int(Int32.max), "KeyMap: a row slot past Int32.max")
                dense[i] = Int32(slot)
            } else {
                sparse[key] = newValue
            }
        }
    }

    /// Grows the dense array at once to hold `key` (when it is below the dense bound), as
    /// setting `key` would, without the growth by half again of setting keys one by one up
    /// to it. Maps nothing new.
    ///
    /// - Complexity: O(`key`) when it grows the array.
    mutating func reserveDense(through key: Int64) {
        guard key >= Int64(dense.count), key < denseLimit else { return }
        dense.append(contentsOf: repeatElement(-1, count: Int(key) + 1 - dense.count))
    }

    /// Calls `body` with the dense array's slots through its buffer (at each key's position,
    /// its slot, or -1 for none) when every key of `keys` is in the array already (see
    /// ``reserveDense(through:)``), and returns what it returns; returns `nil` without calling
    /// it otherwise. For placing many keys at once: no range, growth or uniqueness check a key.
    ///
    /// - Precondition: `body` writes slots below `Int32.max`, or -1, and only at keys of
    ///   `keys`.
    mutating func withDenseSlots<R>(
        covering keys: ClosedRange<Int64>, _ body: (UnsafeMutableBufferPointer<Int32>) -> R
    ) -> R? {
        guard keys.lowerBound >= 0, keys.upperBound < Int64(dense.count) else { return nil }
        return dense.withUnsafeMutableBufferPointer { body($0) }
    }

    /// Removes `key` and returns its slot.
    mutating func removeValue(forKey key: Int64) -> Int? {
        // A dense key is read and cleared in one place (the getter and the setter each
        // checked the key's range again).
        if key >= 0 && key < Int64(dense.count) {
            let i = Int(key)
            let slot = dense[i]
            if slot < 0 { return nil }
            dense[i] = -1
            return Int(slot)
        }
        let old = self[key]
        self[key] = nil
        return old
    }
}
