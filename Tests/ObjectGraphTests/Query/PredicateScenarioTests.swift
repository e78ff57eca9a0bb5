import Foundation
import Testing

@testable import ObjectGraph

/// Scenarios B17, B18, B20, B21 and B24 of the shared behaviour scenarios, on small models.
@Suite struct PredicateScenarioTests {
    /// A one-entity model plus optional to-many `tags` to a `Tag` entity with a `name`.
    private struct World {
        let model: ManagedObjectModel
        var records: [GraphObject] = []

        init(entity: String, attributes: [(String, AttributeType)], withTags: Bool = false) throws {
            var properties: [PropertyDescription] = attributes.map {
                AttributeDescription(name: $0.0, type: $0.1)
            }
            var entities: [EntityDescription] = []
            if withTags {
                properties.append(
                    RelationshipDescription(name: "tags", destination: "Tag", isToMany: true))
                entities.append(
                    EntityDescription(
                        name: "Tag",
                        properties: [
                            AttributeDescription(name: "name", type: .string)
                        ]))
            }
            entities.insert(EntityDescription(name: entity, properties: properties), at: 0)
            model = try ManagedObjectModel(entities: entities)
        }

        @discardableResult
        mutating func add(
            _ label: String, entity: String? = nil, _ values: [String: AttributeValue]
        ) -> GraphObject {
            let e = entity.map { model.entitiesByName[$0]! } ?? model.entities[0]
            let o = GraphObject(label: label, entity: e, key: Int64(records.count + 1))
            for (k, v) in values { o[k] = v }
            records.append(o)
            return o
        }

        func match(_ format: String, _ args: Any...) throws -> [String] {
            let entity = model.entities[0]
            let compiled = try FetchPredicate(format: format, argumentArray: args).compile(
                for: entity)
            return records.filter { $0.entity === entity && compiled.evaluate($0) }.map(\.label)
        }
    }

    @Test func b17NotEqualKeepsNilAndNilIsNotNo() throws {
        var w = try World(entity: "Article", attributes: [("author", .string), ("done", .boolean)])
        w.add("a1", ["author": "Writer A", "done": true])
        w.add("a2", ["author": "Writer B", "done": false])
        w.add("a3", [:])
        #expect(try w.match("author != 'Writer A'") == ["a2", "a3"])
        #expect(try w.match("NOT (author == 'Writer A')") == ["a2", "a3"])
        #expect(try w.match("author == nil") == ["a3"])
        #expect(try w.match("done == NO") == ["a2"])
        #expect(try w.match("done != YES") == ["a2", "a3"])
        #expect(try w.match("author != %@", "Writer A") == ["a2", "a3"])
    }

    @Test func b18QuotedPlaceholderIsLiteralAndMissingArgumentFailsAtParse() throws {
        var w = try World(entity: "Fruit", attributes: [("name", .string)])
        for name in ["apple", "grape", "100%@home"] { w.add(name, ["name": .string(name)]) }
        #expect(try w.match("name CONTAINS[c] '%@'", "ap") == ["100%@home"])
        #expect(
            try FetchPredicate(format: "name CONTAINS[c] '%@'").description
                == "name CONTAINS[c] \"%@\"")
        #expect(try w.match("name CONTAINS[c] '%@'") == ["100%@home"])
        #expect(try w.match("name CONTAINS[c] %@", "ap") == ["apple", "grape"])
        #expect(try w.match("%K CONTAINS %@", "name", "pe") == ["grape"])
        #expect(throws: ObjectGraphError.self) { try FetchPredicate(format: "name == %@") }
        #expect(try w.match("name == '$VAR'") == [])
        #expect(try w.match("name == \"%K\"") == [])
    }

    @Test func b20DatesCompareAsExactInstantsAndBetweenIsInclusive() throws {
        var w = try World(entity: "Event", attributes: [("date", .date)])
        let d0 = try #require(PredicateCast.isoDate("2024-03-10T00:00:00Z"))
        let d1 = d0.addingTimeInterval(86_400)
        w.add("e1", ["date": .date(d0)])
        w.add("e2", ["date": .date(d0.addingTimeInterval(86_399.5))])
        w.add("e3", ["date": .date(d1)])
        w.add("e4", ["date": .date(d0.addingTimeInterval(0.001))])
        #expect(
            try w.match("date >= %@ AND date <= %@", d0, d0.addingTimeInterval(86_399)) == [
                "e1", "e4",
            ])
        #expect(try w.match("date >= %@ AND date < %@", d0, d1) == ["e1", "e2", "e4"])
        #expect(try w.match("date BETWEEN {%@, %@}", d0, d1) == ["e1", "e2", "e3", "e4"])
        #expect(try w.match("date BETWEEN %@", [d0, d1]) == ["e1", "e2", "e3", "e4"])
        #expect(try w.match("date == %@", d0) == ["e1"])
        let printed = try FetchPredicate(format: "date == %@", d0.addingTimeInterval(0.001))
            .description
        #expect(try w.match(printed) == ["e4"])
    }

    @Test func b21QuantifiersOverEmptyCollections() throws {
        var w = try World(entity: "Project", attributes: [("name", .string)], withTags: true)
        let t1 = w.add("t1", entity: "Tag", ["name": "t1"])
        let t2 = w.add("t2", entity: "Tag", ["name": "t2"])
        let tags = w.model.entities[0].propertiesByName["tags"]!.index
        w.add("P1", ["name": "P1"]).toMany[tags] = []
        w.add("P2", ["name": "P2"]).toMany[tags] = [t1]
        w.add("P3", ["name": "P3"]).toMany[tags] = [t1, t2]
        #expect(try w.match("ALL tags.name IN {}") == ["P1"])
        #expect(try w.match("ALL tags.name IN {\"t1\"}") == ["P1", "P2"])
        #expect(try w.match("ANY tags.name IN {}") == [])
        #expect(try w.match("ANY tags.name == \"t1\"") == ["P2", "P3"])
        #expect(try w.match("NONE tags.name == \"t1\"") == ["P1"])
        #expect(try w.match("tags.@count == 0") == ["P1"])
        #expect(try w.match("tags.@count >= 2") == ["P3"])
        #expect(try w.match("SUBQUERY(tags, $t, $t.name == \"t2\").@count > 0") == ["P3"])
        #expect(try w.match("name IN {}") == [])
        #expect(try w.match("name IN %@", [String]()) == [])
        let error = #expect(throws: ObjectGraphError.self) {
            try FetchPredicate(format: "name NOT IN %@", ["P1"])
        }
        #expect(error?.column == 6)
        #expect(try w.match("NOT (name IN %@)", ["P1"]) == ["P2", "P3"])
    }

    @Test func b24NilSortsFirstAscendingAndLastDescending() throws {
        var w = try World(entity: "Task", attributes: [("title", .string), ("due", .date)])
        let d1 = Date(timeIntervalSinceReferenceDate: 1000)
        let d2 = Date(timeIntervalSinceReferenceDate: 2000)
        w.add("t1", ["title": "d", "due": .date(d2)])
        w.add("t2", ["title": "b"])
        w.add("t3", ["title": "c", "due": .date(d1)])
        w.add("t4", ["title": "a"])
        let entity = w.model.entities[0]
        func sorted(_ descriptors: [FetchSortDescriptor]) throws -> [String] {
            let compiled = try descriptors.map { try $0.compile(for: entity) }
            return w.records.enumerated().sorted { a, b in
                for d in compiled {
                    switch d.compare(a.element, b.element) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return a.offset < b.offset
            }.map(\.element.label)
        }
        let ascending = try sorted([FetchSortDescriptor(key: "due")])
        #expect(Set(ascending.prefix(2)) == ["t2", "t4"])
        #expect(ascending.suffix(2) == ["t3", "t1"])
        let descending = try sorted([FetchSortDescriptor(key: "due", ascending: false)])
        #expect(descending.prefix(2) == ["t1", "t3"])
        #expect(Set(descending.suffix(2)) == ["t2", "t4"])
        #expect(
            try sorted([FetchSortDescriptor(key: "due"), FetchSortDescriptor(key: "title")])
                == ["t4", "t2", "t3", "t1"])
    }
}
