import Foundation
import Testing

@testable import ObjectGraph

final class JSONCategory: ManagedObject {}
final class JSONTransaction: ManagedObject {}

@Suite struct ModelJSONTests {
    @Test func richModelRoundTripsToIdenticalBytesAndHashes() throws {
        let model = try ModelFixtures.richModel()
        let data = model.jsonData()
        let copy = try ManagedObjectModel(jsonData: data)
        #expect(copy.jsonData() == data)
        #expect(copy.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(copy.versionHash == model.versionHash)
        #expect(copy.configurations == model.configurations)
        #expect(copy.versionIdentifiers == ["1.0", "beta"])
        #expect(copy.fetchRequestTemplatesByName == model.fetchRequestTemplatesByName)
        #expect(copy.fetchRequestTemplatesByName.count == 2)
    }

    @Test func everyFieldSurvivesTheRoundTrip() throws {
        let model = try ModelFixtures.richModel()
        let copy = try ManagedObjectModel(jsonData: model.jsonData())
        #expect(ModelComparison.differences(model, copy) == [])
        for entity in model.entities {
            #expect(
                copy[entityName: entity.name]?.properties.map(\.name)
                    == entity.properties.map(\.name))
            #expect(copy[entityName: entity.name]?.index == entity.index)
        }
    }

    @Test func comparisonNoticesADifferentLimit() throws {
        let a = try ManagedObjectModel(entities: ModelFixtures.richEntities())
        let b = try ManagedObjectModel(entities: ModelFixtures.richEntities(amountMin: 0.02))
        let differences = ModelComparison.differences(a, b)
        #expect(
            differences.count == 1
                && differences.first?.hasPrefix("Transaction.amount.minValue: ") == true,
            "\(differences)")
    }

    @Test func compactFormIsOneLineAndPrettyFormReadsTheSame() throws {
        let model = try ModelFixtures.richModel()
        let compact = model.jsonData()
        #expect(!compact.contains(UInt8(ascii: "\n")))
        let pretty = model.jsonData(pretty: true)
        #expect(pretty.contains(UInt8(ascii: "\n")))
        #expect(try ManagedObjectModel(jsonData: pretty).jsonData() == compact)
    }

    @Test func valuesAreWrittenInTheDocumentedForms() throws {
        let text = String(decoding: try ModelFixtures.richModel().jsonData(), as: UTF8.self)
        #expect(
            text.hasPrefix(
                #"{"configurations":{"Ledger":["Category","Transaction","Tag"]},"entities":["#))
        #expect(text.contains(#""minValue":"0.01""#))
        #expect(text.contains(#""maxValue":"99999999999999999999.99""#))
        #expect(text.contains(#""defaultValue":"-0""#))
        #expect(text.contains(#""defaultValue":"NaN""#))
        #expect(text.contains(#""maxValue":"Infinity""#))
        #expect(text.contains(#""minValue":"-Infinity""#))
        #expect(text.contains(#""defaultValue":0.1,"#))
        #expect(text.contains(#""defaultValue":0.3333333333333333,"#))
        #expect(text.contains(#""defaultValue":-9223372036854775808,"#))
        #expect(text.contains(#""minValue":0.1,"#), "dates: seconds since 1970")
        #expect(text.contains(#""defaultValue":"AAEC/w==""#))
        #expect(text.contains(#""defaultValue":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#))
        #expect(text.contains(#""defaultValue":{"type":"double","value":3.5}"#))
        #expect(text.contains(#""format":"objectgraph-model/1""#))
        #expect(!text.contains(#""isOptional":true"#), "defaults are left out")
    }

    @Test func datesKeepTheirExactInterval() throws {
        let intervals: [Double] = [
            700_000_000.123_456_7, -978_307_199.9, 1e-300, -1.5e-5, 4e15, 0.1, -0.0,
        ]
        for interval in intervals {
            let date = Date(timeIntervalSinceReferenceDate: interval)
            let json = AttributeValue.date(date).modelJSON(for: .date)
            let back = AttributeValue.fromModelJSON(json, type: .date)
            guard case .date(let d)? = back else {
                Issue.record("no date for \(interval)")
                continue
            }
            #expect(d.timeIntervalSinceReferenceDate == interval, "\(interval) → \(json)")
        }
        #expect(
            AttributeValue.date(Date(timeIntervalSince1970: 0)).modelJSON(for: .date)
                == .number("0"))
    }

    @Test func classResolverChoosesTheSubclass() throws {
        let data = try ModelFixtures.richModel().jsonData()
        let model = try ManagedObjectModel(jsonData: data) { name in
            ["Category": JSONCategory.self, "Transaction": JSONTransaction.self][name]
        }
        #expect(model[entityName: "Category"]?.managedObjectClass == JSONCategory.self)
        #expect(model[entityName: "Transaction"]?.managedObjectClass == JSONTransaction.self)
        #expect(model[entityName: "Tag"]?.managedObjectClass == ManagedObject.self)
        let plain = try ManagedObjectModel(jsonData: data)
        #expect(plain[entityName: "Category"]?.managedObjectClass == ManagedObject.self)
        #expect(plain[entityName: "Category"]?.managedObjectClassName == "Category")
    }

    @Test func handWrittenJSONWithNumbersForDecimalsReads() throws {
        let json = #"""
            {"format": "objectgraph-model/1", "entities": [
              {"name": "Item", "properties": [
                {"kind": "attribute", "name": "price", "type": "decimal", "minValue": 0.01, "defaultValue": "1.10"},
                {"kind": "attribute", "name": "id", "type": "uuid", "isOptional": false}]}]}
            """#
        let model = try ManagedObjectModel(jsonData: Data(json.utf8))
        let price = model[entityName: "Item"]?.attributesByName["price"]
        #expect(price?.minValue == .decimal(Decimal(string: "0.01")!))
        #expect(price?.defaultValue == .decimal(Decimal(string: "1.1")!))
        #expect(model[entityName: "Item"]?.attributesByName["id"]?.isOptional == false)
    }

    static let badDocuments: [(String, String)] = [
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A"},{"name":"B","properties":[{"kind":"attribute","name":"x","type":"string"},{"kind":"attribute","name":"y","type":"int"}]}]}"#,
            "entities[1].properties[1].type (B.y): expected one of integer16"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"attribute","name":"n","type":"integer16","defaultValue":70000}]}]}"#,
            "entities[0].properties[0].defaultValue (A.n): expected an integer in -32768...32767, found the number 70000"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"attribute","name":"d","type":"decimal","minValue":"0.0.1"}]}]}"#,
            "entities[0].properties[0].minValue (A.d): expected a decimal number as a string"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"attribute","name":"d","type":"decimal","minValue":"1234567890123456789012345678901234567891"}]}]}"#,
            "entities[0].properties[0].minValue (A.d): expected a decimal"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"attribute","name":"x","type":"string","optinal":false}]}]}"#,
            "entities[0].properties[0].optinal (A.x): expected one of the keys"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"relationship","name":"b","destination":"B","deleteRule":"destroy"}]}]}"#,
            "entities[0].properties[0].deleteRule (A.b): expected one of nullify, cascade, deny, noAction"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"fetched","name":"b"}]}]}"#,
            "entities[0].properties[0].kind (A.b): expected \"attribute\" or \"relationship\""
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"attribute","type":"string"}]}]}"#,
            "entities[0].properties[0].name (A): expected a string, found nothing"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","isAbstract":"yes"}]}"#,
            "entities[0].isAbstract (A): expected true or false"
        ),
        (
            #"{"format":"objectgraph-model/2","entities":[]}"#,
            "format: expected \"objectgraph-model/1\""
        ),
        (#"{"entities":[]}"#, "format: expected \"objectgraph-model/1\", found nothing"),
        (#"[1]"#, "(root): expected an object, found an array"),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","indexes":[{"name":"i","elements":[{"property":"x","collationType":"btree"}]}]}]}"#,
            "entities[0].indexes[0].elements[0].collationType (A): expected \"binary\" or \"rTree\""
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[],"fetchRequestTemplates":[{"name":"t","entityName":"A","resultType":"rows"}]}"#,
            "fetchRequestTemplates[0].resultType: expected one of managedObject, managedObjectID, dictionary, count"
        ),
        (
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":[{"kind":"relationship","name":"b","destination":"Nope"}]}]}"#,
            "A.b points to unknown entity Nope"
        ),
    ]

    @Test(arguments: badDocuments)
    func badDocumentNamesTheJSONPath(document: String, message: String) {
        let error = ModelFixtures.error {
            _ = try ManagedObjectModel(jsonData: Data(document.utf8))
        }
        // The last document is well-formed but its model breaks a rule of models.
        let reason: ObjectGraphError.Reason =
            message.hasSuffix("unknown entity Nope") ? .unknownDestination : .invalidModelJSON
        #expect(error?.reason == reason)
        #expect(error?.message.contains(message) == true, "message: \(error?.message ?? "none")")
    }

    @Test(arguments: [
        (
            "{\n  \"format\": \"objectgraph-model/1\",\n  \"entities\": [,]\n}", 3, 16,
            "a JSON value"
        ),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "a key not already in this object"),
        ("{\"a\": \"x\ty\"}", 1, 9, "an escape"),
        ("{\"a\": 01}", 1, 8, "',' or '}' in an object"),
        ("{\"é\": tru}", 1, 7, "'true'"),
        ("", 1, 1, "a JSON value"),
        ("{} x", 1, 4, "the end of the document"),
        (String(repeating: "[", count: 300), 1, 257, "at most 256 nested"),
    ])
    func syntaxErrorNamesLineAndColumn(document: String, line: Int, column: Int, expected: String) {
        let error = ModelFixtures.error {
            _ = try ManagedObjectModel(jsonData: Data(document.utf8))
        }
        #expect(error?.reason == .jsonSyntax)
        #expect(error?.line == line && error?.column == column, "\(error?.message ?? "none")")
        #expect(error?.message.contains(expected) == true, "message: \(error?.message ?? "none")")
    }

    @Test func parserKeepsNumbersAsTextAndDecodesEscapes() throws {
        let value = try JSONParser.parse(
            Data(#"{"n": -12.50e+3, "s": "a\u00e9\ud83d\ude00\n\/"}"#.utf8))
        #expect(value == .object(["n": .number("-12.50e+3"), "s": .string("aé😀\n/")]))
        #expect(JSONValue.string("a\u{1}\"\\/é").serialized() == #""a\u0001\"\\/é""#)
    }
}
