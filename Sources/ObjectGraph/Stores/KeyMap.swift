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
                    dense.append(
                        contentsOf: repeatElement(
                            -1, count: max(i + 1 - dense.count, dense.count / 2)))
                }
                dense[i] = newValue.map { Int32($0) } ?? -1
            } else {
                sparse[key] = newValue
            }
        }
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
