import Foundation

/// A set of slot indexes: a bit mask for the first 64 slots, a sorted array beyond.
///
/// Replaces `IndexSet` on the hot path of every property write.
struct SlotSet: Sequence, Sendable, Equatable {
    private var low: UInt64 = 0
    private var high: [Int] = []

    init() {}

    init(_ slots: some Sequence<Int>) {
        for slot in slots { insert(slot) }
    }

    var isEmpty: Bool { low == 0 && high.isEmpty }

    func contains(_ i: Int) -> Bool {
        i < 64 ? (low & (1 << UInt64(i))) != 0 : high.contains(i)
    }

    /// Whether every slot of this set is also in `other`.
    func isSubset(of other: SlotSet) -> Bool {
        low & ~other.low == 0 && high.allSatisfy(other.high.contains)
    }

    mutating func insert(_ i: Int) {
        if i < 64 {
            low |= 1 << UInt64(i)
        } else if !high.contains(i) {
            high.append(i)
            high.sort()
        }
    }

    mutating func remove(_ i: Int) {
        if i < 64 { low &= ~(1 << UInt64(i)) } else { high.removeAll { $0 == i } }
    }

    mutating func removeAll() {
        low = 0
        high.removeAll()
    }

    /// Calls `body` with each slot, ascending, without the iterator's allocation.
    @inline(__always)
    func forEachSlot(_ body: (Int) throws -> Void) rethrows {
        var mask = low
        while mask != 0 {
            try body(mask.trailingZeroBitCount)
            mask &= mask - 1
        }
        for i in high { try body(i) }
    }

    func makeIterator() -> AnyIterator<Int> {
        var mask = low
        var rest = high.makeIterator()
        return AnyIterator {
            if mask != 0 {
                let i = mask.trailingZeroBitCount
                mask &= mask - 1
                return i
            }
            return rest.next()
        }
    }
}
