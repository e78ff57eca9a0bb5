import Foundation

extension FetchedResultsLayout {
    /// Removes the entries at `indexes` (old flat indexes) and inserts `arriving` in place.
    ///
    /// A few changes edit the array in place (a binary search and a move each); many are
    /// merged in one pass.
    ///
    /// - Complexity: O(k (log n + n)) for k ≤ 32 changes, else O(n + k log k).
    mutating func apply(removing indexes: [Int], inserting arriving: [FetchedEntry]) {
        if indexes.count + arriving.count <= 32 {
            for i in indexes.sorted(by: >) { remove(at: i) }
            for entry in arriving { insert(entry) }
            return
        }
        let gone = Set(indexes)
        var kept: [FetchedEntry] = []
        kept.reserveCapacity(entries.count - gone.count + arriving.count)
        let incoming = arriving.sorted { precedes($0.placement, $1.placement) }
        var next = incoming.startIndex
        for (i, entry) in entries.enumerated() where !gone.contains(i) {
            while next < incoming.endIndex, precedes(incoming[next].placement, entry.placement) {
                kept.append(incoming[next])
                next += 1
            }
            kept.append(entry)
        }
        kept.append(contentsOf: incoming[next...])
        replaceAll(kept)
    }
}
