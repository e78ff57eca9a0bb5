import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// How a bulk insert places keys: through the key map's dense slots in one pass when every
/// key of an entity is small enough to be there, one by one otherwise; either way, the table
/// and the first clash are those of inserting the rows one by one.
extension RowTableBulkLoadTests {
    /// Keys of one entity past the key map's dense bound (2^24) or negative are placed one by
    /// one, beside another entity's placed densely in the same batch; both inserts, moving
    /// and copying, leave the table inserting row by row leaves.
    @Test func keysOutsideTheDenseRangeArePlacedBesideDenseOnes() {
        var random = SeededRandomNumberGenerator(seed: 61)
        let far: [Int64] = [1 << 24, (1 << 24) + 5, 1 << 40, -3]
        for round in 0..<6 {
            var (moving, copying, single) = tables(given: batch(&random, keys: Array(1...30)))
            // Items with far keys, folders and notes with small ones, interleaved.
            var second = batch(&random, keys: Array(31...60)).filter {
                $0.objectID.entity.name != "Item"
            }
            for (k, pk) in far.enumerated() {
                let at = Int(random.next() % UInt64(second.count + 1))
                second.insert(row("Item", pk + Int64(round), folder: Int64(k + 1)), at: at)
            }
            var taken = second
            #expect(moving.insertNew(moving: &taken) == nil)
            #expect(copying.insertNew(second) == nil)
            for r in second { single.upsert(r) }
            let all = contents(moving, keys: 1...65)
            #expect(all == contents(copying, keys: 1...65))
            #expect(all == contents(single, keys: 1...65))
            for pk in far {
                let id = id("Item", pk + Int64(round))
                #expect(moving.row(for: id) != nil)
                #expect(moving.row(for: id) == single.row(for: id))
                #expect(copying.row(for: id) == single.row(for: id))
            }
            #expect(moving.primaryKeyCounters == single.primaryKeyCounters)
        }
    }

    /// Clashes found in two entities' runs, each placed densely: the first in the batch is
    /// named, whichever entity is placed first, and the table is left as it was.
    @Test func theFirstClashOfAnyEntityIsNamed() {
        let base = [row("Folder", 1, folder: nil), row("Item", 2, folder: 1)]
        let batches: [(rows: [StoreRow], clash: Int)] = [
            // The folders' clash (2) comes before the items' (3).
            (
                [
                    row("Folder", 3, folder: nil), row("Item", 7, folder: 1),
                    row("Folder", 3, folder: nil), row("Item", 7, folder: 1),
                ], 2
            ),
            // The items' clash (2) comes before the folders' (3).
            (
                [
                    row("Item", 7, folder: 1), row("Folder", 3, folder: nil),
                    row("Item", 7, folder: 1), row("Folder", 3, folder: nil),
                ], 2
            ),
            // A row the table holds, after a clash of the other entity.
            (
                [
                    row("Item", 8, folder: 1), row("Item", 8, folder: 1),
                    row("Folder", 1, folder: nil),
                ], 1
            ),
            (
                [
                    row("Folder", 4, folder: nil), row("Item", 2, folder: 1),
                    row("Folder", 4, folder: nil),
                ], 1
            ),
        ]
        for (rows, clash) in batches {
            var table = RowTable(model: model, storeIdentifier: "S")
            #expect(table.insertNew(base) == nil)
            let before = contents(table, keys: 1...10)
            #expect(table.insertNew(rows) == clash)
            #expect(contents(table, keys: 1...10) == before)
            var taken = rows
            #expect(table.insertNew(moving: &taken) == clash)
            #expect(taken == rows)
            #expect(contents(table, keys: 1...10) == before)
        }
    }
}
