import Foundation
import ObjectGraph
import Testing

@Suite struct AttributeTypeTests {
    /// Core Data's `NSAttributeType` raw values (CoreData's `NSAttributeDescription.h`;
    /// FreeCoreData's Apple-run `testTransformableAttributeDescriptionAPI` asserts 1800).
    @Test func coreDataNumbersMatchNSAttributeType() {
        let expected: [(AttributeType, UInt)] = [
            (.undefined, 0), (.integer16, 100), (.integer32, 200), (.integer64, 300),
            (.decimal, 400), (.double, 500), (.float, 600), (.string, 700), (.boolean, 800),
            (.date, 900), (.binaryData, 1000), (.uuid, 1100), (.uri, 1200),
            (.transformable, 1800), (.objectID, 2000),
        ]
        #expect(expected.count == AttributeType.allCases.count)
        for (type, number) in expected {
            #expect(type.coreDataRawValue == number, "\(type)")
            #expect(AttributeType(coreDataRawValue: number) == type, "\(number)")
        }
        #expect(AttributeType(coreDataRawValue: 2100) == nil)  // composite
        #expect(AttributeType(coreDataRawValue: 150) == nil)
    }

    /// The string raw values stay: the JSON model format and version hashes spell types so.
    @Test func stringRawValuesAreKept() {
        #expect(AttributeType.integer16.rawValue == "integer16")
        #expect(AttributeType.binaryData.rawValue == "binaryData")
        #expect(AttributeType(rawValue: "transformable") == .transformable)
    }

    /// `objectID` is an expression result type, never an attribute's type.
    @Test func objectIDIsNotAnAttributeType() throws {
        #expect(throws: ObjectGraphError.self) {
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "A", properties: [AttributeDescription(name: "x", type: .objectID)])
            ])
        }
        let json =
            #"{"format":"objectgraph-model/1","entities":[{"name":"A","properties":"#
            + #"[{"kind":"attribute","name":"x","type":"objectID"}]}]}"#
        #expect(throws: ObjectGraphError.self) {
            try ManagedObjectModel(jsonData: Data(json.utf8))
        }
    }
}
