import Foundation
import Testing

@testable import ObjectGraph

/// One model that must fail to build, and the entity and key its error must name.
struct BadModel: Sendable, CustomTestStringConvertible {
    let rule: String
    let entity: String
    let key: String?
    let configurations: [String: [String]]
    let entities: @Sendable () -> [EntityDescription]

    init(
        _ rule: String, _ entity: String, _ key: String?, configurations: [String: [String]] = [:],
        _ entities: @escaping @Sendable () -> [EntityDescription]
    ) {
        self.rule = rule
        self.entity = entity
        self.key = key
        self.configurations = configurations
        self.entities = entities
    }

    var testDescription: String { rule }
}

private func entity(
    _ name: String, super superName: String? = nil, abstract: Bool = false,
    constraints: [[String]] = [], _ properties: [PropertyDescription]
) -> EntityDescription {
    EntityDescription(
        name: name, isAbstract: abstract, superentityName: superName, properties: properties,
        uniquenessConstraints: constraints)
}

private func attr(
    _ name: String, _ type: AttributeType, _ configure: (inout AttributeSpec) -> Void = { _ in }
)
    -> AttributeDescription
{
    var spec = AttributeSpec()
    configure(&spec)
    return AttributeDescription(
        name: name, type: type, isTransient: spec.transient, defaultValue: spec.defaultValue,
        minValue: spec.min, maxValue: spec.max, minLength: spec.minLength,
        maxLength: spec.maxLength, pattern: spec.pattern,
        allowsExternalBinaryDataStorage: spec.external, derivationExpression: spec.derivation)
}

private struct AttributeSpec {
    var transient = false
    var defaultValue: AttributeValue = .null
    var min: AttributeValue?
    var max: AttributeValue?
    var minLength: Int?
    var maxLength: Int?
    var pattern: String?
    var external = false
    var derivation: String?
}

private func rel(
    _ name: String, _ destination: String, inverse: String? = nil, toMany: Bool = false,
    ordered: Bool = false, optional: Bool = true, min: Int = 0, max: Int = 0
) -> RelationshipDescription {
    RelationshipDescription(
        name: name, destination: destination, inverse: inverse, isToMany: toMany,
        isOrdered: ordered, isOptional: optional, minCount: min, maxCount: max)
}

@Suite struct ModelCheckingTests {
    static let badModels: [BadModel] = [
        BadModel("duplicate entity", "A", nil) { [entity("A", []), entity("A", [])] },
        BadModel("invalid entity name", "Bad Name", nil) { [entity("Bad Name", [])] },
        BadModel("invalid property name", "A", "first.name") {
            [entity("A", [attr("first.name", .string)])]
        },
        BadModel("duplicate property", "A", "x") {
            [entity("A", [attr("x", .string), attr("x", .integer16)])]
        },
        BadModel("property redeclared from superentity", "B", "x") {
            [entity("A", [attr("x", .string)]), entity("B", super: "A", [attr("x", .string)])]
        },
        BadModel("unknown superentity", "B", nil) { [entity("B", super: "Nope", [])] },
        BadModel("inheritance cycle", "A", nil) {
            [entity("A", super: "B", []), entity("B", super: "A", [])]
        },
        BadModel("unknown destination", "A", "b") { [entity("A", [rel("b", "Missing")])] },
        BadModel("inverse missing on destination", "A", "b") {
            [entity("A", [rel("b", "B", inverse: "a")]), entity("B", [])]
        },
        BadModel("inverse points elsewhere", "A", "b") {
            [
                entity("A", [rel("b", "B", inverse: "c")]), entity("B", [rel("c", "C")]),
                entity("C", []),
            ]
        },
        BadModel("inverse names another relationship", "A", "b") {
            [
                entity("A", [rel("b", "B", inverse: "a"), rel("other", "B")]),
                entity("B", [rel("a", "A", inverse: "other")]),
            ]
        },
        BadModel("inverse already claimed", "A", "second") {
            [
                entity("A", [rel("first", "B", inverse: "a"), rel("second", "B", inverse: "a")]),
                entity("B", [rel("a", "A")]),
            ]
        },
        BadModel("constraint on missing attribute", "A", "nope") {
            [entity("A", constraints: [["nope"]], [])]
        },
        BadModel("constraint on transient", "A", "t") {
            [entity("A", constraints: [["t"]], [attr("t", .string) { $0.transient = true }])]
        },
        BadModel("constraint on to-many", "A", "bs") {
            [entity("A", constraints: [["bs"]], [rel("bs", "B", toMany: true)]), entity("B", [])]
        },
        BadModel("constraint naming a key twice", "A", "x") {
            [entity("A", constraints: [["x", "x"]], [attr("x", .string)])]
        },
        BadModel("undefined type stored", "A", "x") { [entity("A", [attr("x", .undefined)])] },
        BadModel("default not fitting the type", "A", "count") {
            [entity("A", [attr("count", .integer16) { $0.defaultValue = 70_000 }])]
        },
        BadModel("string default on a uuid", "A", "id") {
            [entity("A", [attr("id", .uuid) { $0.defaultValue = "not-a-uuid" }])]
        },
        BadModel("limit not fitting the type", "A", "amount") {
            [entity("A", [attr("amount", .decimal) { $0.min = "abc" }])]
        },
        BadModel("value limit on a string", "A", "name") {
            [entity("A", [attr("name", .string) { $0.min = 1 }])]
        },
        BadModel("minValue above maxValue", "A", "amount") {
            [
                entity(
                    "A",
                    [
                        attr("amount", .decimal) {
                            $0.min = 10
                            $0.max = 0.5
                        }
                    ])
            ]
        },
        BadModel("min date after max date", "A", "when") {
            [
                entity(
                    "A",
                    [
                        attr("when", .date) {
                            $0.min = 100
                            $0.max = 50
                        }
                    ])
            ]
        },
        BadModel("NaN limit", "A", "ratio") {
            [entity("A", [attr("ratio", .double) { $0.max = .double(.nan) }])]
        },
        BadModel("length limit on a number", "A", "n") {
            [entity("A", [attr("n", .integer32) { $0.maxLength = 3 }])]
        },
        BadModel("negative length", "A", "s") {
            [entity("A", [attr("s", .string) { $0.minLength = -1 }])]
        },
        BadModel("minLength above maxLength", "A", "s") {
            [
                entity(
                    "A",
                    [
                        attr("s", .string) {
                            $0.minLength = 5
                            $0.maxLength = 2
                        }
                    ])
            ]
        },
        BadModel("bad regular expression", "A", "s") {
            [entity("A", [attr("s", .string) { $0.pattern = "([a-z" }])]
        },
        BadModel("external storage on a string", "A", "s") {
            [entity("A", [attr("s", .string) { $0.external = true }])]
        },
        BadModel("empty derivation", "A", "d") {
            [entity("A", [attr("d", .integer64) { $0.derivation = " " }])]
        },
        BadModel("transient derived attribute", "A", "d") {
            [
                entity(
                    "A",
                    [
                        attr("d", .integer64) {
                            $0.derivation = "x"
                            $0.transient = true
                        }
                    ])
            ]
        },
        BadModel("minCount above maxCount", "A", "bs") {
            [entity("A", [rel("bs", "B", toMany: true, min: 5, max: 2)]), entity("B", [])]
        },
        BadModel("negative count", "A", "bs") {
            [entity("A", [rel("bs", "B", toMany: true, min: -1)]), entity("B", [])]
        },
        BadModel("to-one with counts", "A", "b") {
            [entity("A", [rel("b", "B", max: 1)]), entity("B", [])]
        },
        BadModel("ordered to-one", "A", "b") {
            [entity("A", [rel("b", "B", ordered: true)]), entity("B", [])]
        },
        BadModel("fetched property with unknown destination", "A", "f") {
            [entity("A", [FetchedPropertyDescription(name: "f", destination: "Nope")])]
        },
        BadModel("fetched property named like an attribute", "A", "x") {
            [
                EntityDescription(
                    name: "A", properties: [attr("x", .string)],
                    fetchedProperties: [FetchedPropertyDescription(name: "x", destination: "A")])
            ]
        },
        BadModel("attribute named like an inherited fetched property", "B", "f") {
            [
                EntityDescription(
                    name: "A",
                    fetchedProperties: [FetchedPropertyDescription(name: "f", destination: "A")]),
                entity("B", super: "A", [attr("f", .string)]),
            ]
        },
        BadModel("index on a missing attribute", "A", "nope") {
            [
                EntityDescription(
                    name: "A",
                    indexes: [FetchIndexDescription(name: "i", elements: [.init(property: "nope")])]
                )
            ]
        },
        BadModel("index on a to-many", "A", "bs") {
            [
                EntityDescription(
                    name: "A", properties: [rel("bs", "A", toMany: true)],
                    indexes: [FetchIndexDescription(name: "i", elements: [.init(property: "bs")])])
            ]
        },
        BadModel("index on a transient", "A", "t") {
            [
                EntityDescription(
                    name: "A", properties: [attr("t", .string) { $0.transient = true }],
                    indexes: [FetchIndexDescription(name: "i", elements: [.init(property: "t")])])
            ]
        },
        BadModel("configuration with unknown entity", "", nil, configurations: ["Cloud": ["Nope"]])
        { [entity("A", [])] },
    ]

    /// The reason each rule of ``badModels`` is reported under.
    static let reasons: [String: ObjectGraphError.Reason] = [
        "duplicate entity": .duplicateEntity,
        "invalid entity name": .invalidName,
        "invalid property name": .invalidName,
        "duplicate property": .duplicateProperty,
        "property redeclared from superentity": .duplicateProperty,
        "unknown superentity": .invalidSuperentity,
        "inheritance cycle": .invalidSuperentity,
        "unknown destination": .unknownDestination,
        "fetched property with unknown destination": .unknownDestination,
        "fetched property named like an attribute": .duplicateProperty,
        "attribute named like an inherited fetched property": .duplicateProperty,
        "configuration with unknown entity": .invalidConfiguration,
        "inverse missing on destination": .invalidInverse,
        "inverse points elsewhere": .invalidInverse,
        "inverse names another relationship": .invalidInverse,
        "inverse already claimed": .invalidInverse,
        "constraint on missing attribute": .invalidConstraint,
        "constraint on transient": .invalidConstraint,
        "constraint on to-many": .invalidConstraint,
        "constraint naming a key twice": .invalidConstraint,
        "undefined type stored": .invalidAttribute,
        "default not fitting the type": .invalidAttribute,
        "string default on a uuid": .invalidAttribute,
        "limit not fitting the type": .invalidAttribute,
        "value limit on a string": .invalidAttribute,
        "minValue above maxValue": .invalidAttribute,
        "min date after max date": .invalidAttribute,
        "NaN limit": .invalidAttribute,
        "length limit on a number": .invalidAttribute,
        "negative length": .invalidAttribute,
        "minLength above maxLength": .invalidAttribute,
        "bad regular expression": .invalidAttribute,
        "external storage on a string": .invalidAttribute,
        "empty derivation": .invalidAttribute,
        "transient derived attribute": .invalidAttribute,
        "minCount above maxCount": .invalidRelationship,
        "negative count": .invalidRelationship,
        "to-one with counts": .invalidRelationship,
        "ordered to-one": .invalidRelationship,
        "index on a missing attribute": .invalidIndex,
        "index on a to-many": .invalidIndex,
        "index on a transient": .invalidIndex,
    ]

    @Test(arguments: badModels)
    func badModelThrowsNamingEntityAndProperty(_ bad: BadModel) {
        let entities = bad.entities()
        let error = ModelFixtures.error {
            _ = try ManagedObjectModel(entities: entities, configurations: bad.configurations)
        }
        #expect(error?.reason == Self.reasons[bad.rule], "\(error?.reason.name ?? "none")")
        #expect((error.map { $0 as NSError })?.code == 134060)
        if bad.entity.isEmpty {
            #expect(error?.message.contains("Nope") == true)
        } else {
            #expect(error?.entityName == bad.entity)
            #expect(error?.key == bad.key)
            let subject = bad.key.map { "\(bad.entity).\($0)" } ?? bad.entity
            #expect(
                error?.message.contains(subject) == true, "message: \(error?.message ?? "none")")
        }
    }

    @Test(arguments: badModels)
    func failedBuildLeavesDescriptionsUnlinked(_ bad: BadModel) throws {
        let entities = bad.entities()
        _ = try? ManagedObjectModel(entities: entities, configurations: bad.configurations)
        for e in entities {
            #expect(e.properties.isEmpty && e.superentity == nil && e.subentities.isEmpty)
            #expect(e.index == -1 && e.versionHash.isEmpty)
            #expect(
                e.ownProperties.allSatisfy {
                    $0.entity == nil && $0.index == -1 && $0.versionHash.isEmpty
                })
            #expect(
                e.fetchedProperties.isEmpty
                    && e.ownFetchedProperties.allSatisfy { $0.entity == nil })
        }
    }

    @Test func badIndexShapesAndTemplatesAreRefused() {
        let twice = ModelFixtures.error {
            _ = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "A", properties: [attr("x", .string)],
                    indexes: [
                        FetchIndexDescription(name: "i", elements: [.init(property: "x")]),
                        FetchIndexDescription(name: "i", elements: [.init(property: "x")]),
                    ])
            ])
        }
        #expect(
            twice?.reason == .invalidIndex
                && twice?.message.contains("A in fetch index 'i': the name is used twice") == true)
        let empty = ModelFixtures.error {
            _ = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "A", indexes: [FetchIndexDescription(name: "e", elements: [])])
            ])
        }
        #expect(empty?.message.contains("needs at least one element") == true)
        let unknown = ModelFixtures.error {
            _ = try ManagedObjectModel(
                entities: [entity("A", [])],
                fetchRequestTemplates: [FetchRequestTemplate(name: "t", entityName: "Nope")])
        }
        #expect(
            unknown?.reason == .invalidFetchRequestTemplate
                && unknown?.message.contains("template 't' fetches Nope, which is not in the model")
                    == true
        )
        let duplicate = ModelFixtures.error {
            _ = try ManagedObjectModel(
                entities: [entity("A", [])],
                fetchRequestTemplates: [
                    FetchRequestTemplate(name: "t", entityName: "A"),
                    FetchRequestTemplate(name: "t", entityName: "A"),
                ])
        }
        #expect(duplicate?.message.contains("template 't' is declared twice") == true)
    }

    @Test func fetchedPropertiesTakeNoSlotAndAreInherited() throws {
        let fetched = FetchedPropertyDescription(
            name: "peers", destination: "A", predicateFormat: "self != $FETCH_SOURCE")
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "A", properties: [attr("x", .string), fetched]),
            entity("B", super: "A", [attr("y", .string)]),
        ])
        let a = try #require(model[entityName: "A"])
        let b = try #require(model[entityName: "B"])
        #expect(
            a.properties.map(\.name) == ["x"] && a.ownFetchedProperties.map(\.name) == ["peers"])
        #expect(fetched.entity === a && fetched.index == -1 && fetched.destinationEntity === a)
        #expect(
            b.fetchedPropertiesByName["peers"] === fetched && b.properties.map(\.index) == [0, 1])
        #expect(model.loadWarnings.isEmpty)
    }

    @Test func abstractEntityWithoutConcreteSubentityIsAWarning() throws {
        let model = try ManagedObjectModel(entities: [
            entity("Shape", abstract: true, []), entity("Plain", []),
        ])
        #expect(
            model.loadWarnings == [
                "Shape is abstract and has no concrete subentity, so it can hold no objects"
            ])
    }

    /// Core Data builds such a model (and Xcode compiles it); only saving its objects fails.
    @Test func aMandatoryRelationshipToAnAbstractLeafIsAWarning() throws {
        let model = try ManagedObjectModel(entities: [
            entity(
                "A",
                [
                    rel("shape", "Shape", optional: false),
                    rel("shapes", "Shape", toMany: true, min: 1),
                ]),
            entity("Shape", abstract: true, []),
        ])
        #expect(
            model.loadWarnings == [
                "Shape is abstract and has no concrete subentity, so it can hold no objects",
                "A.shape is mandatory but its destination Shape is abstract with no concrete "
                    + "subentity, so no A can be saved",
                "A.shapes is mandatory but its destination Shape is abstract with no concrete "
                    + "subentity, so no A can be saved",
            ])
    }

    @Test func fixedDescriptionsBuildAfterAFailedAttempt() throws {
        let a = entity("A", [rel("b", "B")])
        #expect(throws: ObjectGraphError.self) { _ = try ManagedObjectModel(entities: [a]) }
        let model = try ManagedObjectModel(entities: [a, entity("B", [])])
        #expect(a.relationshipsByName["b"]?.destinationEntity === model[entityName: "B"])
    }

    @Test func goodModelLinksSlotsInheritanceAndInverses() throws {
        let model = try ModelFixtures.richModel()
        let category = try #require(model[entityName: "Category"])
        let transaction = try #require(model[entityName: "Transaction"])
        #expect(category.properties.map(\.name) == ["name", "colorHex", "transactions"])
        #expect(category.properties.map(\.index) == [0, 1, 2])
        #expect(category.superentity === model[entityName: "Named"])
        let inverse = category.relationshipsByName["transactions"]?.inverseRelationship
        #expect(inverse === transaction.relationshipsByName["category"])
        #expect(
            transaction.attributesByName["amount"]?.minValue == .decimal(Decimal(string: "0.01")!))
        #expect(
            transaction.attributesByName["amount"]?.defaultValue
                == .decimal(Decimal(string: "12.5")!))
    }

    @Test func selfInverseAndInheritedInverseAreAccepted() throws {
        let model = try ManagedObjectModel(entities: [
            entity(
                "Person",
                [
                    rel("spouse", "Person", inverse: "spouse"),
                    rel("pets", "Pet", inverse: "owner", toMany: true),
                ]),
            entity("Employee", super: "Person", []),
            entity("Pet", [rel("owner", "Person", inverse: "pets")]),
            entity("Shape", abstract: true, []), entity("Circle", super: "Shape", []),
            entity("Canvas", [rel("shape", "Shape", optional: false)]),
        ])
        let spouse = model[entityName: "Person"]?.relationshipsByName["spouse"]
        #expect(spouse?.inverseRelationship === spouse)
        #expect(
            model[entityName: "Employee"]?.relationshipsByName["pets"]?.inverseRelationship?.name
                == "owner")
    }

    @Test func nanDefaultsBecomeTheStandardQuietNaN() throws {
        let payloadNaN = Double(nan: 0x1234, signaling: false)
        let model = try ManagedObjectModel(entities: [
            entity("A", [attr("x", .double) { $0.defaultValue = .double(payloadNaN) }])
        ])
        let value = model[entityName: "A"]?.attributesByName["x"]?.defaultValue
        #expect(value == .double(.nan))
    }
}
