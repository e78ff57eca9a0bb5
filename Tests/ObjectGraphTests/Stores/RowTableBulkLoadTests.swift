import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `RowTable.insertNew` (the bulk path of log replay and commits) builds exactly the table
/// that inserting the rows one by one builds, and the reverse index keeps sources in order
/// through any mix of adds and removes.
@Suite struct RowTableBulkLoadTests {
    let model: ManagedObjectModel
    /// The ID scopes of the model's entities in the store "S", by entity index.
    var inS: [ObjectIDScope] { ObjectIDScope.of(model, store: "S") }

    init() throws {
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Folder",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "folder", isToMany: true),
                ]),
            EntityDescription(
                name: "Item",
                properties: [
                    AttributeDescription(name: "n", type: .integer64),
                    RelationshipDescription(
                        name: "folder", destination: "Folder", inverse: "items"),
                ]),
            EntityDescription(
                name: "Note", superentityName: "Item",
                properties: [AttributeDescription(name: "text", type: .string)]),
        ])
    }

    func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
        ManagedObjectID(entity: model[entityName: entity]!, storeIdentifier: "S", primaryKey: pk)
    }

    func row(_ entity: String, _ pk: Int64, folder: Int64?, version: Int64 = 1) -> StoreRow {
        let target: StoreValue = .toOne(folder.map { id("Folder", $0) })
        switch entity {
        case "Folder":
            return StoreRow(
                objectID: id(entity, pk), version: version,
                values: [.attribute(.string("f\(pk)")), .notStored])
        case "Item":
            return StoreRow(
                objectID: id(entity, pk), version: version,
                values: [.attribute(.integer(pk)), target])
        default:
            return StoreRow(
                objectID: id(entity, pk), version: version,
                values: [.attribute(.integer(pk)), target, .attribute(.string("t\(pk)"))])
        }
    }

    /// Everything a table holds, internal state included, in comparable form.
    struct Contents: Equatable {
        var rows: [[StoreRow?]]
        var sorted: [Bool]
        var live: [Int]
        var lastKeys: [Int64]
        var slots: [[Int?]]
        var counters: [String: Int64]
        var sources: [[ManagedObjectID]]
    }

    func contents(_ table: RowTable, keys: some Collection<Int64>) -> Contents {
        let items = model[entityName: "Folder"]!.relationshipsByName["items"]!
        return Contents(
            rows: table.entityTables.map(\.rows), sorted: table.entityTables.map(\.isSorted),
            live: table.entityTables.map(\.liveCount), lastKeys: table.entityTables.map(\.lastKey),
            slots: table.entityTables.map { t in keys.map { t.slotByKey[$0] } },
            counters: table.primaryKeyCounters,
            sources: keys.map { table.relatedObjectIDs(items, of: id("Folder", $0)) })
    }

    /// A seeded batch: folders, items and notes (sharing the Item hierarchy's keys), in
    /// shuffled order, some without a folder.
    func batch(_ random: inout SeededRandomNumberGenerator, keys: [Int64]) -> [StoreRow] {
        var rows: [StoreRow] = []
        for pk in keys {
            switch random.next() % 3 {
            case 0: rows.append(row("Folder", pk, folder: nil))
            case 1:
                rows.append(
                    row(
                        "Item", pk,
                        folder: random.next() % 4 == 0 ? nil : Int64(random.next() % 20 + 1)))
            default: rows.append(row("Note", pk, folder: Int64(random.next() % 20 + 1)))
            }
        }
        return rows
    }

    /// Removes the rows of keys 3, 17 and 40 of every entity (those present).
    private func removeSome(from table: inout RowTable) {
        for pk in [Int64(3), 17, 40] {
            for name in ["Folder", "Item", "Note"] { table.remove(id(name, pk)) }
        }
    }

    @Test func bulkInsertBuildsTheSameTableAsInsertingRowByRow() {
        var random = SeededRandomNumberGenerator(seed: 7)
        for round in 0..<20 {
            var bulk = RowTable(model: model, storeIdentifier: "S")
            var single = RowTable(model: model, storeIdentifier: "S")
            // A first batch in increasing key order, a removal or two, then a shuffled batch.
            let first = batch(&random, keys: Array(1...40))
            #expect(bulk.insertNew(first) == nil)
            for r in first { single.upsert(r) }
            if round % 2 == 0 {
                removeSome(from: &bulk)
                removeSome(from: &single)
            }
            let second = batch(&random, keys: Array(41...120).shuffled(using: &random))
            #expect(bulk.insertNew(second) == nil)
            for r in second { single.upsert(r) }
            #expect(contents(bulk, keys: 1...125) == contents(single, keys: 1...125))
        }
    }

    /// A save's deletions are removed together (`remove(contentsOf:)`, the reverse index
    /// updated once per to-one): the table must end up exactly as removing them one by one
    /// leaves it, with rows missing from the table or named twice, sources without a
    /// destination, and more destinations than the index's linear scan covers.
    @Test func bulkRemovalLeavesTheSameTableAsRemovingRowByRow() {
        var random = SeededRandomNumberGenerator(seed: 11)
        for round in 0..<20 {
            var bulk = RowTable(model: model, storeIdentifier: "S")
            var single = RowTable(model: model, storeIdentifier: "S")
            let rows = batch(&random, keys: Array(1...120))
            #expect(bulk.insertNew(rows) == nil)
            #expect(single.insertNew(rows) == nil)
            var deleted: [(objectID: ManagedObjectID, version: Int64)] = []
            for row in rows where random.next() % 3 != 0 { deleted.append((row.objectID, 1)) }
            deleted.append((id("Item", 500), 1))
            if round % 2 == 0 { deleted.append(deleted[0]) }
            deleted.shuffle(using: &random)
            bulk.remove(contentsOf: deleted)
            for (id, _) in deleted { single.remove(id) }
            #expect(contents(bulk, keys: 1...125) == contents(single, keys: 1...125))
            #expect(bulk.totalRowCount == single.totalRowCount)
        }
    }

    /// Deletions grouped by entity (a save lists them so) are removed a run at a time, each
    /// entity's table moved out of the store's: in unsorted tables of more than 64 rows, so
    /// that a table compacts partway through a run, the table must end up exactly as removing
    /// them one by one leaves it.
    @Test func removingRunsOfOneEntityCompactsAsRemovingRowByRow() {
        var random = SeededRandomNumberGenerator(seed: 23)
        for round in 0..<12 {
            var bulk = RowTable(model: model, storeIdentifier: "S")
            var single = RowTable(model: model, storeIdentifier: "S")
            let rows = batch(&random, keys: Array(1...400).shuffled(using: &random))
            #expect(bulk.insertNew(rows) == nil)
            #expect(single.insertNew(rows) == nil)
            #expect(bulk.entityTables.contains { !$0.isSorted && $0.rows.count > 64 })
            // Most of each entity, in runs by entity; a key named twice and one not in the
            // table inside a run in some rounds.
            var deleted: [(objectID: ManagedObjectID, version: Int64)] = []
            for name in ["Item", "Folder", "Note"] {
                for row in rows where row.objectID.entity.name == name && random.next() % 5 != 0 {
                    deleted.append((row.objectID, 1))
                }
                if round % 2 == 1, let last = deleted.last {
                    deleted.append(last)
                    deleted.append((id(name, 9_000), 1))
                }
            }
            bulk.remove(contentsOf: deleted)
            for (id, _) in deleted { single.remove(id) }
            #expect(contents(bulk, keys: 1...405) == contents(single, keys: 1...405))
            #expect(bulk.totalRowCount == single.totalRowCount)
            #expect(bulk.entityTables.map(\.rows.count) == single.entityTables.map(\.rows.count))
        }
    }

    /// Removing many sources at once (`ReverseIndex.remove(contentsOf:)`) leaves each target
    /// listing the sources that remain, in key order, over up to 40 targets.
    @Test func theReverseIndexRemovesABatchOfSourcesAsOneByOne() {
        var random = SeededRandomNumberGenerator(seed: 5)
        let item = model[entityName: "Item"]!
        for _ in 0..<20 {
            var bulk = ReverseIndex()
            var single = ReverseIndex()
            var pairs: [(target: Int64, source: ManagedObjectID)] = []
            for k in 1...Int64(400) {
                let source = ManagedObjectID(entity: item, storeIdentifier: "S", primaryKey: k)
                pairs.append((Int64(random.next() % 40), source))
            }
            let keys = pairs.map { (target: $0.target, source: $0.source.primaryKey) }
            bulk.add(contentsOf: keys, entity: item)
            single.add(contentsOf: keys, entity: item)
            var removed: [(target: Int64, source: Int64)] = []
            for pair in pairs where random.next() % 2 == 0 {
                removed.append((pair.target, pair.source.primaryKey))
                single.remove(pair.source, from: pair.target)
            }
            removed.append((99, 1))  // a target with no list
            removed.shuffle(using: &random)
            bulk.remove(contentsOf: removed)
            for t in 0..<Int64(41) {
                #expect(bulk.sources(of: t, scopes: inS) == single.sources(of: t, scopes: inS))
            }
            #expect(bulk.sources(of: 99, scopes: inS).isEmpty)
        }
    }

    /// An update re-indexes only a to-one that changed target; every kind of change must
    /// still leave each folder listing exactly its items, in key order.
    @Test func updatesMoveSourcesOnlyWhereTheirToOneChanged() throws {
        var table = RowTable(model: model, storeIdentifier: "S")
        let items = model[entityName: "Folder"]!.relationshipsByName["items"]!
        try table.apply(
            StoreChangeSet(
                inserted: [
                    row("Folder", 1, folder: nil), row("Folder", 2, folder: nil),
                    row("Item", 3, folder: 1), row("Note", 4, folder: 1),
                    row("Item", 5, folder: nil),
                ],
                timestamp: Date(timeIntervalSince1970: 0)))
        func members(_ folder: Int64) -> [Int64] {
            table.relatedObjectIDs(items, of: id("Folder", folder)).map(\.primaryKey)
        }
        #expect(members(1) == [3, 4] && members(2) == [])
        // Same target (only the version changes), a move, to nil, from nil.
        try table.apply(
            StoreChangeSet(
                updated: [
                    row("Item", 3, folder: 1, version: 2), row("Note", 4, folder: 2, version: 2),
                    row("Item", 5, folder: 2, version: 2),
                ],
                timestamp: Date(timeIntervalSince1970: 1)))
        #expect(members(1) == [3] && members(2) == [4, 5])
        try table.apply(
            StoreChangeSet(
                updated: [
                    row("Item", 3, folder: nil, version: 3), row("Note", 4, folder: 2, version: 3),
                ],
                timestamp: Date(timeIntervalSince1970: 2)))
        #expect(members(1) == [] && members(2) == [4, 5])
        try table.apply(
            StoreChangeSet(
                updated: [row("Item", 3, folder: 2, version: 4)], deleted: [(id("Item", 5), 2)],
                timestamp: Date(timeIntervalSince1970: 3)))
        #expect(members(2) == [3, 4])
    }

    @Test func aClashLeavesTheTableUnchangedAndNamesTheFirstClashingRow() {
        var random = SeededRandomNumberGenerator(seed: 9)
        var table = RowTable(model: model, storeIdentifier: "S")
        let first = batch(&random, keys: Array(1...30))
        #expect(table.insertNew(first) == nil)
        let before = contents(table, keys: 1...60)
        // The batch's fifth row twice, then a row the table holds already.
        var rows = batch(&random, keys: Array(31...40))
        rows.append(rows[4])
        rows.append(first[11])
        #expect(table.insertNew(rows) == 10)
        #expect(contents(table, keys: 1...60) == before)
        #expect(table.insertNew(Array(rows[..<10]) + [first[11]]) == 10)
        #expect(contents(table, keys: 1...60) == before)
        // Without the clashes the same rows go in.
        rows.removeLast(2)
        #expect(table.insertNew(rows) == nil)
        #expect(table.totalRowCount == 40)
        // Nothing the clashes touched is left behind (order, last key, live counts): the table
        // is the one built without them.
        #expect(contents(table, keys: 1...60) == built(first, rows))
    }

    /// `insertNew(moving:)` (log replay's path: the rows moved out of the caller's array, not
    /// copied) builds the table the copying insert builds, row by row included: rows, order,
    /// key maps, counters and the reverse index, over batches of mixed entities in any key
    /// order; the caller's array is left empty.
    @Test func aMovingBulkInsertBuildsTheSameTableAsACopyingOne() {
        var random = SeededRandomNumberGenerator(seed: 23)
        for round in 0..<20 {
            var (moving, copying, single) = tables(given: batch(&random, keys: Array(1...40)))
            if round % 2 == 0 {
                removeSome(from: &moving)
                removeSome(from: &copying)
                removeSome(from: &single)
            }
            // Keys far apart too (past the table's key map so far), in shuffled order.
            let keys = Array(41...120) + [1_000 + Int64(round), 70_000]
            let second = batch(&random, keys: keys.shuffled(using: &random))
            var taken = second
            #expect(moving.insertNew(moving: &taken) == nil)
            #expect(taken.isEmpty)
            #expect(copying.insertNew(second) == nil)
            for r in second { single.upsert(r) }
            let all = contents(moving, keys: 1...125)
            #expect(all == contents(copying, keys: 1...125))
            #expect(all == contents(single, keys: 1...125))
            for pk in [1_000 + Int64(round), 70_000] {
                for name in ["Folder", "Item", "Note"] {
                    #expect(moving.row(for: id(name, pk)) == single.row(for: id(name, pk)))
                }
            }
            #expect(moving.primaryKeyCounters == single.primaryKeyCounters)
        }
    }

    /// Three new tables given `first`: by a moving bulk insert (which leaves the caller's
    /// array empty), by a copying one, and row by row.
    func tables(given first: [StoreRow]) -> (moving: RowTable, copying: RowTable, single: RowTable)
    {
        var moving = RowTable(model: model, storeIdentifier: "S")
        var copying = RowTable(model: model, storeIdentifier: "S")
        var single = RowTable(model: model, storeIdentifier: "S")
        var taken = first
        #expect(moving.insertNew(moving: &taken) == nil)
        #expect(taken.isEmpty)
        #expect(copying.insertNew(first) == nil)
        for r in first { single.upsert(r) }
        return (moving, copying, single)
    }

    /// A moving insert that clashes (a row twice in the batch, a row the table holds) names
    /// the same first clashing row as the copying insert, and leaves both the table and the
    /// caller's rows exactly as they were; an array the caller shares with another copy is
    /// inserted without touching that copy.
    @Test func aClashingMovingInsertLeavesTheTableAndTheRowsUnchanged() {
        var random = SeededRandomNumberGenerator(seed: 29)
        var table = RowTable(model: model, storeIdentifier: "S")
        let first = batch(&random, keys: Array(1...30))
        var taken = first
        #expect(table.insertNew(moving: &taken) == nil)
        let before = contents(table, keys: 1...60)
        var rows = batch(&random, keys: Array(31...40))
        rows.append(rows[4])
        rows.append(first[11])
        var attempt = rows
        #expect(table.insertNew(moving: &attempt) == 10)
        #expect(attempt == rows)
        #expect(contents(table, keys: 1...60) == before)
        attempt = Array(rows[..<10]) + [first[11]]
        #expect(table.insertNew(moving: &attempt) == 10)
        #expect(contents(table, keys: 1...60) == before)
        // Without the clashes the same rows go in, from an array shared with `rows`.
        rows.removeLast(2)
        attempt = rows
        #expect(table.insertNew(moving: &attempt) == nil)
        #expect(attempt.isEmpty && rows.count == 10)
        #expect(table.totalRowCount == 40)
        for row in rows { #expect(table.row(for: row.objectID) == row) }
        #expect(contents(table, keys: 1...60) == built(first, rows))
    }

    /// The contents (keys 1–60) of a new table given `batches` in turn, none clashing.
    func built(_ batches: [StoreRow]...) -> Contents {
        var table = RowTable(model: model, storeIdentifier: "S")
        for rows in batches { #expect(table.insertNew(rows) == nil) }
        return contents(table, keys: 1...60)
    }

    /// Targets of any key: small ones are found through dense positions, large or far-apart
    /// ones (past four times the batch, or near `Int64.max`) through a dictionary; both give
    /// each target exactly its sources in key order, added to what the index held.
    @Test func aBatchFindsTargetsOfAnyKey() {
        var random = SeededRandomNumberGenerator(seed: 41)
        let item = model[entityName: "Item"]!
        let targets: [Int64] = [1, 2, 4095, 4096, 5_000, 1 << 20, 1 << 40, .max - 1, .max]
        var index = ReverseIndex()
        var expected: [Int64: [Int64]] = [:]
        for t in targets {
            index.add(ManagedObjectID(entity: item, storeIdentifier: "S", primaryKey: 1), to: t)
            expected[t] = [1]
        }
        for round in 0..<3 {
            var pairs: [(target: Int64, source: Int64)] = []
            for k in 0..<Int64(500) {
                let t = targets[Int(random.next() % UInt64(targets.count))]
                let source = 2 + Int64(round) * 1_000 + k
                pairs.append((t, source))
                expected[t, default: []].append(source)
            }
            index.add(contentsOf: pairs, entity: item)
        }
        for t in targets {
            #expect(index.sources(of: t, scopes: inS).map(\.primaryKey) == expected[t], "\(t)")
            #expect(index.sources(of: t, scopes: inS).allSatisfy { $0.entity === item })
        }
        #expect(index.sources(of: 3, scopes: inS).isEmpty)
    }

    /// A table's rows in snapshot order (entity by entity, each in key order), whether or not
    /// an entity's rows were inserted in key order.
    @Test func allRowsListsEveryEntityInKeyOrder() {
        var random = SeededRandomNumberGenerator(seed: 12)
        var table = RowTable(model: model, storeIdentifier: "S")
        _ = table.insertNew(batch(&random, keys: Array(1...60).shuffled(using: &random)))
        table.remove(id("Item", 7))
        table.remove(id("Note", 8))
        let expected = model.entities.flatMap { table.rows(of: $0) }
        #expect(table.allRows() == expected)
        #expect(table.allRows().count == table.totalRowCount)
    }

    /// Sources of a hierarchy (odd keys are Notes, a subentity of Item): the index keeps each
    /// source's key and entity, and gives back IDs of the table's store.
    @Test func theReverseIndexKeepsSourcesInKeyOrderThroughAddsAndRemoves() {
        var random = SeededRandomNumberGenerator(seed: 3)
        var index = ReverseIndex()
        var expected: [Int64: Set<Int64>] = [:]
        let item = model[entityName: "Item"]!
        let note = model[entityName: "Note"]!
        func entity(_ pk: Int64) -> EntityDescription { pk % 2 == 1 ? note : item }
        for step in 0..<20_000 {
            let target = Int64(random.next() % 5)
            let pk = Int64(random.next() % 300 + 1)
            let source = ManagedObjectID(entity: entity(pk), storeIdentifier: "S", primaryKey: pk)
            if random.next() % 3 == 0 {
                index.remove(source, from: target)
                expected[target]?.remove(pk)
            } else if step % 500 == 0 {
                // Batches (one per entity) over up to 40 targets, keys in any order.
                var items: [(target: Int64, source: Int64)] = []
                var notes: [(target: Int64, source: Int64)] = []
                for _ in 0..<Int(random.next() % 200) {
                    let t = Int64(random.next() % 40)
                    let k = Int64(random.next() % 300 + 1)
                    if k % 2 == 1 { notes.append((t, k)) } else { items.append((t, k)) }
                    expected[t, default: []].insert(k)
                }
                index.add(contentsOf: items, entity: item)
                index.add(contentsOf: notes, entity: note)
            } else {
                index.add(source, to: target)
                expected[target, default: []].insert(pk)
            }
            if step % 97 == 0 {
                for t in 0..<Int64(40) {
                    #expect(
                        index.sources(of: t, scopes: inS).map(\.primaryKey)
                            == (expected[t] ?? []).sorted())
                }
            }
        }
        for t in 0..<Int64(40) {
            let sources = index.sources(of: t, scopes: inS)
            #expect(sources.map(\.primaryKey) == (expected[t] ?? []).sorted())
            #expect(
                sources.allSatisfy {
                    $0.entity === entity($0.primaryKey) && $0.storeIdentifier == "S"
                })
        }
    }
}
