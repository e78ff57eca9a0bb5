import Foundation

@testable import ObjectGraph

/// A tiny in-memory object graph for predicate tests: records keyed by slot, related by
/// references, with a read counter to observe memoisation.
final class GraphObject: PredicateRecord {
    let label: String
    let entity: EntityDescription
    let objectID: ManagedObjectID
    var values: [AttributeValue]
    var toOne: [Int: GraphObject] = [:]
    var toMany: [Int: [GraphObject]] = [:]
    /// How many attribute reads this record has served.
    var attributeReads = 0

    init(label: String, entity: EntityDescription, key: Int64) {
        self.label = label
        self.entity = entity
        self.objectID = ManagedObjectID(
            entity: entity, storeIdentifier: "TEST-STORE", primaryKey: key)
        self.values = Array(repeating: .null, count: entity.properties.count)
    }

    var recordEntity: EntityDescription { entity }
    var recordObjectID: ManagedObjectID { objectID }

    func attributeValue(at index: Int) -> AttributeValue {
        attributeReads += 1
        return values[index]
    }

    func toOneRecord(at index: Int) -> GraphObject? { toOne[index] }
    func toManyRecords(at index: Int) -> [GraphObject] { toMany[index] ?? [] }

    func slot(_ key: String) -> Int {
        guard let p = entity.propertiesByName[key] else {
            fatalError("test graph: no key \(key) on \(entity.name)")
        }
        return p.index
    }

    subscript(key: String) -> AttributeValue {
        get { values[slot(key)] }
        set { values[slot(key)] = newValue }
    }
}

/// The model: Category —< Transaction >—< Tag, plus Category.parent and a Transfer subentity.
enum PredicateTestModel {
    static func make() -> ManagedObjectModel {
        let category = EntityDescription(
            name: "Category",
            properties: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "budget", type: .decimal),
                AttributeDescription(name: "color", type: .string),
                AttributeDescription(name: "isArchived", type: .boolean),
                RelationshipDescription(
                    name: "transactions", destination: "Transaction", inverse: "category",
                    isToMany: true),
                RelationshipDescription(
                    name: "parent", destination: "Category", inverse: "children"),
                RelationshipDescription(
                    name: "children", destination: "Category", inverse: "parent", isToMany: true),
            ])
        let transaction = EntityDescription(
            name: "Transaction",
            properties: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "amount", type: .decimal),
                AttributeDescription(name: "quantity", type: .integer32),
                AttributeDescription(name: "rate", type: .double),
                AttributeDescription(name: "weight", type: .float),
                AttributeDescription(name: "date", type: .date),
                AttributeDescription(name: "done", type: .boolean),
                AttributeDescription(name: "id", type: .uuid),
                AttributeDescription(name: "link", type: .uri),
                AttributeDescription(name: "blob", type: .binaryData),
                AttributeDescription(name: "payload", type: .transformable),
                AttributeDescription(name: "note", type: .string),
                AttributeDescription(name: "size", type: .integer16),
                RelationshipDescription(
                    name: "category", destination: "Category", inverse: "transactions"),
                RelationshipDescription(
                    name: "tags", destination: "Tag", inverse: "transactions", isToMany: true),
            ])
        let transfer = EntityDescription(
            name: "Transfer", superentityName: "Transaction",
            properties: [
                AttributeDescription(name: "account", type: .string)
            ])
        let tag = EntityDescription(
            name: "Tag",
            properties: [
                AttributeDescription(name: "name", type: .string),
                RelationshipDescription(
                    name: "transactions", destination: "Transaction", inverse: "tags",
                    isToMany: true),
            ])
        do {
            return try ManagedObjectModel(entities: [category, transaction, transfer, tag])
        } catch {
            fatalError("test model: \(error)")
        }
    }
}

/// The fixture: categories c1–c4, tags g1–g4, transactions t1–t8 (t8 is a Transfer).
///
/// | t  | title          | amount  | qty | rate | weight | date        | done | note            | category | tags            |
/// |----|----------------|---------|-----|------|--------|-------------|------|-----------------|----------|-----------------|
/// | t1 | Groceries      | 12.50   | 2   | 0.5  | 1.5    | D0          | YES  | weekly          | c1       | home            |
/// | t2 | Restaurant     | 600     | 1   | 1.25 | 0.25   | D0+86399.5s | NO   | nil             | c1       | home, work      |
/// | t3 | Flight         | 1200.99 | 1   | 2.0  | 3.0    | D1          | YES  | trip to Zürich  | c2       | work, Urgent    |
/// | t4 | Hotel          | 750.00  | 3   | nil  | nil    | D0+0.001s   | nil  | ""              | c2       |                 |
/// | t5 | café latte     | 4.20    | 1   | 0.1  | 0.1    | D0-1day     | NO   | Crème brûlée    | c3       | home            |
/// | t6 | Electricity    | 80      | 1   | -3.5 | nil    | nil         | YES  | nil             | nil      | Urgent          |
/// | t7 | Train ticket   | 45.5    | 2   | 100  | nil    | D0+2days    | NO   | 100%@home       | c2       |                 |
/// | t8 | ÉCOLE fees     | -20     | 0   | 0    | 0      | D0          | nil  | a*b?c           | c3       | home,work,Urgent|
///
/// c1 Food (budget 500, red), c2 Travel (1500.50, no color, archived, parent c4),
/// c3 Café (no budget, Green, parent c4), c4 Bills (0, blue, children c2 c3).
/// g1 home, g2 work, g3 Urgent, g4 ünïcode (no transactions).
/// Only t1, t2, t3, t5 have ids (U1 U2 U3 U5); t1–t3 have links and blobs.
struct PredicateTestGraph {
    static let d0 = Date(timeIntervalSince1970: 1_710_028_800)  // 2024-03-10T00:00:00Z
    static let day: TimeInterval = 86_400
    static let u1 = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    static let u2 = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    static let u3 = UUID(uuidString: "00000000-0000-0000-0000-000000000003")!
    static let u5 = UUID(uuidString: "00000000-0000-0000-0000-000000000005")!

    let model: ManagedObjectModel
    var objects: [String: GraphObject] = [:]

    init() {
        model = PredicateTestModel.make()
        let d0 = Self.d0
        let day = Self.day
        func make(_ label: String, _ entity: String, _ key: Int64) -> GraphObject {
            let o = GraphObject(label: label, entity: model.entitiesByName[entity]!, key: key)
            objects[label] = o
            return o
        }
        let c1 = make("c1", "Category", 1)
        let c2 = make("c2", "Category", 2)
        let c3 = make("c3", "Category", 3)
        let c4 = make("c4", "Category", 4)
        for (c, name, budget, color, archived) in [
            (c1, "Food", AttributeValue.decimal(500), AttributeValue.string("red"), false),
            (c2, "Travel", .decimal(Decimal(string: "1500.50")!), .null, true),
            (c3, "Café", .null, .string("Green"), false),
            (c4, "Bills", .decimal(0), .string("blue"), false),
        ] {
            c["name"] = .string(name)
            c["budget"] = budget
            c["color"] = color
            c["isArchived"] = .boolean(archived)
        }
        link(c2, "parent", c4, inverse: "children")
        link(c3, "parent", c4, inverse: "children")

        let tags = ["home", "work", "Urgent", "ünïcode"].enumerated().map { i, name in
            let g = make("g\(i + 1)", "Tag", Int64(i + 1))
            g["name"] = .string(name)
            return g
        }
        typealias Row = (
            String, AttributeValue, Int64, AttributeValue, AttributeValue, AttributeValue,
            AttributeValue, String?, GraphObject?, [Int]
        )
        let rows: [Row] = [
            (
                "Groceries", .decimal(Decimal(string: "12.50")!), 2, .double(0.5), .float(1.5),
                .date(d0),
                .boolean(true), "weekly", c1, [0]
            ),
            (
                "Restaurant", .decimal(600), 1, .double(1.25), .float(0.25),
                .date(d0.addingTimeInterval(86_399.5)),
                .boolean(false), nil, c1, [0, 1]
            ),
            (
                "Flight", .decimal(Decimal(string: "1200.99")!), 1, .double(2), .float(3),
                .date(d0 + day),
                .boolean(true), "trip to Zürich", c2, [1, 2]
            ),
            (
                "Hotel", .decimal(Decimal(string: "750.00")!), 3, .null, .null,
                .date(d0.addingTimeInterval(0.001)),
                .null, "", c2, []
            ),
            (
                "café latte", .decimal(Decimal(string: "4.20")!), 1, .double(0.1), .float(0.1),
                .date(d0 - day),
                .boolean(false), "Crème brûlée", c3, [0]
            ),
            (
                "Electricity", .decimal(80), 1, .double(-3.5), .null, .null, .boolean(true), nil,
                nil, [2]
            ),
            (
                "Train ticket", .decimal(Decimal(string: "45.5")!), 2, .double(100), .null,
                .date(d0 + 2 * day),
                .boolean(false), "100%@home", c2, []
            ),
            (
                "ÉCOLE fees", .decimal(-20), 0, .double(0), .float(0), .date(d0), .null, "a*b?c",
                c3, [0, 1, 2]
            ),
        ]
        let ids = [Self.u1, Self.u2, Self.u3, nil, Self.u5, nil, nil, nil]
        for (i, row) in rows.enumerated() {
            let t = make("t\(i + 1)", i == 7 ? "Transfer" : "Transaction", Int64(i + 1))
            t["title"] = .string(row.0)
            t["amount"] = row.1
            t["quantity"] = .integer(row.2)
            t["rate"] = row.3
            t["weight"] = row.4
            t["date"] = row.5
            t["done"] = row.6
            t["note"] = row.7.map { .string($0) } ?? .null
            t["size"] = .integer(Int64(i % 3))
            if let id = ids[i] { t["id"] = .uuid(id) }
            if i < 3 {
                t["link"] = .uri(
                    URL(
                        string: [
                            "https://example.com/a", "https://example.com/b",
                            "https://example.org/c",
                        ][i])!)
                t["blob"] = .data(Data([[1, 2], [], [0xFF]][i]))
                t["payload"] = .transformable(Data("{\"n\":\(i)}".utf8))
            }
            if let c = row.8 { link(t, "category", c, inverse: "transactions") }
            for g in row.9 {
                add(t, "tags", tags[g])
                add(tags[g], "transactions", t)
            }
        }
        objects["t8"]!["account"] = .string("savings")
    }

    private func link(_ source: GraphObject, _ key: String, _ target: GraphObject, inverse: String)
    {
        source.toOne[source.slot(key)] = target
        add(target, inverse, source)
    }

    private func add(_ source: GraphObject, _ key: String, _ target: GraphObject) {
        source.toMany[source.slot(key), default: []].append(target)
    }

    func entity(_ name: String) -> EntityDescription { model.entitiesByName[name]! }

    subscript(label: String) -> GraphObject { objects[label]! }

    /// Records of `entity` and its subentities, in label order.
    func records(of entity: String) -> [GraphObject] {
        let e = self.entity(entity)
        return objects.values.filter { $0.entity.isKind(of: e) }.sorted { $0.label < $1.label }
    }

    /// The labels of the records of `entity` matching `predicate`, sorted.
    func matches(_ predicate: FetchPredicate, entity: String) throws -> [String] {
        let compiled = try predicate.compile(for: self.entity(entity))
        return records(of: entity).filter { compiled.evaluate($0) }.map(\.label)
    }
}
