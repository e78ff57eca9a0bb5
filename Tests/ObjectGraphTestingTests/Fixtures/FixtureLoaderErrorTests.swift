import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// One broken fixture: the model, the document, and what the error must say.
struct BrokenFixture: Sendable, CustomTestStringConvertible {
    let name: String
    var model = "ExpenseTracker"
    let json: String
    var code = 134060
    /// The JSON path the message names (after "at "), or nil for document-level errors.
    let path: String?
    /// A fragment of the rule the message states.
    let rule: String
    var testDescription: String { name }
}

private let food =
    #"{"_ref": "food", "id": "6F1C2B9E-3D4A-4E5F-8A7B-1C2D3E4F5A60", "name": "Food"}"#
private func transaction(_ extra: String, ref: String = "t1", id: Int = 1) -> String {
    #"{"_ref": "\#(ref)", "id": "11111111-2222-4333-8444-5555555555\#(10 + id)", "amount": "1.00", "date": "2024-01-01T00:00:00Z"\#(extra)}"#
}

let brokenFixtures: [BrokenFixture] = [
    BrokenFixture(
        name: "syntax", json: #"{"Category": [}"#, path: nil, rule: "line 1:15: expected"),
    BrokenFixture(
        name: "top level", json: #"[1]"#, path: nil, rule: "expected an object keyed by entity name"
    ),
    BrokenFixture(
        name: "unknown entity", json: #"{"Trasaction": []}"#, path: "Trasaction",
        rule: "the model has no entity Trasaction (did you mean Transaction?)"),
    BrokenFixture(
        name: "entity not an array", json: #"{"Category": {}}"#, path: "Category",
        rule: "expected an array of Category objects, found an object"),
    BrokenFixture(
        name: "element not an object", json: #"{"Category": [\#(food), 3]}"#, path: "Category[1]",
        rule: "expected a Category object, found the number 3"),
    BrokenFixture(
        name: "unknown key", json: #"{"Transaction": [\#(transaction(#", "amout": "2""#))]}"#,
        path: "Transaction[0].amout",
        rule: "Transaction has no property amout (did you mean amount?)"),
    BrokenFixture(
        name: "decimal of the wrong type",
        json:
            #"{"Transaction": [\#(transaction("")), \#(transaction("", ref: "t2", id: 2).replacingOccurrences(of: #""1.00""#, with: "true"))]}"#,
        path: "Transaction[1].amount",
        rule: "Transaction.amount has type decimal: expected a decimal as a string"),
    BrokenFixture(
        name: "date not ISO 8601",
        json:
            #"{"Transaction": [\#(transaction("").replacingOccurrences(of: "2024-01-01T00:00:00Z", with: "yesterday"))]}"#,
        path: "Transaction[0].date", rule: "expected an ISO 8601 date string"),
    BrokenFixture(
        name: "impossible date",
        json:
            #"{"Transaction": [\#(transaction("").replacingOccurrences(of: "2024-01-01T00:00:00Z", with: "2023-02-29"))]}"#,
        path: "Transaction[0].date", rule: "found the string \"2023-02-29\""),
    BrokenFixture(
        name: "bad UUID", json: #"{"Category": [{"id": "nope", "name": "x"}]}"#,
        path: "Category[0].id",
        rule: "Category.id has type uuid: expected a UUID string, found the string \"nope\""),
    BrokenFixture(
        name: "integer out of range", model: "AllTypes", json: #"{"Sample": [{"small": 40000}]}"#,
        path: "Sample[0].small",
        rule: "expected an integer in -32768...32767, found the number 40000"),
    BrokenFixture(
        name: "reference not a string", json: #"{"Category": [{"_ref": 7}]}"#,
        path: "Category[0]._ref",
        rule: "expected a non-empty string, found the number 7"),
    BrokenFixture(
        name: "to-one given an array",
        json:
            #"{"Category": [\#(food)], "Transaction": [\#(transaction(#", "category": ["food"]"#))]}"#,
        path: "Transaction[0].category",
        rule: "expected the _ref string of a Category or null, found an array"),
    BrokenFixture(
        name: "to-many given a string", json: #"{"Category": [{"transactions": "t1"}]}"#,
        path: "Category[0].transactions",
        rule: "expected an array of _ref strings, found the string \"t1\""),
    BrokenFixture(
        name: "dangling reference",
        json:
            #"{"Category": [\#(food)], "Transaction": [\#(transaction(#", "category": "fod""#))]}"#,
        path: "Transaction[0].category", rule: "no object has _ref \"fod\" (did you mean food?)"),
    BrokenFixture(
        name: "reference to the wrong entity",
        json:
            #"{"Transaction": [\#(transaction("")), \#(transaction(#", "category": "t1""#, ref: "t2", id: 2))]}"#,
        path: "Transaction[1].category",
        rule:
            "\"t1\" is a Transaction (Transaction[0]); Transaction.category holds Category objects"),
    BrokenFixture(
        name: "duplicate reference", json: #"{"Category": [\#(food), \#(food)]}"#,
        path: "Category[1]._ref",
        rule: "the _ref \"food\" is already used by Category[0]"),
    BrokenFixture(
        name: "reference listed twice",
        json:
            #"{"Category": [{"_ref": "c", "transactions": ["t1", "t1"]}], "Transaction": [\#(transaction(""))]}"#,
        path: "Category[0].transactions[1]", rule: "\"t1\" is listed twice"),
    BrokenFixture(
        name: "abstract entity", model: "Library", json: #"{"Item": []}"#, path: "Item",
        rule: "Item is abstract; list its objects under a concrete subentity (Book, Film)"),
    BrokenFixture(
        name: "transient attribute", model: "AllTypes", json: #"{"Sample": [{"scratch": 1}]}"#,
        path: "Sample[0].scratch", rule: "Sample.scratch is transient"),
    BrokenFixture(
        name: "derived attribute", model: "AllTypes", json: #"{"Sample": [{"nicknameLength": 1}]}"#,
        path: "Sample[0].nicknameLength", rule: "Sample.nicknameLength is derived"),
    BrokenFixture(
        name: "sides that disagree",
        json:
            #"{"Category": [\#(food), {"_ref": "travel", "id": "0B8E4C1A-9F3D-4A2B-B6C7-D8E9F0A1B2C3", "name": "Travel", "transactions": ["t1"]}], "Transaction": [\#(transaction(#", "category": "food""#))]}"#,
        path: "Category[1].transactions",
        rule: "(see Transaction[0].category); both sides of a relationship must agree"),
    BrokenFixture(
        name: "number below its minimum",
        json:
            #"{"Transaction": [\#(transaction("").replacingOccurrences(of: #""1.00""#, with: #""0""#))]}"#,
        code: 1620, path: "Transaction[0].amount",
        rule: "Transaction.amount must be at least 0.01; got 0"),
    BrokenFixture(
        name: "missing mandatory value",
        json: #"{"Category": [{"id": "6F1C2B9E-3D4A-4E5F-8A7B-1C2D3E4F5A60"}]}"#,
        code: 1570, path: "Category[0].name", rule: "Category.name is required"),
    BrokenFixture(
        name: "pattern",
        json:
            #"{"Category": [{"id": "6F1C2B9E-3D4A-4E5F-8A7B-1C2D3E4F5A60", "name": "x", "colorHex": "red"}]}"#,
        code: 1680, path: "Category[0].colorHex",
        rule: "Category.colorHex must match ^#[0-9A-Fa-f]{6}$; got \"red\""),
    BrokenFixture(
        name: "uniqueness constraint",
        json:
            #"{"Category": [\#(food), {"id": "0B8E4C1A-9F3D-4A2B-B6C7-D8E9F0A1B2C3", "name": "Food"}]}"#,
        code: 133021, path: "Category[0].name",
        rule:
            #"Category(name) name = "Food": new Category Category[0] and new Category Category[1]"#
    ),
]

@Suite struct FixtureLoaderErrorTests {
    @Test(arguments: brokenFixtures)
    func aBrokenFixtureNamesFilePathAndRuleAndLoadsNothing(_ broken: BrokenFixture) throws {
        let model = try ProjectFixtures.model(broken.model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let error = objectGraphError {
            try FixtureLoader(model: model).load(
                FixtureSource(data: Data(broken.json.utf8), name: "bad.json"), into: coordinator)
        }
        let e = try #require(error)
        #expect(e.code == broken.code)
        #expect(e.file == "bad.json")
        if let path = broken.path {
            #expect(e.message.hasPrefix("fixture bad.json at \(path): "), "message: \(e.message)")
        } else {
            #expect(e.message.hasPrefix("fixture bad.json"), "message: \(e.message)")
        }
        #expect(e.message.contains(broken.rule), "message: \(e.message)")
        let stored =
            try coordinator.persistentStores[0].count(StoreFetchRequest(entity: model.entities[0]))
            + model.entities.dropFirst().reduce(0) {
                $0
                    + ((try? coordinator.persistentStores[0].count(StoreFetchRequest(entity: $1)))
                        ?? 0)
            }
        #expect(stored == 0, "nothing is loaded")
    }

    @Test func severalValidationFailuresComeTogetherEachWithItsPath() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let json =
            #"{"Category": [{"id": "6F1C2B9E-3D4A-4E5F-8A7B-1C2D3E4F5A60", "name": ""}], "Transaction": [\#(transaction("").replacingOccurrences(of: #""1.00""#, with: #""-3""#))]}"#
        let e = try #require(
            objectGraphError {
                try FixtureLoader(model: model).load(
                    FixtureSource(data: Data(json.utf8), name: "two.json"), into: coordinator)
            })
        #expect(e.reason == .multipleValidationErrors)
        let messages = e.underlying.map(\.message).sorted()
        #expect(messages.count == 2)
        #expect(
            messages[0].hasPrefix(
                "fixture two.json at Category[0].name: Category.name must have at least 1 character"
            ))
        #expect(
            messages[1].hasPrefix(
                "fixture two.json at Transaction[0].amount: Transaction.amount must be at least 0.01"
            ))
        #expect(e.underlying.allSatisfy { $0.file == "two.json" })
        #expect(e.message.contains("at Category[0].name"))
        #expect((e as NSError).code == 1560)
    }

    @Test func anErrorInTheSecondFileNamesThatFile() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let first = FixtureSource(data: Data(#"{"Category": [\#(food)]}"#.utf8), name: "a.json")
        let second = FixtureSource(data: Data(#"{"Category": [\#(food)]}"#.utf8), name: "b.json")
        let e = try #require(
            objectGraphError {
                try FixtureLoader(model: model).load([first, second], into: coordinator)
            })
        #expect(e.file == "b.json")
        #expect(
            e.message
                == "fixture b.json at Category[0]._ref: the _ref \"food\" is already used by Category[0] in a.json; "
                + "each _ref must be unique in the fixture set")
    }

    @Test func anUnreadableFileIsAnError() {
        let e = objectGraphError {
            _ = try FixtureSource(contentsOf: URL(fileURLWithPath: "/nonexistent/fixture.json"))
        }
        #expect(e?.reason == .fixtureUnreadable)
        #expect(e?.file == "/nonexistent/fixture.json")
    }

    @Test func checkFindsFormatErrorsWithoutAStore() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let loader = FixtureLoader(model: model)
        #expect(throws: Never.self) {
            try loader.check([FixtureSource(contentsOf: ProjectFixtures.fixtureURL("expenses"))])
        }
        let e = objectGraphError {
            try loader.check([FixtureSource(data: Data(#"{"Nope": []}"#.utf8))])
        }
        #expect(e?.message == "fixture at Nope: the model has no entity Nope")
    }
}
