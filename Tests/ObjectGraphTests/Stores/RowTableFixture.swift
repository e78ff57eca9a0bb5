import Foundation
import ObjectGraphTesting

@testable import ObjectGraph

/// A seeded random table with many ties and nils, for checking the store's fetch against the
/// general evaluator and a full stable sort.
///
/// Group (rank, name) ⟵ Item (score?, name, when?, ratio?, group?) with a SubGroup and a
/// SpecialItem subentity; `Group.items` is derived from `Item.group`.
struct RowTableFixture {
    let model: ManagedObjectModel
    var table: RowTable

    /// Predicates whose store answers must equal the general evaluator's.
    static let predicates = [
        "score > 2", "score >= 2 AND name == 'b'", "group.rank == 1", "group.rank != 1",
        "NOT (group.rank == 1)", "group.rank == 1 OR score == 0",
        "NOT (group.rank == 1 OR group.name == 'g3')",
        "group.name ==[c] 'G2'", "group.name IN {'g1', 'g4'}", "group == nil", "group.rank == nil",
        "group.rank > 0 AND group.name != 'g1'", "ANY group.items.score == 4",
        "when < CAST(100.0, 'NSDate')",
        "ratio > 0.5", "ratio == nil", "name BEGINSWITH[c] 'a'", "SELF == SELF", "TRUEPREDICATE",
        "FALSEPREDICATE",
    ]

    /// Sort orders covering nil first, descending, several keys, case-insensitive and
    /// localized comparisons, and a key through a to-one.
    static let sortCases: [[FetchSortDescriptor]] = [
        [FetchSortDescriptor(key: "score")],
        [FetchSortDescriptor(key: "score", ascending: false)],
        [FetchSortDescriptor(key: "when", ascending: false)],
        [FetchSortDescriptor(key: "ratio")],
        [
            FetchSortDescriptor(key: "name", comparison: .caseInsensitive),
            FetchSortDescriptor(key: "score", ascending: false),
        ],
        [FetchSortDescriptor(key: "name", ascending: false, comparison: .localizedStandard)],
        [
            FetchSortDescriptor(key: "name"), FetchSortDescriptor(key: "when"),
            FetchSortDescriptor(key: "ratio", ascending: false),
        ],
        [
            FetchSortDescriptor(key: "group.rank", ascending: false),
            FetchSortDescriptor(key: "score"),
        ],
    ]

    /// An empty table of `model`, for tests that fill their own.
    init(model: ManagedObjectModel, storeIdentifier: String) {
        self.model = model
        table = RowTable(model: model, storeIdentifier: storeIdentifier)
    }

    init(seed: UInt64) throws {
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Group",
                properties: [
                    AttributeDescription(name: "rank", type: .integer64),
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "group", isToMany: true),
                ]),
            EntityDescription(
                name: "SubGroup", superentityName: "Group",
                properties: [
                    AttributeDescription(name: "extra", type: .string)
                ]),
            EntityDescription(
                name: "Item",
                properties: [
                    AttributeDescription(name: "score", type: .integer64),
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "when", type: .date),
                    AttributeDescription(name: "ratio", type: .double),
                    RelationshipDescription(name: "group", destination: "Group", inverse: "items"),
                ]),
            EntityDescription(
                name: "SpecialItem", superentityName: "Item",
                properties: [
                    AttributeDescription(name: "flag", type: .boolean)
                ]),
        ])
        table = RowTable(model: model, storeIdentifier: "FIXTURE")
        var random = SeededRandomNumberGenerator(seed: seed)
        var groups: [ManagedObjectID] = []
        for pk in 1...6 as ClosedRange<Int64> {
            let entity = model.entitiesByName[pk > 4 ? "SubGroup" : "Group"]!
            let id = ManagedObjectID(entity: entity, storeIdentifier: "FIXTURE", primaryKey: pk)
            groups.append(id)
            var values: [String: StoreValue] = [
                "rank": .attribute(pk == 3 ? .null : .integer(pk % 3)),
                "name": .attribute(.string("g\(pk)")),
            ]
            if pk > 4 { values["extra"] = .attribute(.string(pk == 5 ? "x" : "y")) }
            table.upsert(Self.row(id, values))
        }
        let names = ["a", "A", "b", "B", "a10", "a9", "é", "e"]
        for pk in 1...300 as ClosedRange<Int64> {
            let special = random.next() % 5 == 0
            let entity = model.entitiesByName[special ? "SpecialItem" : "Item"]!
            let id = ManagedObjectID(entity: entity, storeIdentifier: "FIXTURE", primaryKey: pk)
            let roll = random.next()
            var values: [String: StoreValue] = [
                "score": .attribute(roll % 7 == 0 ? .null : .integer(Int64(random.next() % 5))),
                "name": .attribute(.string(names[Int(random.next() % UInt64(names.count))])),
                "when": .attribute(
                    roll % 5 == 0
                        ? .null
                        : .date(
                            Date(timeIntervalSinceReferenceDate: Double(random.next() % 4) * 50))),
                "ratio": .attribute(
                    roll % 6 == 0
                        ? .null
                        : roll % 11 == 0
                            ? .double(.nan)
                            : .double(Double(random.next() % 4) / 4)),
                "group": .toOne(
                    roll % 9 == 0 ? nil : groups[Int(random.next() % UInt64(groups.count))]),
            ]
            if special { values["flag"] = .attribute(.boolean(roll % 2 == 0)) }
            table.upsert(Self.row(id, values))
        }
    }

    /// A row of `id`'s entity: the given values, nil / empty / not stored elsewhere.
    static func row(_ id: ManagedObjectID, _ given: [String: StoreValue]) -> StoreRow {
        let values: [StoreValue] = id.entity.properties.map { property in
            if let value = given[property.name] { return value }
            guard let relationship = property as? RelationshipDescription else {
                return .attribute(.null)
            }
            if !relationship.isToMany { return .toOne(nil) }
            return relationship.isStoredInRow ? .toMany([]) : .notStored
        }
        return StoreRow(objectID: id, version: 1, values: values)
    }

    /// What the store must return: the rows in the stable order filtered by the general
    /// evaluator, then stably sorted by the compiled descriptors on records.
    func reference(
        entity: EntityDescription, predicate: FetchPredicate?, sorts: [FetchSortDescriptor]
    ) throws
        -> [ManagedObjectID]
    {
        let reader = RowTableReader(table: table)
        let compiled = try predicate?.compile(for: entity)
        let order = try sorts.map { try $0.compile(for: entity) }
        let records = entity.selfAndDescendants.flatMap { table.rows(of: $0) }
            .map { RowRecord(reader: reader, row: $0) }
            .filter { compiled?.evaluate($0) ?? true }
        return records.enumerated().sorted { a, b in
            for sort in order {
                switch sort.compare(a.element, b.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a.offset < b.offset
        }.map(\.element.row.objectID)
    }

    /// A table holding the rows of the predicate test graph, and each row's label.
    static func table(mirroring graph: PredicateTestGraph) throws -> (
        RowTable, [ManagedObjectID: String]
    ) {
        var table = RowTable(model: graph.model, storeIdentifier: "TEST-STORE")
        var labels: [ManagedObjectID: String] = [:]
        for (label, object) in graph.objects {
            labels[object.objectID] = label
            let values: [StoreValue] = object.entity.properties.map { property in
                guard let relationship = property as? RelationshipDescription else {
                    return .attribute(object.values[property.index])
                }
                if !relationship.isToMany { return .toOne(object.toOne[property.index]?.objectID) }
                guard relationship.isStoredInRow else { return .notStored }
                return .toMany((object.toMany[property.index] ?? []).map(\.objectID))
            }
            table.upsert(StoreRow(objectID: object.objectID, version: 1, values: values))
        }
        return (table, labels)
    }
}
