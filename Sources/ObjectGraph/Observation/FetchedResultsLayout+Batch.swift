import Foundation

extension FetchedResultsLayout {
    /// The layout of `objects` fetched in `context` (with the rows they were made from, when
    /// handed over), and whether it keeps their fetch order (it always should: the fetch sorts
    /// by the same descriptors).
    ///
    /// - Complexity: O(n) reads of the sort keys (a key path through a to-one read once per
    ///   destination, see ``FetchedRowKeyReader``), plus O(n log n) if the order does not hold.
    static func fetched(
        _ objects: [ManagedObject], rows: [StoreRow]?, reader: FetchedKeyReader,
        context: ManagedObjectContext, readsRowsAlways: Bool
    ) -> (FetchedResultsLayout, inFetchOrder: Bool) {
        var entries: [FetchedEntry] = []
        entries.reserveCapacity(objects.count)
        var rowReader = FetchedRowKeyReader(reader, context: context)
        let sorts = reader.sorts
        // With one or two sort descriptors, the fetch order is checked as the keys are read
        // (entries are then in order when each object's keys do not sort after the next's;
        // the sequence breaks ties), without copying placements back out of the array.
        let checksAsRead = sorts.count <= 2
        var previousFirst = AttributeValue.null
        var previousSecond = AttributeValue.null
        var inFetchOrder = true
        for i in objects.indices {
            let object = objects[i]
            let placement = rowReader.placement(
                of: object, row: rows?[i].values, sequence: i, readsRowAlways: readsRowsAlways)
            if checksAsRead {
                if i > 0, inFetchOrder {
                    switch sorts[0].compareValues(previousFirst, placement.first) {
                    case .orderedDescending: inFetchOrder = false
                    case .orderedSame:
                        if sorts.count > 1,
                            sorts[1].compareValues(previousSecond, placement.second)
                                == .orderedDescending
                        {
                            inFetchOrder = false
                        }
                    case .orderedAscending: break
                    }
                }
                previousFirst = placement.first
                if sorts.count > 1 { previousSecond = placement.second }
            }
            entries.append(FetchedEntry(object: object, placement: placement))
        }
        var layout = FetchedResultsLayout(sorts: sorts, isSingleSection: reader.sectionKey == nil)
        if !checksAsRead {
            inFetchOrder = entries.withUnsafeBufferPointer { buffer in
                buffer.indices.dropFirst().allSatisfy {
                    layout.precedes(buffer[$0 - 1].placement, buffer[$0].placement)
                }
            }
        }
        if !inFetchOrder {
            // Never expected (the fetch sorts by the same descriptors); keeps the search sound.
            entries.sort { layout.precedes($0.placement, $1.placement) }
        }
        layout.replaceAll(entries)
        return (layout, inFetchOrder)
    }

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
