import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `RowTable.insertNew(moving:)` and `insertNew(_:)` against inserting the same rows one by
/// one (`insert(_:)`), over 200 seeded random cases: the table must end up exactly as row by
/// row — rows, their slots and order, key maps, live counts, `isSorted`, `lastKey`, the
/// reverse index's answers, the key counters — or, when a row clashes, the first clashing
/// row be named and neither the table nor the caller's rows change.
///
/// The cases mix folders, items and notes (a subentity of Item, sharing its keys) interleaved
/// or in runs, items and notes pointing at folders in the table, in the batch or absent, in
/// any key order; keys 0 and 1, small dense ones, negative ones, ones at or past 2^24 and
/// `Int64.max` (so each entity's keys go through the key map's dense slots in one pass, or
/// one by one); tables empty or holding rows with holes; batches of 0, 1 and many rows; and
/// clashes in the batch or against the table, on either path. The test counts what its cases
/// covered and fails when a kind of case stops occurring.
@Suite struct RowTableBulkInsertEquivalenceTests {
    /// The bulk-load suite, for its model (Folder ⟵ Item, Note a subentity of Item), its rows
    /// and the contents of a table.
    let bulk: RowTableBulkLoadTests

    init() throws {
        bulk = try RowTableBulkLoadTests()
    }

    /// The cases' seeds.
    static let seeds: [UInt64] = Array(1...200)

    /// The entities of the model, by name; "Item" and "Note" share one hierarchy's keys.
    static let names = ["Folder", "Item", "Note"]

    @Test func bulkInsertsLeaveTheTableThatInsertingRowByRowLeaves() {
        var coverage = Coverage()
        for seed in Self.seeds {
            var random = SeededRandomNumberGenerator(seed: seed)
            var maker = CaseMaker(bulk: bulk)
            let c = maker.make(&random)
            coverage.note(c)
            let before = observed(c.table, keys: c.keys)
            var copying = c.table
            #expect(copying.insertNew(c.batch) == c.clash, "seed \(seed): the copying insert")
            // The caller's array shared with `c.batch`, or its own (moved out in place).
            var taken = random.next() % 2 == 0 ? c.batch : c.batch.map { $0 }
            var moving = c.table
            #expect(moving.insertNew(moving: &taken) == c.clash, "seed \(seed): the moving insert")
            let expected: Observed
            if c.clash == nil {
                var single = c.table
                for row in c.batch { single.insert(row) }
                expected = observed(single, keys: c.keys)
                #expect(taken.isEmpty, "seed \(seed): the moved rows")
            } else {
                expected = before
                #expect(taken == c.batch, "seed \(seed): the rows of a clashing moving insert")
            }
            let fromCopying = differences(observed(copying, keys: c.keys), expected)
            let fromMoving = differences(observed(moving, keys: c.keys), expected)
            #expect(
                fromCopying.isEmpty, "seed \(seed): the copying insert differs in \(fromCopying)")
            #expect(fromMoving.isEmpty, "seed \(seed): the moving insert differs in \(fromMoving)")
            let original = differences(observed(c.table, keys: c.keys), before)
            #expect(original.isEmpty, "seed \(seed): the table copied from changed in \(original)")
        }
        for kind in Coverage.required {
            #expect(coverage.counts[kind, default: 0] >= 3, "covered too rarely: \(kind)")
        }
    }

    /// What a table answers about a case's keys, and its state.
    struct Observed {
        var contents: RowTableBulkLoadTests.Contents
        /// Each entity's rows in fetch order (`rows(of:)`).
        var fetched: [[StoreRow]]
        /// Each entity's row of each key (`row(for:)`).
        var byKey: [[StoreRow?]]
        /// How many sources (holes included) each key's folder lists.
        var sourceCounts: [Int]
        var nextKeys: [Int64]
        var total: Int
    }

    func observed(_ table: RowTable, keys: [Int64]) -> Observed {
        let model = bulk.model
        let folder = model[entityName: "Item"]!.relationshipsByName["folder"]!
        let index = table.reverse[
            RowTable.SlotKey(entity: folder.entity!.index, slot: folder.index)]!
        return Observed(
            contents: bulk.contents(table, keys: keys),
            fetched: model.entities.map { table.rows(of: $0) },
            // A key whose slot is past its rows (a broken key map, which `slots` shows) reads
            // as none here rather than trapping, so that the failure names its seed.
            byKey: table.idScopes.indices.map { e in
                keys.map { pk -> StoreRow? in
                    let rows = table.entityTables[e].rows.count
                    guard table.entityTables[e].slotByKey[pk].map({ $0 < rows }) ?? true else {
                        return nil
                    }
                    return table.row(for: ManagedObjectID(scope: table.idScopes[e], primaryKey: pk))
                }
            },
            sourceCounts: keys.map { index.sourceCount(of: $0) },
            nextKeys: table.nextPrimaryKey, total: table.totalRowCount)
    }

    /// The names of the parts in which `a` and `b` differ.
    func differences(_ a: Observed, _ b: Observed) -> [String] {
        var names: [String] = []
        func check<T: Equatable>(_ name: String, _ path: KeyPath<Observed, T>) {
            if a[keyPath: path] != b[keyPath: path] { names.append(name) }
        }
        check("rows", \.contents.rows)
        check("isSorted", \.contents.sorted)
        check("live counts", \.contents.live)
        check("last keys", \.contents.lastKeys)
        check("key maps", \.contents.slots)
        check("counters", \.contents.counters)
        check("next keys", \.nextKeys)
        check("sources", \.contents.sources)
        check("source counts", \.sourceCounts)
        check("fetch order", \.fetched)
        check("rows by key", \.byKey)
        check("total", \.total)
        return names
    }

    /// One random case: a table, a batch to insert into it, and what inserting it must give.
    struct Case {
        var table: RowTable
        var batch: [StoreRow]
        /// Every key the case names (rows' and targets', and a few probes), sorted.
        var keys: [Int64]
        /// The position of the first row whose key is in the table or earlier in the batch.
        var clash: Int?
    }

    /// Makes one case from a generator.
    struct CaseMaker {
        let bulk: RowTableBulkLoadTests
        /// The keys each hierarchy's rows and targets took (0: Folder, 1: Item and Note), so
        /// that none is drawn twice unless a case means it to clash.
        var used: [Set<Int64>] = [[], []]
        /// Every key drawn.
        var named: Set<Int64> = [0, 1, -1, 1 << 24, .max]
        /// Whether each entity's keys are drawn wide (negative, past 2^24 or near
        /// `Int64.max`, among small ones) rather than small and dense.
        var wide: [String: Bool] = [:]
        /// The folder keys items and notes point at.
        var targets: [Int64] = []
        /// The targets no folder has taken yet.
        var unclaimed: [Int64] = []

        init(bulk: RowTableBulkLoadTests) { self.bulk = bulk }

        static func hierarchy(_ name: String) -> Int { name == "Folder" ? 0 : 1 }

        mutating func make(_ random: inout SeededRandomNumberGenerator) -> Case {
            for name in names { wide[name] = random.next() % 3 == 0 }
            for _ in 0...(random.next() % 5) { targets.append(fresh("Folder", &random)) }
            unclaimed = targets.shuffled(using: &random)
            let (table, live) = base(&random)
            var batch = self.batch(&random)
            // A clash in the batch (a row's key again later), against the table (a live
            // row's key), both, or none.
            let kind = random.next() % 5
            if kind == 0 || kind == 2, !batch.isEmpty {
                let p = Int(random.next() % UInt64(batch.count))
                let q = p + 1 + Int(random.next() % UInt64(batch.count - p))
                let id = batch[p].objectID
                batch.insert(row(id.entity.name, id.primaryKey, &random), at: q)
            }
            if kind == 1 || kind == 2, !live.isEmpty {
                let id = live[Int(random.next() % UInt64(live.count))]
                let at = Int(random.next() % UInt64(batch.count + 1))
                batch.insert(row(id.entity.name, id.primaryKey, &random), at: at)
            }
            var seen: Set<ManagedObjectID> = []
            let clash = batch.indices.first {
                table.row(for: batch[$0].objectID) != nil
                    || !seen.insert(batch[$0].objectID).inserted
            }
            return Case(table: table, batch: batch, keys: named.sorted(), clash: clash)
        }

        /// A table empty or holding up to 80 rows, inserted one by one, some removed (one by
        /// one or together; now and then most of them, so the table compacts); half the removed
        /// keys may come back in the batch. Returns the table and its live rows' IDs.
        mutating func base(_ random: inout SeededRandomNumberGenerator)
            -> (RowTable, [ManagedObjectID])
        {
            var table = RowTable(model: bulk.model, storeIdentifier: "S")
            guard random.next() % 4 != 0 else { return (table, []) }
            var ids: [ManagedObjectID] = []
            for _ in 0...(random.next() % 80) {
                let name = names[Int(random.next() % 3)]
                let row = row(name, key(name, &random), &random)
                table.insert(row)
                ids.append(row.objectID)
            }
            let share = random.next() % 6 == 0 ? 4 : 1
            var live: [ManagedObjectID] = []
            var removed: [ManagedObjectID] = []
            for id in ids {
                if random.next() % 5 < share { removed.append(id) } else { live.append(id) }
            }
            if random.next() % 2 == 0 {
                for id in removed { table.remove(id) }
            } else {
                table.remove(contentsOf: removed.map { ($0, 1) })
            }
            for id in removed where random.next() % 2 == 0 {
                used[Self.hierarchy(id.entity.name)].remove(id.primaryKey)
            }
            return (table, live)
        }

        /// 0, 1, a few or many rows of one to three entities, interleaved, in runs or one
        /// entity after another; each entity's keys ascending, descending or as drawn.
        mutating func batch(_ random: inout SeededRandomNumberGenerator) -> [StoreRow] {
            let r = Int(random.next() % 131)
            let size = [0, 1, 2 + r % 11, 2 + r % 11, 20 + r, 20 + r, 20 + r][
                Int(random.next() % 7)]
            var present = names.filter { _ in random.next() % 3 != 0 }
            if present.isEmpty { present = [names[Int(random.next() % 3)]] }
            var order: [String] = []
            switch random.next() % 3 {
            case 0:
                for _ in 0..<size {
                    order.append(present[Int(random.next() % UInt64(present.count))])
                }
            case 1:
                while order.count < size {
                    let name = present[Int(random.next() % UInt64(present.count))]
                    let run = min(1 + Int(random.next() % 12), size - order.count)
                    order += repeatElement(name, count: run)
                }
            default:
                order = (0..<size).map { present[$0 * present.count / size] }
            }
            var keysOf: [String: [Int64]] = [:]
            for name in order { keysOf[name, default: []].append(key(name, &random)) }
            for name in names {
                switch random.next() % 3 {
                case 0: keysOf[name]?.sort()
                case 1: keysOf[name]?.sort(by: >)
                default: break
                }
            }
            var next: [String: Int] = [:]
            var rows: [StoreRow] = []
            for name in order {
                let k = next[name, default: 0]
                next[name] = k + 1
                rows.append(row(name, keysOf[name]![k], &random))
            }
            return rows
        }

        /// A row of `name` with key `pk`; an item's or a note's folder is one of the targets
        /// (now and then none).
        mutating func row(_ name: String, _ pk: Int64, _ random: inout SeededRandomNumberGenerator)
            -> StoreRow
        {
            var folder: Int64?
            if name != "Folder" && random.next() % 5 != 0 {
                folder = targets[Int(random.next() % UInt64(targets.count))]
            }
            return bulk.row(name, pk, folder: folder, version: Int64(random.next() % 3 + 1))
        }

        /// A new key for a row of `name`: for a folder, now and then a target's.
        mutating func key(_ name: String, _ random: inout SeededRandomNumberGenerator) -> Int64 {
            if name == "Folder", !unclaimed.isEmpty, random.next() % 3 == 0 {
                return unclaimed.removeLast()
            }
            return fresh(name, &random)
        }

        /// A key no row of `name`'s hierarchy has taken: small and dense, or for a wide entity
        /// one in three small, the rest negative, at or past 2^24, or near `Int64.max`.
        mutating func fresh(_ name: String, _ random: inout SeededRandomNumberGenerator) -> Int64 {
            while true {
                let r = random.next()
                var key: Int64
                switch wide[name]! ? r % 9 : 8 {
                case 0, 1: key = r % 97 == 0 ? .min : -1 - Int64((r >> 8) % 1_000)
                case 2: key = (1 << 24) + Int64((r >> 8) % 100)
                case 3: key = (1 << 40) + Int64((r >> 8) % 1_000)
                case 4, 5: key = .max - Int64((r >> 8) % 2)
                default:
                    switch (r >> 8) % 16 {
                    case 0: key = 0
                    case 1: key = 1
                    case 2: key = 600 + Int64((r >> 16) % 900)
                    default: key = 2 + Int64((r >> 16) % 500)
                    }
                }
                if used[Self.hierarchy(name)].insert(key).inserted {
                    named.insert(key)
                    return key
                }
            }
        }
    }

    /// The kinds of case the seeds covered, counted.
    struct Coverage {
        var counts: [String: Int] = [:]

        /// Every kind the seeds must cover (at least three cases each).
        static let required = [
            "no rows", "one row", "many rows", "an empty table", "a table with holes",
            "key 0", "key 1", "a small key past 1", "a key at or past 2^24", "a negative key",
            "Int64.max", "entities interleaved", "entities in runs", "a subentity",
            "a target in the table", "a target in the batch", "an absent target",
            "several sources a target", "a target's sources out of key order",
            "the one-pass path", "the one-by-one path", "both paths in one batch",
            "a clash in the batch, one pass", "a clash in the batch, one by one",
            "a clash against the table, one pass", "a clash against the table, one by one",
            "a one-pass clash beside a one-by-one entity",
            "a one-by-one clash beside a one-pass entity",
        ]

        mutating func note(_ kind: String, _ happened: Bool = true) {
            if happened { counts[kind, default: 0] += 1 }
        }

        /// Counts what `c` covers, from its table and batch as they are.
        mutating func note(_ c: Case) {
            let batch = c.batch
            note("no rows", batch.isEmpty)
            note("one row", batch.count == 1)
            note("many rows", batch.count >= 20)
            note("an empty table", c.table.totalRowCount == 0)
            note(
                "a table with holes",
                c.table.entityTables.contains { $0.rows.count > $0.liveCount })
            let keys = Set(batch.map(\.objectID.primaryKey))
            note("key 0", keys.contains(0))
            note("key 1", keys.contains(1))
            note("a small key past 1", keys.contains { $0 > 1 && $0 < 1 << 24 })
            note("a key at or past 2^24", keys.contains { $0 >= 1 << 24 && $0 < .max })
            note("a negative key", keys.contains { $0 < 0 })
            note("Int64.max", keys.contains(.max))
            let entities = batch.map(\.objectID.entity.name)
            let runs = zip(entities, entities.dropFirst()).filter { $0 != $1 }.count + 1
            note("entities interleaved", runs > Set(entities).count)
            note("entities in runs", Set(entities).count > 1 && runs * 3 <= entities.count)
            note("a subentity", entities.contains("Note"))
            // Each entity's path: one pass when all its keys are in the key map's dense range.
            var onePass: [String: Bool] = [:]
            for row in batch {
                let pk = row.objectID.primaryKey
                onePass[row.objectID.entity.name, default: true] =
                    onePass[row.objectID.entity.name, default: true] && pk >= 0 && pk < 1 << 24
            }
            note("the one-pass path", onePass.values.contains(true))
            note("the one-by-one path", onePass.values.contains(false))
            note("both paths in one batch", Set(onePass.values).count == 2)
            noteTargets(c)
            guard let clash = c.clash else { return }
            let entity = batch[clash].objectID.entity.name
            let against = c.table.row(for: batch[clash].objectID) != nil
            let path = onePass[entity]! ? "one pass" : "one by one"
            note("a clash \(against ? "against the table" : "in the batch"), \(path)")
            if onePass.values.contains(!onePass[entity]!) {
                note(
                    onePass[entity]!
                        ? "a one-pass clash beside a one-by-one entity"
                        : "a one-by-one clash beside a one-pass entity")
            }
        }

        /// Counts the targets of the batch's sources: in the table, in the batch or absent,
        /// with several sources, out of key order.
        private mutating func noteTargets(_ c: Case) {
            var sources: [Int64: [Int64]] = [:]
            var folders: Set<Int64> = []
            for row in c.batch {
                if row.objectID.entity.name == "Folder" { folders.insert(row.objectID.primaryKey) }
                if case .toOne(let target?) = row.values[1] {
                    sources[target.primaryKey, default: []].append(row.objectID.primaryKey)
                }
            }
            let model = c.table.model
            for (target, keys) in sources {
                let id = ManagedObjectID(
                    entity: model[entityName: "Folder"]!, storeIdentifier: "S", primaryKey: target)
                let inTable = c.table.row(for: id) != nil
                note("a target in the table", inTable)
                note("a target in the batch", folders.contains(target))
                note("an absent target", !inTable && !folders.contains(target))
                note("several sources a target", keys.count > 1)
                note("a target's sources out of key order", keys != keys.sorted())
            }
        }
    }
}
