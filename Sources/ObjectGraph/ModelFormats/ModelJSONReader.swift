import Foundation

/// Reads the JSON model format's value tree into unbuilt descriptions, naming the JSON path
/// of anything that does not fit. Building the model afterwards checks the model as a whole.
struct ModelJSONReader {
    let classes: ClassNameResolver

    struct Contents {
        var entities: [EntityDescription]
        var configurations: [String: [String]]
        var versionIdentifiers: Set<String>
        var fetchRequestTemplates: [FetchRequestTemplate]
    }

    func read(_ root: JSONValue) throws -> Contents {
        var fields = try JSONFields(root, path: "")
        let format = try fields.string("format")
        guard format == ModelJSONWriter.formatTag else {
            throw fields.error(
                "format", expected: JSONValue.quoted(ModelJSONWriter.formatTag),
                found: format.map(JSONValue.string))
        }
        let entities = try fields.array("entities").enumerated().map { i, item in
            try readEntity(item, path: fields.path("entities") + "[\(i)]")
        }
        var configurations: [String: [String]] = [:]
        if let value = fields.value("configurations") {
            guard case .object(let map) = value else {
                throw fields.error(
                    "configurations", expected: "an object of entity-name arrays", found: value)
            }
            var inner = try JSONFields(value, path: fields.path("configurations"))
            for name in map.keys { configurations[name] = try inner.stringArray(name) }
        }
        let versionIdentifiers = try fields.stringArray("versionIdentifiers")
        let templates = try fields.array("fetchRequestTemplates").enumerated().map { i, item in
            try readTemplate(item, path: fields.path("fetchRequestTemplates") + "[\(i)]")
        }
        try fields.rejectUnknownKeys()
        return Contents(
            entities: entities, configurations: configurations,
            versionIdentifiers: Set(versionIdentifiers),
            fetchRequestTemplates: templates)
    }

    private func readEntity(_ value: JSONValue, path: String) throws -> EntityDescription {
        var probe = try JSONFields(value, path: path)
        let name = try probe.requiredString("name")
        var fields = try JSONFields(value, path: path, entity: name)
        _ = fields.value("name")
        let className = try fields.string("managedObjectClassName")
        let properties = try fields.array("properties").enumerated().map { j, item in
            try readProperty(item, path: fields.path("properties") + "[\(j)]", entity: name)
        }
        let constraints = try fields.array("uniquenessConstraints").enumerated().map { j, item in
            guard case .array(let keys) = item else {
                throw ModelError.json(
                    path: fields.path("uniquenessConstraints") + "[\(j)]", entity: name,
                    property: nil,
                    expected: "an array of attribute names", found: item.kindDescription)
            }
            return try keys.enumerated().map { k, key in
                guard case .string(let s) = key else {
                    throw ModelError.json(
                        path: fields.path("uniquenessConstraints") + "[\(j)][\(k)]", entity: name,
                        property: nil, expected: "an attribute name", found: key.kindDescription)
                }
                return s
            }
        }
        let entity = EntityDescription(
            name: name,
            managedObjectClass: className.flatMap(classes.resolve) ?? ManagedObject.self,
            managedObjectClassName: className,
            isAbstract: try fields.bool("isAbstract", default: false),
            superentityName: try fields.string("superentityName"), properties: properties,
            uniquenessConstraints: constraints, userInfo: try fields.stringMap("userInfo"),
            versionHashModifier: try fields.string("versionHashModifier"),
            renamingIdentifier: try fields.string("renamingIdentifier"),
            fetchedProperties: try fields.array("fetchedProperties").enumerated().map { j, item in
                try readFetchedProperty(
                    item, path: fields.path("fetchedProperties") + "[\(j)]", entity: name)
            },
            indexes: try fields.array("indexes").enumerated().map { j, item in
                try readIndex(item, path: fields.path("indexes") + "[\(j)]", entity: name)
            })
        try fields.rejectUnknownKeys()
        return entity
    }

    private func readProperty(_ value: JSONValue, path: String, entity: String) throws
        -> PropertyDescription
    {
        var probe = try JSONFields(value, path: path, entity: entity)
        let name = try probe.requiredString("name")
        var fields = try JSONFields(value, path: path, entity: entity, property: name)
        _ = fields.value("name")
        let property: PropertyDescription
        switch try fields.string("kind") {
        case "attribute": property = try readAttribute(&fields, name: name)
        case "relationship": property = try readRelationship(&fields, name: name)
        case let other:
            throw fields.error(
                "kind", expected: "\"attribute\" or \"relationship\"",
                found: other.map(JSONValue.string))
        }
        try fields.rejectUnknownKeys()
        return property
    }

    private func readAttribute(_ fields: inout JSONFields, name: String) throws
        -> AttributeDescription
    {
        let typeName = try fields.string("type")
        guard let type = typeName.flatMap(AttributeType.init(rawValue:)), type != .objectID else {
            let all = AttributeType.allCases.filter { $0 != .objectID }.map(\.rawValue)
                .joined(separator: ", ")
            throw fields.error(
                "type", expected: "one of \(all)", found: typeName.map(JSONValue.string))
        }
        func value(_ key: String) throws -> AttributeValue? {
            guard let json = fields.value(key) else { return nil }
            guard let v = AttributeValue.fromModelJSON(json, type: type) else {
                throw fields.error(
                    key, expected: AttributeValue.modelJSONExpectation(for: type), found: json)
            }
            return v
        }
        let predicates = try fields.stringArray("validationPredicates").enumerated().map {
            i, format in
            do { return try FetchPredicate(format: format) } catch let error as ObjectGraphError {
                throw ModelError.json(
                    path: "\(fields.path("validationPredicates"))[\(i)]", entity: fields.entity,
                    property: name, expected: "a predicate format string",
                    found: "\(JSONValue.quoted(format)) (\(error.message))")
            }
        }
        return AttributeDescription(
            name: name, type: type, isOptional: try fields.bool("isOptional", default: true),
            isTransient: try fields.bool("isTransient", default: false),
            defaultValue: try value("defaultValue") ?? .null,
            minValue: try value("minValue"), maxValue: try value("maxValue"),
            minLength: try fields.int("minLength"), maxLength: try fields.int("maxLength"),
            pattern: try fields.string("pattern"), validationPredicates: predicates,
            validationWarnings: try fields.stringArray("validationWarnings"),
            valueTransformerName: try fields.string("valueTransformerName"),
            attributeValueClassName: try fields.string("attributeValueClassName"),
            allowsExternalBinaryDataStorage: try fields.bool(
                "allowsExternalBinaryDataStorage", default: false),
            derivationExpression: try fields.string("derivationExpression"),
            isIndexed: try fields.bool("isIndexed", default: false),
            userInfo: try fields.stringMap("userInfo"),
            versionHashModifier: try fields.string("versionHashModifier"),
            renamingIdentifier: try fields.string("renamingIdentifier"),
            preservesValueInHistoryOnDeletion: try fields.bool(
                "preservesValueInHistoryOnDeletion", default: false))
    }

    private func readRelationship(_ fields: inout JSONFields, name: String) throws
        -> RelationshipDescription
    {
        let ruleName = try fields.string("deleteRule") ?? DeleteRule.nullify.jsonName
        guard let rule = DeleteRule.allCases.first(where: { $0.jsonName == ruleName }) else {
            throw fields.error(
                "deleteRule", expected: "one of nullify, cascade, deny, noAction",
                found: .string(ruleName))
        }
        return RelationshipDescription(
            name: name, destination: try fields.requiredString("destination"),
            inverse: try fields.string("inverse"),
            isToMany: try fields.bool("isToMany", default: false),
            isOrdered: try fields.bool("isOrdered", default: false),
            isOptional: try fields.bool("isOptional", default: true),
            isTransient: try fields.bool("isTransient", default: false),
            minCount: try fields.int("minCount") ?? 0, maxCount: try fields.int("maxCount") ?? 0,
            deleteRule: rule,
            userInfo: try fields.stringMap("userInfo"),
            versionHashModifier: try fields.string("versionHashModifier"),
            renamingIdentifier: try fields.string("renamingIdentifier"))
    }
}
