import Foundation
import Testing

@testable import ObjectGraph

/// Building, substituting, compiling and evaluating predicates and expressions through the API.
@Suite struct PredicateAPITests {
    let graph = PredicateTestGraph()

    private func compileError(_ format: String, on entity: String = "Transaction")
        -> ObjectGraphError?
    {
        do {
            _ = try FetchPredicate(format: format).compile(for: graph.entity(entity))
            Issue.record("compiled \(format)")
            return nil
        } catch let error as ObjectGraphError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func unknownKeyNamesEntityKeyAndPredicate() throws {
        let error = try #require(compileError("amout > 5"))
        #expect(error.reason == .predicateUnknownKey)
        #expect((error as NSError).code == 134_060)
        #expect(error.entityName == "Transaction")
        #expect(error.key == "amout")
        #expect(error.message.contains("amout > 5"))
        let nested = try #require(compileError("category.nmae == 'x'"))
        #expect(nested.entityName == "Category")
        #expect(nested.key == "nmae")
        #expect(nested.message.contains("category.nmae"))
        #expect(compileError("account == 'savings'")?.key == "account")
    }

    @Test(arguments: [
        "title.length == 1", "category.@count == 1", "tags.@sum == 1", "tags.@count.name == 1",
        "$X == 1", "SUBQUERY({1, 2}, $n, SELF == 1).@count == 1",
        "SUBQUERY({1}, $n, name == 1).@count == 1",
        "category == CAST('x-coredata://S/Nope/p1', 'NSManagedObjectID')",
        "category == CAST('x-coredata:///Category/t1', 'NSManagedObjectID')",
        "category == CAST('x-coredata://S/Category/1', 'NSManagedObjectID')",
        "tags.@sum.@count == 1", "tags.@avg == 1", "%@.name == 1",
    ])
    func misusedKeyPathsFailToCompile(_ format: String) throws {
        let args: [Any] = format.contains("%@") ? [5] : []
        #expect(throws: ObjectGraphError.self) {
            try FetchPredicate(format: format, argumentArray: args).compile(
                for: graph.entity("Transaction"))
        }
    }

    @Test func substitutionReplacesFreeVariablesOnly() throws {
        let template = try FetchPredicate(format: "amount > $MIN AND category.name == $CAT")
        #expect(throws: ObjectGraphError.self) {
            try template.compile(for: graph.entity("Transaction"))
        }
        let p = try template.withSubstitutionVariables(["MIN": 500, "CAT": "Travel"])
        #expect(try graph.matches(p, entity: "Transaction") == ["t3", "t4"])
        #expect(p.description == "amount > 500 AND category.name == \"Travel\"")
        let partial = try template.withSubstitutionVariables(["MIN": 500])
        #expect(partial.description == "amount > 500 AND category.name == $CAT")
        let sub = try FetchPredicate(format: "SUBQUERY(tags, $t, $t.name == $NAME).@count > 0")
            .withSubstitutionVariables(["NAME": "work", "t": 5])
        #expect(try graph.matches(sub, entity: "Transaction") == ["t2", "t3", "t8"])
        let list = try FetchPredicate(format: "quantity IN $Q").withSubstitutionVariables([
            "Q": [0, 3]
        ])
        #expect(try graph.matches(list, entity: "Transaction") == ["t4", "t8"])
        let path = try FetchPredicate(format: "$C.name == 'Food'")
        #expect(throws: ObjectGraphError.self) {
            try path.withSubstitutionVariables(["C": Unsupported()])
        }
        let expression = try FetchExpression(format: "amount * $F").withSubstitutionVariables([
            "F": 2
        ])
        #expect(expression.description == "amount * 2")
    }

    @Test func objectArgumentsBecomeTheirIDs() throws {
        let category = graph.entity("Category")
        let object = ManagedObject(entity: category, insertInto: nil)
        let p = try FetchPredicate(format: "category == %@", object)
        #expect(p == .comparison(.keyPath("category"), .equalTo, .object(object.objectID)))
        // Swift spreads an [Any] literal into a variadic Any..., so pass it as one argument.
        let spread = try FetchPredicate(format: "category IN %@", [object, graph["c1"]])
        #expect(spread == .comparison(.keyPath("category"), .in, .object(object.objectID)))
        let q = try FetchPredicate(
            format: "category IN %@", argumentArray: [[object, graph["c1"]]])
        #expect(try FetchPredicate(format: "category IN %@", [object, graph["c1"]] as Any) == q)
        guard case .comparison(let c) = q.kind, case .aggregate(let items) = c.right.kind else {
            Issue.record("expected an aggregate: \(q)")
            return
        }
        #expect(Set(items) == [.object(object.objectID), .object(graph["c1"].objectID)])
        #expect(try graph.matches(q, entity: "Transaction") == ["t1", "t2"])
    }

    @Test func deeplyNestedArgumentCollectionsAreRefusedNotRecursedInto() throws {
        var nested: Any = 1
        for _ in 0..<1_000 { nested = [nested] }
        let error = #expect(throws: ObjectGraphError.self) {
            try FetchPredicate(format: "a IN %@", argumentArray: [nested])
        }
        #expect(error?.column == 6)
        var shallow: Any = 1
        for _ in 0..<10 { shallow = [shallow] }
        let p = try FetchPredicate(format: "a IN %@", argumentArray: [shallow])
        #expect(try FetchPredicate(format: p.description) == p)
    }

    @Test func setArgumentsGiveEqualPredicatesWhateverTheirOrder() throws {
        let a = try FetchPredicate(format: "title IN %@", Set(["b", "a", "c", "d", "e"]))
        let b = try FetchPredicate(format: "title IN %@", Set(["e", "d", "c", "b", "a"]))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.description == "title IN {\"a\", \"b\", \"c\", \"d\", \"e\"}")
    }

    @Test func builtPredicatesMatchParsedOnes() throws {
        let built = FetchPredicate.and([
            .comparison(.keyPath("amount"), .greaterThan, .constant(500)),
            .not(
                .comparison(
                    .keyPath("category.name"), .beginsWith, .constant("tr"),
                    options: .caseInsensitive)),
        ])
        let parsed = try FetchPredicate(
            format: "amount > 500 AND NOT category.name BEGINSWITH[c] 'tr'")
        #expect(built == parsed)
        #expect(try graph.matches(built, entity: "Transaction") == ["t2"])
        let any = FetchPredicate.comparison(
            .keyPath("tags.name"), .equalTo, .constant("Urgent"), modifier: .all)
        #expect(try graph.matches(any, entity: "Transaction") == ["t4", "t6", "t7"])
        #expect(try graph.matches(.truePredicate, entity: "Tag") == ["g1", "g2", "g3", "g4"])
        #expect(try graph.matches(.falsePredicate, entity: "Tag") == [])
        #expect(try graph.matches(.or([]), entity: "Tag") == [])
        let subquery = FetchPredicate.comparison(
            .init(
                .keyPath(
                    base: .subquery(
                        .keyPath("tags"), variable: "t",
                        predicate: .comparison(
                            .variable("t"), .equalTo,
                            .object(graph["g2"].objectID))),
                    components: ["@count"])),
            .equalTo, .constant(1))
        #expect(try graph.matches(subquery, entity: "Transaction") == ["t2", "t3", "t8"])
    }

    @Test func expressionsEvaluateToValuesObjectsAndCollections() throws {
        let entity = graph.entity("Transaction")
        func value(_ format: String, _ label: String) throws -> ExpressionValue {
            try FetchExpression(format: format).compile(for: entity).value(for: graph[label])
        }
        let raised = try value("amount * 1.2", "t1").attributeValue
        #expect(
            PredicateTest(.equalTo, StringFolding([]), constant: .value(.integer(15))).test(raised))
        guard case .decimal = raised else {
            Issue.record("decimal times decimal literal should stay decimal, got \(raised)")
            return
        }
        #expect(try value("quantity * 2", "t4") == .value(.integer(6)))
        #expect(try value("rate * 2", "t1") == .value(.double(1)))
        #expect(try value("tags.name", "t2") == .collection([.value("home"), .value("work")]))
        #expect(try value("category", "t1") == .object(graph["c1"].objectID))
        #expect(try value("category.name", "t6") == .value(.null))
        #expect(try value("tags.@count", "t8") == .value(.integer(3)))
        #expect(
            try value("SUBQUERY(tags, $t, $t.name == 'home')", "t2")
                == .collection([.object(graph["g1"].objectID)]))
        #expect(
            try value("{1, 'a', nil}", "t1")
                == .collection([.value(1), .value("a"), .value(.null)]))
        #expect(try value("SELF", "t3") == .object(graph["t3"].objectID))
        #expect(try value("date + 60", "t1") == .value(.date(PredicateTestGraph.d0 + 60)))
        #expect(try value("quantity / 4", "t1") == .value(.decimal(Decimal(string: "0.5")!)))
        #expect(try value("CAST(quantity, 'NSString')", "t4") == .value("3"))
        #expect(try value("mode({1, 1, 2, 2, 3})", "t1") == .collection([.value(1), .value(2)]))
        #expect(ExpressionValue.collection([]).attributeValue == .null)
        #expect(throws: ObjectGraphError.self) {
            try FetchExpression(format: "$X + 1").compile(for: entity)
        }
        let error = #expect(throws: ObjectGraphError.self) {
            try FetchExpression(format: "amount *")
        }
        #expect(error?.column == 9)
    }

    @Test func aggregateFunctionsReduceValuesLikeCollectionOperators() {
        let values: [AttributeValue] = [.decimal(Decimal(string: "12.5")!), .null, .integer(3)]
        #expect(FetchFunction.sum.aggregate(values) == .decimal(Decimal(string: "15.5")!))
        #expect(FetchFunction.count.aggregate(values) == .integer(3))
        #expect(FetchFunction.min.aggregate(values) == .integer(3))
        #expect(FetchFunction.max.aggregate(values) == .decimal(Decimal(string: "12.5")!))
        #expect(
            FetchFunction.average.aggregate([.integer(1), .integer(2)])
                == .decimal(Decimal(string: "1.5")!))
        #expect(FetchFunction.sum.aggregate([]) == .integer(0))
        #expect(FetchFunction.average.aggregate([.null]) == .null)
        #expect(
            FetchFunction.median.aggregate([.double(3), .integer(1), .integer(2)]) == .integer(2))
        #expect(FetchFunction.abs.aggregate(values) == nil)
        #expect(!FetchFunction.add.isAggregate)
    }

    @Test func toOneSubresultsAreComputedOncePerDestination() throws {
        let entity = graph.entity("Transaction")
        let records = graph.records(of: "Transaction")
        let expensive = try FetchPredicate(format: "category.name LIKE[c] 't*'").compile(
            for: entity)
        #expect(records.filter { expensive.evaluate($0) }.map(\.label) == ["t3", "t4", "t7"])
        #expect(graph["c2"].attributeReads == 1)
        #expect(graph["c1"].attributeReads == 1)
        #expect(records.filter { expensive.evaluate($0) }.count == 3)
        #expect(graph["c2"].attributeReads == 1)

        graph["c2"]["name"] = "Leisure"
        #expect(records.filter { expensive.evaluate($0) }.count == 3)
        expensive.resetCaches()
        #expect(records.filter { expensive.evaluate($0) }.count == 0)
        #expect(records.map(WrappedRecord.init).filter { expensive.evaluate($0) }.count == 0)

        let cheap = try FetchPredicate(format: "category.name == 'Food'").compile(for: entity)
        let before = graph["c1"].attributeReads
        #expect(records.filter { cheap.evaluate($0) }.map(\.label) == ["t1", "t2"])
        #expect(graph["c1"].attributeReads == before + 2)
    }

    @Test func memosAreNotSharedBetweenRecordTypes() throws {
        let compiled = try FetchPredicate(format: "category.name ==[c] 'food'").compile(
            for: graph.entity("Transaction"))
        #expect(compiled.evaluate(graph["t1"]))
        #expect(!compiled.evaluate(WrappedRecord(graph["t1"], renameCategories: true)))
        #expect(compiled.evaluate(graph["t1"]))
    }

    @Test func subentityRecordsEvaluateWithTheirParentsSlots() throws {
        let compiled = try FetchPredicate(format: "amount < 0 AND tags.@count == 3").compile(
            for: graph.entity("Transaction"))
        #expect(graph["t8"].entity.name == "Transfer")
        #expect(compiled.evaluate(graph["t8"]))
        #expect(compiled.entity === graph.entity("Transaction"))
    }
}

/// A value-type record over a graph object, optionally showing different category names.
struct WrappedRecord: PredicateRecord {
    let object: GraphObject
    var renameCategories = false

    init(_ object: GraphObject) { self.object = object }
    init(_ object: GraphObject, renameCategories: Bool) {
        self.object = object
        self.renameCategories = renameCategories
    }

    var recordEntity: EntityDescription { object.entity }
    var recordObjectID: ManagedObjectID { object.objectID }
    func attributeValue(at index: Int) -> AttributeValue {
        if renameCategories, object.entity.name == "Category",
            object.entity.properties[index].name == "name"
        {
            return "renamed"
        }
        return object.attributeValue(at: index)
    }
    func toOneRecord(at index: Int) -> WrappedRecord? {
        object.toOneRecord(at: index).map { WrappedRecord($0, renameCategories: renameCategories) }
    }
    func toManyRecords(at index: Int) -> [WrappedRecord] {
        object.toManyRecords(at: index).map {
            WrappedRecord($0, renameCategories: renameCategories)
        }
    }
}
