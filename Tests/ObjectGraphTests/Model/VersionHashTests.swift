import Foundation
import Testing

@testable import ObjectGraph

@Suite struct VersionHashTests {
    private static func hex(_ data: Data?) -> String {
        (data ?? Data()).map { String(format: "%02x", $0) }.joined()
    }

    private static func hashes(_ entities: [EntityDescription]) throws -> [String: Data] {
        try ManagedObjectModel(entities: entities).entityVersionHashesByName
    }

    @Test func expenseModelHashesArePinned() throws {
        let model = try ManagedObjectModel(entities: ModelFixtures.expenseEntities())
        // Pinned so that a change to the hashing (which would orphan every store) is noticed.
        #expect(
            Self.hex(model.entityVersionHashesByName["Category"])
                == "caac6587bfd8cf3a8a663859958d2b1e3cfc824a9bccbef1e0bf31ac53e96e8a")
        #expect(
            Self.hex(model.entityVersionHashesByName["Transaction"])
                == "956cba3989b41d92c850226bbb4acc2eedd717c1e95128983a427f191a8c9e44")
        #expect(
            Self.hex(model.versionHash)
                == "faa783cd6bcd7dc3d79c464579991c5454fdeafa1fa3aac1f95b16597cec412a")
    }

    @Test func hashesFollowTheDocumentedBytes() throws {
        func str(_ s: String) -> [UInt8] {
            let n = UInt32(s.utf8.count)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
                + Array(s.utf8)
        }
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(
                        name: "text", type: .string, isOptional: false, versionHashModifier: "m")
                ])
        ])
        let attributeBytes =
            str("objectgraph.attribute/1") + str("text") + [0, 0] + str("string") + [1] + str("m")
        let attributeHash = SHA256.hash(attributeBytes)
        #expect(model[entityName: "Note"]?.propertiesByName["text"]?.versionHash == attributeHash)
        let entityBytes =
            str("objectgraph.entity/1") + str("Note") + [0, 0] + [0, 0, 0, 1] + Array(attributeHash)
            + [0]
        let entityHash = SHA256.hash(entityBytes)
        #expect(model.entityVersionHashesByName == ["Note": entityHash])
        #expect(
            model.versionHash
                == SHA256.hash(
                    str("objectgraph.model/1") + [0, 0, 0, 1] + str("Note") + Array(entityHash)))
    }

    @Test func everyEntityAndPropertyHasA32ByteHash() throws {
        let model = try ModelFixtures.richModel()
        #expect(model.entityVersionHashesByName.count == model.entities.count)
        for entity in model.entities {
            #expect(
                entity.versionHash.count == 32
                    && model.entityVersionHashesByName[entity.name] == entity.versionHash)
            #expect(entity.properties.allSatisfy { $0.versionHash.count == 32 })
        }
        #expect(Set(model.entityVersionHashesByName.values).count == model.entities.count)
    }

    @Test func defaultsValidationUserInfoClassAndRenamingDoNotChangeHashes() throws {
        let base = try Self.hashes(ModelFixtures.richEntities())
        #expect(try Self.hashes(ModelFixtures.richEntities(amountMin: 5)) == base)
        #expect(try Self.hashes(ModelFixtures.richEntities(colorDefault: "#000000")) == base)
        let plain = ModelFixtures.expenseEntities()
        let decorated = [
            EntityDescription(
                name: "Category", managedObjectClassName: "MyCategory",
                properties: [
                    AttributeDescription(
                        name: "id", type: .uuid, isOptional: false,
                        defaultValue: .uuid(ModelFixtures.fixedID)),
                    AttributeDescription(
                        name: "name", type: .string, isOptional: false, minLength: 2, maxLength: 9,
                        userInfo: ["k": "v"], renamingIdentifier: "title"),
                    AttributeDescription(
                        name: "colorHex", type: .string, isOptional: false, defaultValue: "#000000",
                        pattern: "^#.*$", isIndexed: true),
                    RelationshipDescription(
                        name: "transactions", destination: "Transaction", inverse: "category",
                        isToMany: true, maxCount: 3, deleteRule: .cascade),
                ], uniquenessConstraints: [], userInfo: ["a": "b"], renamingIdentifier: "Group"),
            EntityDescription(
                name: "Transaction",
                properties: [
                    AttributeDescription(name: "note", type: .string),
                    AttributeDescription(name: "date", type: .date, isOptional: false),
                    AttributeDescription(
                        name: "amount", type: .decimal, isOptional: false, minValue: 1, maxValue: 2),
                    AttributeDescription(name: "id", type: .uuid, isOptional: false),
                    RelationshipDescription(
                        name: "category", destination: "Category", inverse: "transactions",
                        deleteRule: .deny),
                ]),
        ]
        #expect(
            try Self.hashes(decorated) == Self.hashes(plain),
            "property order, rules and metadata are not inputs")
    }

    @Test(arguments: [
        "optional", "type", "transient", "name", "modifier", "superentity", "abstract",
        "toMany", "ordered", "destination", "relationshipOptional",
    ])
    func schemaChangesChangeTheHash(change: String) throws {
        func entities(_ change: String?) -> [EntityDescription] {
            [
                EntityDescription(name: "Base", properties: []),
                EntityDescription(name: "Other", properties: []),
                EntityDescription(
                    name: "Item", isAbstract: change == "abstract",
                    superentityName: change == "superentity" ? "Base" : nil,
                    properties: [
                        AttributeDescription(
                            name: change == "name" ? "title2" : "title",
                            type: change == "type" ? .binaryData : .string,
                            isOptional: change != "optional", isTransient: change == "transient",
                            versionHashModifier: change == "modifier" ? "2" : nil),
                        RelationshipDescription(
                            name: "links", destination: change == "destination" ? "Other" : "Base",
                            isToMany: change != "toMany", isOrdered: change == "ordered",
                            isOptional: change != "relationshipOptional"),
                    ]),
            ]
        }
        let before = try Self.hashes(entities(nil))
        let after = try Self.hashes(entities(change))
        #expect(before["Item"] != after["Item"])
        #expect(before["Other"] == after["Other"])
    }

    @Test func superentityChangesReachSubentities() throws {
        let v1 = try Self.hashes(ModelFixtures.richEntities())
        let entities = ModelFixtures.richEntities()
        let named = EntityDescription(
            name: "Named", isAbstract: true,
            properties: [
                AttributeDescription(name: "name", type: .string, isOptional: true)
            ], versionHashModifier: "v2")
        let v2 = try Self.hashes([named] + entities.dropFirst())
        #expect(v1["Named"] != v2["Named"])
        #expect(v1["Category"] != v2["Category"])
        #expect(v1["Transaction"] == v2["Transaction"])
    }

    @Test func compatibilityComparesEveryEntityHash() throws {
        let model = try ModelFixtures.richModel()
        let same = try ModelFixtures.richModel()
        #expect(model.isCompatible(withVersionHashes: same.entityVersionHashesByName))
        let changed = try ManagedObjectModel(
            entities: ModelFixtures.richEntities(noteOptional: false))
        #expect(!model.isCompatible(withVersionHashes: changed.entityVersionHashesByName))
        var missing = model.entityVersionHashesByName
        missing["Tag"] = nil
        #expect(!model.isCompatible(withVersionHashes: missing))
        var extra = model.entityVersionHashesByName
        extra["Ghost"] = Data(count: 32)
        #expect(!model.isCompatible(withVersionHashes: extra))
        let retyped = try ManagedObjectModel(
            entities: ModelFixtures.richEntities(noteType: .binaryData))
        #expect(retyped.versionHash != model.versionHash)
    }
}
