import Foundation

@testable import ObjectGraph

/// Fresh descriptions for the model tests (descriptions belong to one model, so each test
/// builds its own).
enum ModelFixtures {
    static let fixedID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// A model using every attribute type, defaults and limits (Decimal 0.01 included),
    /// inheritance, an abstract entity, constraints, every relationship option, userInfo,
    /// version hash modifiers, renaming identifiers, configurations and version identifiers.
    static func richModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: richEntities(),
            configurations: ["Ledger": ["Category", "Transaction", "Tag"]],
            versionIdentifiers: ["1.0", "beta"],
            fetchRequestTemplates: [
                FetchRequestTemplate(
                    name: "recent", entityName: "Transaction",
                    predicateFormat: "date > $SINCE", fetchLimit: 20),
                FetchRequestTemplate(
                    name: "totals", entityName: "Transaction", resultType: .dictionary,
                    fetchBatchSize: 50, includesSubentities: false,
                    includesPropertyValues: false, includesPendingChanges: false,
                    returnsObjectsAsFaults: false, returnsDistinctResults: true),
            ])
    }

    static func richEntities(
        amountMin: AttributeValue = 0.01, colorDefault: AttributeValue = "#FFFFFF",
        noteOptional: Bool = true, noteType: AttributeType = .string
    ) -> [EntityDescription] {
        [
            EntityDescription(
                name: "Named", isAbstract: true,
                properties: [
                    AttributeDescription(
                        name: "name", type: .string, isOptional: false, minLength: 1, maxLength: 50,
                        pattern: "^[^\\n]+$", userInfo: ["doc": "a \"quoted\" name\n"])
                ], userInfo: ["kind": "base"], versionHashModifier: "v2",
                renamingIdentifier: "OldNamed"),
            EntityDescription(
                name: "Category", managedObjectClassName: "Category", superentityName: "Named",
                properties: [
                    AttributeDescription(
                        name: "colorHex", type: .string, isOptional: false,
                        defaultValue: colorDefault,
                        pattern: "^#[0-9A-Fa-f]{6}$",
                        validationPredicates: [
                            .comparison(.keyPath("length"), .equalTo, .constant(.integer(7)))
                        ],
                        validationWarnings: ["A colour is # and six hex digits."]),
                    RelationshipDescription(
                        name: "transactions", destination: "Transaction", inverse: "category",
                        isToMany: true, deleteRule: .nullify),
                ], uniquenessConstraints: [["name"]],
                fetchedProperties: [
                    FetchedPropertyDescription(
                        name: "bigSpends", destination: "Transaction",
                        predicateFormat: "amount > 100 AND category == $FETCH_SOURCE",
                        isOptional: false, userInfo: ["k": "v"], versionHashModifier: "f1",
                        renamingIdentifier: "large")
                ]),
            EntityDescription(
                name: "Transaction", managedObjectClassName: "Transaction",
                properties: [
                    AttributeDescription(
                        name: "id", type: .uuid, isOptional: false, defaultValue: .uuid(fixedID),
                        preservesValueInHistoryOnDeletion: true),
                    AttributeDescription(
                        name: "amount", type: .decimal, isOptional: false, defaultValue: "12.50",
                        minValue: amountMin,
                        maxValue: .decimal(Decimal(string: "99999999999999999999.99")!)),
                    AttributeDescription(
                        name: "small", type: .integer16, defaultValue: -5, minValue: -100,
                        maxValue: 100),
                    AttributeDescription(
                        name: "medium", type: .integer32, defaultValue: .integer(Int64(Int32.max))),
                    AttributeDescription(
                        name: "large", type: .integer64, defaultValue: .integer(Int64.min),
                        maxValue: .integer(Int64.max), isIndexed: true),
                    AttributeDescription(
                        name: "ratio", type: .double, defaultValue: .double(-0.0),
                        minValue: .double(-1e300),
                        maxValue: .double(.infinity)),
                    AttributeDescription(name: "unset", type: .double, defaultValue: .double(.nan)),
                    AttributeDescription(
                        name: "tenth", type: .float, defaultValue: .float(0.1),
                        minValue: .float(-.infinity)),
                    AttributeDescription(
                        name: "third", type: .double, defaultValue: .double(1.0 / 3.0)),
                    AttributeDescription(name: "isCleared", type: .boolean, defaultValue: false),
                    AttributeDescription(
                        name: "date", type: .date, isOptional: false,
                        defaultValue: .date(
                            Date(timeIntervalSinceReferenceDate: 700_000_000.123_456_7)),
                        minValue: .date(Date(timeIntervalSince1970: 0.1)),
                        maxValue: .date(Date(timeIntervalSinceReferenceDate: 4e9))),
                    AttributeDescription(
                        name: "note", type: noteType, isOptional: noteOptional,
                        versionHashModifier: "note-v1", renamingIdentifier: "memo"),
                    AttributeDescription(
                        name: "receipt", type: .binaryData,
                        defaultValue: .data(Data([0, 1, 2, 255])),
                        allowsExternalBinaryDataStorage: true),
                    AttributeDescription(
                        name: "link", type: .uri,
                        defaultValue: .uri(URL(string: "https://example.com/a?b=c%20d")!)),
                    AttributeDescription(
                        name: "payload", type: .transformable,
                        defaultValue: .transformable(Data("{\"k\":1}".utf8)),
                        valueTransformerName: "JSONTransformer", attributeValueClassName: "Payload"),
                    AttributeDescription(
                        name: "scratch", type: .undefined, isTransient: true,
                        defaultValue: .double(3.5)),
                    AttributeDescription(
                        name: "amountTimesTwo", type: .decimal, derivationExpression: "amount * 2"),
                    RelationshipDescription(
                        name: "category", destination: "Category", inverse: "transactions"),
                    RelationshipDescription(
                        name: "tags", destination: "Tag", inverse: "transactions", isToMany: true,
                        isOrdered: true, minCount: 0, maxCount: 10, deleteRule: .deny,
                        userInfo: ["ui": "chips"]),
                    RelationshipDescription(
                        name: "related", destination: "Transaction", isToMany: true,
                        deleteRule: .noAction, renamingIdentifier: "links"),
                ],
                indexes: [
                    FetchIndexDescription(
                        name: "byDate", elements: [.init(property: "date", isAscending: false)]),
                    FetchIndexDescription(
                        name: "byCategoryAmount",
                        elements: [
                            .init(property: "category"),
                            .init(property: "amount", collationType: .rTree),
                        ]),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [
                    AttributeDescription(name: "label", type: .string, isOptional: false),
                    AttributeDescription(name: "group", type: .string),
                    RelationshipDescription(
                        name: "transactions", destination: "Transaction", inverse: "tags",
                        isToMany: true, minCount: 1, deleteRule: .cascade, versionHashModifier: "t2"
                    ),
                    RelationshipDescription(
                        name: "scratchOwner", destination: "Category", isTransient: true),
                ], uniquenessConstraints: [["label"], ["group", "label"]]),
        ]
    }

    /// The Expense Tracker model, without managed object classes.
    static func expenseEntities() -> [EntityDescription] {
        [
            EntityDescription(
                name: "Category",
                properties: [
                    AttributeDescription(name: "id", type: .uuid, isOptional: false),
                    AttributeDescription(
                        name: "name", type: .string, isOptional: false, minLength: 1, maxLength: 50),
                    AttributeDescription(
                        name: "colorHex", type: .string, isOptional: false,
                        defaultValue: "#FFFFFF", pattern: "^#[0-9A-Fa-f]{6}$"),
                    RelationshipDescription(
                        name: "transactions", destination: "Transaction",
                        inverse: "category", isToMany: true, deleteRule: .nullify),
                ], uniquenessConstraints: [["name"]]),
            EntityDescription(
                name: "Transaction",
                properties: [
                    AttributeDescription(name: "id", type: .uuid, isOptional: false),
                    AttributeDescription(
                        name: "amount", type: .decimal, isOptional: false, minValue: 0.01),
                    AttributeDescription(name: "date", type: .date, isOptional: false),
                    AttributeDescription(name: "note", type: .string),
                    RelationshipDescription(
                        name: "category", destination: "Category",
                        inverse: "transactions", deleteRule: .nullify),
                ]),
        ]
    }

    /// The error a throwing expression raised, as an `ObjectGraphError`.
    static func error(_ body: () throws -> Void) -> ObjectGraphError? {
        do { try body() } catch let error as ObjectGraphError { return error } catch { return nil }
        return nil
    }
}
