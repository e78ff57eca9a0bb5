import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `RowTable.insertNew(movingParts:)` (log replay's path for rows a split read left in its
/// parts) against inserting the same rows one by one, over the suite's 200 seeded cases, each
/// batch cut into 1, 2, 3 or many parts at random boundaries: the table must end up exactly
/// as row by row (or, on a clash, unchanged, with the same first clashing row named, counted
/// across the parts, and every part's rows as given); the parts are left empty when the rows
/// went in.
extension RowTableBulkInsertEquivalenceTests {
    @Test func insertsFromPartsLeaveTheTableThatInsertingRowByRowLeaves() {
        var coverage: [String: Int] = [:]
        for seed in Self.seeds {
            var random = SeededRandomNumberGenerator(seed: seed)
            var maker = CaseMaker(bulk: bulk)
            let c = maker.make(&random)
            let before = observed(c.table, keys: c.keys)
            let cuts = Self.cuts(of: c.batch.count, seed: seed, &random)
            let parts = Self.parts(of: c.batch, cut: cuts)
            var table = c.table
            #expect(table.insertNew(movingParts: parts) == c.clash, "seed \(seed): the clash")
            let expected: Observed
            if c.clash == nil {
                var single = c.table
                for row in c.batch { single.insert(row) }
                expected = observed(single, keys: c.keys)
                #expect(
                    parts.allSatisfy { $0.storage.count == 0 }, "seed \(seed): the moved rows")
            } else {
                expected = before
                #expect(
                    parts.flatMap { Array($0.storage.elements) } == c.batch,
                    "seed \(seed): the rows of a clashing insert")
            }
            let found = differences(observed(table, keys: c.keys), expected)
            #expect(found.isEmpty, "seed \(seed): the insert from parts differs in \(found)")
            let original = differences(observed(c.table, keys: c.keys), before)
            #expect(original.isEmpty, "seed \(seed): the table copied from changed in \(original)")
            let count = parts.count
            coverage[count > 3 ? "many parts" : "\(count) parts", default: 0] += 1
            if let clash = c.clash, count > 1, clash >= cuts.last! {
                coverage["a clash in the last part", default: 0] += 1
            }
            let names = parts.map { Set($0.storage.elements.map(\.objectID.entity.name)) }
            let all = Set(names.flatMap { $0 })
            if all.count > 1,
                all.contains(where: { n in names.filter { $0.contains(n) }.count > 1 })
            {
                coverage["entities in several parts each", default: 0] += 1
            }
        }
        for kind in [
            "1 parts", "2 parts", "3 parts", "many parts", "a clash in the last part",
            "entities in several parts each",
        ] {
            #expect(coverage[kind, default: 0] >= 3, "covered too rarely: \(kind)")
        }
    }

    /// Where to cut `count` rows into parts: none (one part), one or two cuts, or many,
    /// by the seed; each part holds at least one row.
    static func cuts(of count: Int, seed: UInt64, _ random: inout SeededRandomNumberGenerator)
        -> [Int]
    {
        guard count > 1 else { return [] }
        let wanted = [0, 1, 2, count / 3][Int(seed % 4)]
        var cuts = Set<Int>()
        while cuts.count < min(wanted, count - 1) {
            cuts.insert(1 + Int(random.next() % UInt64(count - 1)))
        }
        return cuts.sorted()
    }

    /// `rows` cut at `cuts` into parts as a split read leaves them.
    static func parts(of rows: [StoreRow], cut cuts: [Int]) -> [PartRows<StoreRow>] {
        let bounds = [0] + cuts + [rows.count]
        return zip(bounds, bounds.dropFirst()).map { start, end in
            let part = PartRows<StoreRow>()
            for row in rows[start..<end] { part.storage.append(row) }
            return part
        }
    }
}
