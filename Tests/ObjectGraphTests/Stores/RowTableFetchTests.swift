import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The store's fetch (in-place filter, per-destination to-one answers, top-k selection)
/// against the general evaluator and a full stable sort.
@Suite struct RowTableFetchTests {
    @Test(arguments: PredicateCorpus.all)
    func corpusPredicateSelectsTheExpectedRowsOfAStore(_ c: PredicateCase) throws {
        let graph = PredicateTestGraph()
        let (table, labels) = try RowTableFixture.table(mirroring: graph)
        let predicate = try FetchPredicate(format: c.format, argumentArray: c.arguments(graph))
        let request = StoreFetchRequest(entity: graph.entity(c.entity), predicate: predicate)
        let fetched = try table.fetch(request).map { labels[$0.objectID] ?? "?" }.sorted()
        #expect(fetched == c.expected, "\(c.format)")
        #expect(try table.count(request) == c.expected.count, "\(c.format)")
    }

    @Test(arguments: RowTableFixture.predicates)
    func storeFilterAgreesWithTheGeneralEvaluator(_ format: String) throws {
        for seed in [1, 2, 3] as [UInt64] {
            let fixture = try RowTableFixture(seed: seed)
            for entityName in ["Item", "SpecialItem"] {
                let entity = fixture.model.entitiesByName[entityName]!
                let predicate = try FetchPredicate(format: format)
                let expected = try fixture.reference(
                    entity: entity, predicate: predicate, sorts: [])
                let request = StoreFetchRequest(entity: entity, predicate: predicate)
                #expect(
                    try fixture.table.fetch(request).map(\.objectID) == expected,
                    "\(format) on \(entityName), seed \(seed)")
            }
        }
    }

    @Test(arguments: RowTableFixture.sortCases)
    func topKSelectionEqualsAFullStableSortThenWindow(_ sorts: [FetchSortDescriptor]) throws {
        for seed in [7, 8] as [UInt64] {
            let fixture = try RowTableFixture(seed: seed)
            let item = fixture.model.entitiesByName["Item"]!
            for format in [nil, "score >= 2", "group.rank == 1 OR score == 0"] as [String?] {
                let predicate = try format.map { try FetchPredicate(format: $0) }
                let full = try fixture.reference(entity: item, predicate: predicate, sorts: sorts)
                for (offset, limit) in [
                    (0, 1), (0, 5), (3, 7), (0, 0), (10, 0), (0, 1000), (250, 30), (1, Int.max),
                ] {
                    let request = StoreFetchRequest(
                        entity: item, predicate: predicate, sortDescriptors: sorts,
                        fetchLimit: limit, fetchOffset: offset)
                    let expected = window(full, offset: offset, limit: limit)
                    #expect(
                        try fixture.table.fetch(request).map(\.objectID) == expected,
                        "\(sorts.map(\.key)) \(format ?? "all") offset \(offset) limit \(limit)")
                }
            }
        }
    }

    @Test func sortKeysOfMixedNumberKindsOrderAsTheGeneralComparator() throws {
        var fixture = try RowTableFixture(seed: 13)
        let item = fixture.model.entitiesByName["Item"]!
        let score = item.propertiesByName["score"]!.index
        // A table does not check kinds: give some rows decimal, float and huge integer scores.
        let odd: [AttributeValue] = [
            .decimal(Decimal(string: "2.0000000000000000001")!), .float(2.5),
            .integer(1 << 60), .decimal(2), .integer((1 << 53) + 1), .double(2),
        ]
        for (i, row) in try fixture.table.fetch(StoreFetchRequest(entity: item)).enumerated()
        where i % 3 == 0 {
            var changed = row
            changed.values[score] = .attribute(odd[(i / 3) % odd.count])
            fixture.table.upsert(changed)
        }
        for sorts in [
            [FetchSortDescriptor(key: "score")],
            [
                FetchSortDescriptor(key: "score", ascending: false),
                FetchSortDescriptor(key: "name"),
            ],
        ] {
            let full = try fixture.reference(entity: item, predicate: nil, sorts: sorts)
            for limit in [0, 5, 60] {
                let request = StoreFetchRequest(
                    entity: item, sortDescriptors: sorts, fetchLimit: limit)
                #expect(
                    try fixture.table.fetch(request).map(\.objectID)
                        == window(full, offset: 0, limit: limit),
                    "\(sorts.map(\.ascending)) limit \(limit)")
            }
        }
    }

    @Test func toOneKeyPathTreatsDeletedAndForeignDestinationsAsNil() throws {
        var fixture = try RowTableFixture(seed: 11)
        let group = fixture.model.entitiesByName["Group"]!
        let item = fixture.model.entitiesByName["Item"]!
        // Delete one group: its items keep pointing at a row that no longer exists.
        let deleted = ManagedObjectID(
            entity: group, storeIdentifier: fixture.table.storeIdentifier, primaryKey: 2)
        fixture.table.remove(deleted)
        let pointing = try fixture.table.fetch(StoreFetchRequest(entity: item)).filter {
            $0["group"] == .toOne(deleted)
        }
        #expect(!pointing.isEmpty)
        for format in [
            "group.rank == 1", "group.rank != 1", "NOT (group.rank == 1)", "group == nil",
            "group.rank == nil", "group.name == 'g2' OR score == 3", "NOT (group.name == 'g2')",
        ] {
            let predicate = try FetchPredicate(format: format)
            let expected = try fixture.reference(entity: item, predicate: predicate, sorts: [])
            #expect(
                try fixture.table.fetch(StoreFetchRequest(entity: item, predicate: predicate)).map(
                    \.objectID)
                    == expected, "\(format)")
        }
        // A destination ID of another store is not a row of this one.
        var foreign = pointing[0]
        foreign.values[item.propertiesByName["group"]!.index] =
            .toOne(ManagedObjectID(entity: group, storeIdentifier: "OTHER", primaryKey: 1))
        fixture.table.upsert(foreign)
        let ranked = try FetchPredicate(format: "group.rank == nil")
        let matched = try fixture.table.fetch(StoreFetchRequest(entity: item, predicate: ranked))
            .map(\.objectID)
        #expect(matched.contains(foreign.objectID))
        #expect(matched == (try fixture.reference(entity: item, predicate: ranked, sorts: [])))
    }

    /// The table states that take each way of putting candidates in key order: a table in
    /// key order (sources of one target as they are, of several through a bit set over the
    /// slots), one out of key order (a byte map over the keys), and one out of key order
    /// with a far key (sorted).
    enum CandidateTableState: CaseIterable, Sendable {
        case inKeyOrder, reinserted, reinsertedWithAFarKey
    }

    @Test(arguments: CandidateTableState.allCases)
    func candidatesFromTheReverseIndexComeInKeyOrder(state: CandidateTableState) throws {
        var fixture = try RowTableFixture(seed: 17)
        let item = fixture.model.entitiesByName["Item"]!
        let group = fixture.model.entitiesByName["Group"]!
        let rows = try fixture.table.fetch(StoreFetchRequest(entity: item))
        // Re-inserting rows puts the table out of key order; a far key makes the key range
        // too wide for a byte map, so candidates are sorted instead.
        if state != .inKeyOrder {
            for row in rows.prefix(40) where row.objectID.primaryKey % 2 == 0 {
                fixture.table.remove(row.objectID)
                fixture.table.upsert(row)
            }
        }
        if state == .reinsertedWithAFarKey {
            var far = rows[1]
            far = StoreRow(
                objectID: ManagedObjectID(
                    entity: far.objectID.entity, storeIdentifier: "FIXTURE",
                    primaryKey: 5_000_000), version: 1, values: far.values)
            far.values[item.propertiesByName["group"]!.index] =
                .toOne(ManagedObjectID(entity: group, storeIdentifier: "FIXTURE", primaryKey: 1))
            fixture.table.upsert(far)
        }
        for format in [
            "group.rank == 1", "group.rank == 1 AND score > 1",
            "group.name == 'g4' OR group.name == 'g1'", "group.name IN {'g4', 'g1', 'g2'}",
            "group.name IN {'g4', 'g1'} AND score > 1",
        ] {
            let predicate = try FetchPredicate(format: format)
            let expected = try fixture.reference(entity: item, predicate: predicate, sorts: [])
            #expect(expected.count > 10)
            #expect(
                try fixture.table.fetch(StoreFetchRequest(entity: item, predicate: predicate)).map(
                    \.objectID)
                    == expected, "\(format)")
            #expect(
                try fixture.table.fetch(
                    StoreFetchRequest(entity: item, predicate: predicate, fetchLimit: 7)
                )
                .map(\.objectID) == Array(expected.prefix(7)), "\(format) limit 7")
        }
    }

    @Test func aCompiledPredicateRunsTheSameOnRecordsAfterAStoreFetch() throws {
        let fixture = try RowTableFixture(seed: 5)
        let item = fixture.model.entitiesByName["Item"]!
        let predicate = try FetchPredicate(
            format: "group.name ==[c] 'G1' AND ANY group.items.score == 4")
        let expected = try fixture.reference(entity: item, predicate: predicate, sorts: [])
        #expect(!expected.isEmpty)
        #expect(
            try fixture.table.fetch(StoreFetchRequest(entity: item, predicate: predicate)).map(
                \.objectID)
                == expected)
    }

    @Test func fetchOfAnUnsortedTableReturnsPrimaryKeyOrder() throws {
        var fixture = try RowTableFixture(seed: 3)
        let item = fixture.model.entitiesByName["Item"]!
        let rows = try fixture.table.fetch(
            StoreFetchRequest(entity: item, includesSubentities: false))
        // Re-inserting the first row after the last leaves the table out of key order.
        fixture.table.remove(rows[0].objectID)
        fixture.table.upsert(rows[0])
        let again = try fixture.table.fetch(
            StoreFetchRequest(entity: item, includesSubentities: false))
        #expect(again.map(\.objectID) == rows.map(\.objectID))
        let limited = try fixture.table.fetch(
            StoreFetchRequest(
                entity: item, predicate: FetchPredicate(format: "score != nil"),
                fetchLimit: 3, includesSubentities: false))
        #expect(
            limited.map(\.objectID)
                == Array(rows.filter { $0["score"] != .attribute(.null) }.prefix(3).map(\.objectID))
        )
    }

    /// Candidates from the reverse index decide their to-one conjunct without the filter
    /// testing it again, so they must be exactly the rows pointing at a passing destination.
    /// A crafted table may give a SubGroup the key of a Group (the index lists sources by the
    /// target's key alone): items pointing at the SubGroup must not count as pointing at the
    /// Group.
    @Test func candidatesTellDestinationsOfTheSameKeyApart() throws {
        var fixture = try RowTableFixture(seed: 23)
        let item = fixture.model.entitiesByName["Item"]!
        let subGroup = fixture.model.entitiesByName["SubGroup"]!
        let twin = ManagedObjectID(entity: subGroup, storeIdentifier: "FIXTURE", primaryKey: 2)
        fixture.table.upsert(
            RowTableFixture.row(
                twin, ["rank": .attribute(.integer(7)), "name": .attribute(.string("twin"))]))
        let items = try fixture.table.fetch(StoreFetchRequest(entity: item))
        for row in items.prefix(60) where row.objectID.primaryKey % 3 == 0 {
            var moved = row
            moved.values[item.propertiesByName["group"]!.index] = .toOne(twin)
            fixture.table.upsert(moved)
        }
        for format in [
            "group.name == 'g2'", "group.name == 'twin'", "group.rank == 7 AND score > 1",
            "score > 1 AND group.name == 'g2'",
        ] {
            let predicate = try FetchPredicate(format: format)
            let expected = try fixture.reference(entity: item, predicate: predicate, sorts: [])
            #expect(!expected.isEmpty, "\(format)")
            #expect(
                try fixture.table.fetch(StoreFetchRequest(entity: item, predicate: predicate)).map(
                    \.objectID) == expected, "\(format)")
        }
    }

    /// A to-one between entities without sub- or superentities takes the candidates' fast
    /// path (the sources' keys alone): the answers must equal the general evaluator's with
    /// sources removed (holes in the index), re-pointed, and re-inserted out of key order.
    @Test func candidatesOfAFlatToOneEqualTheGeneralEvaluator() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Category",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "rank", type: .integer64),
                    RelationshipDescription(
                        name: "expenses", destination: "Expense", inverse: "category",
                        isToMany: true),
                ]),
            EntityDescription(
                name: "Expense",
                properties: [
                    AttributeDescription(name: "amount", type: .integer64),
                    RelationshipDescription(
                        name: "category", destination: "Category", inverse: "expenses"),
                ]),
        ])
        var fixture = RowTableFixture(model: model, storeIdentifier: "FIXTURE")
        let category = model.entitiesByName["Category"]!
        let expense = model.entitiesByName["Expense"]!
        var categories: [ManagedObjectID] = []
        for pk in 1...8 as ClosedRange<Int64> {
            let id = ManagedObjectID(entity: category, storeIdentifier: "FIXTURE", primaryKey: pk)
            categories.append(id)
            fixture.table.upsert(
                RowTableFixture.row(
                    id,
                    ["name": .attribute(.string("c\(pk)")), "rank": .attribute(.integer(pk % 3))]))
        }
        var random = SeededRandomNumberGenerator(seed: 29)
        for pk in 1...400 as ClosedRange<Int64> {
            let id = ManagedObjectID(entity: expense, storeIdentifier: "FIXTURE", primaryKey: pk)
            let roll = random.next()
            fixture.table.upsert(
                RowTableFixture.row(
                    id,
                    [
                        "amount": .attribute(.integer(Int64(roll % 10))),
                        "category": .toOne(
                            roll % 13 == 0 ? nil : categories[Int(random.next() % 8)]),
                    ]))
        }
        let slot = expense.propertiesByName["category"]!.index
        let rows = try fixture.table.fetch(StoreFetchRequest(entity: expense))
        for row in rows where row.objectID.primaryKey % 5 == 0 {
            fixture.table.remove(row.objectID)
        }
        for row in rows where row.objectID.primaryKey % 7 == 1 {
            var moved = row
            moved.values[slot] = .toOne(categories[Int(row.objectID.primaryKey % 8)])
            fixture.table.upsert(moved)
        }
        for row in rows.prefix(30) where row.objectID.primaryKey % 5 != 0 {
            fixture.table.remove(row.objectID)
            fixture.table.upsert(row)
        }
        for format in [
            "category.name == 'c1'", "category.rank == 1 AND amount > 3",
            "amount > 3 AND category.name IN {'c1', 'c2'}",
            "category.name == 'c3' AND category.rank == 0", "category.rank == 2",
        ] {
            let predicate = try FetchPredicate(format: format)
            let sorts = [FetchSortDescriptor(key: "amount", ascending: false)]
            let expected = try fixture.reference(
                entity: expense, predicate: predicate, sorts: sorts)
            #expect(expected.count > 10, "\(format)")
            #expect(
                try fixture.table.fetch(StoreFetchRequest(entity: expense, predicate: predicate))
                    .map(\.objectID)
                    == (try fixture.reference(entity: expense, predicate: predicate, sorts: [])),
                "\(format)")
            #expect(
                try fixture.table.fetch(
                    StoreFetchRequest(
                        entity: expense, predicate: predicate, sortDescriptors: sorts,
                        fetchLimit: 9)
                ).map(\.objectID) == Array(expected.prefix(9)), "\(format) limit 9")
        }
    }
}
