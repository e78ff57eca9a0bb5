import Foundation

/// Writes a built model as the JSON model format's value tree, leaving out every member
/// that holds its default (see <doc:ModelFormat>), so equal models give equal bytes.
struct ModelJSONWriter {
    /// The format tag every document carries under `"format"`.
    static let formatTag = "objectgraph-model/1"

    func write(_ model: ManagedObjectModel) -> JSONValue {
        var root: [String: JSONValue] = [
            "format": .string(Self.formatTag),
            "entities": .array(model.entities.map(write)),
        ]
        if !model.configurations.isEmpty {
            root["configurations"] = .object(
                JSONObject(model.configurations.mapValues { .array($0.map(JSONValue.string)) }))
        }
        if !model.fetchRequestTemplatesByName.isEmpty {
            let templates = model.fetchRequestTemplatesByName.values
                .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            root["fetchRequestTemplates"] = .array(templates.map(write))
        }
        if !model.versionIdentifiers.isEmpty {
            root["versionIdentifiers"] = .array(
                model.versionIdentifiers.sorted().map(JSONValue.string))
        }
        return .object(JSONObject(root))
    }

    private func write(_ entity: EntityDescription) -> JSONValue {
        var members: [String: JSONValue] = ["name": .string(entity.name)]
        members["managedObjectClassName"] = entity.managedObjectClassName.map(JSONValue.string)
        if entity.isAbstract { members["isAbstract"] = .bool(true) }
        members["superentityName"] = entity.superentityName.map(JSONValue.string)
        if !entity.ownProperties.isEmpty {
            members["properties"] = .array(entity.ownProperties.map(write))
        }
        if !entity.uniquenessConstraints.isEmpty {
            members["uniquenessConstraints"] = .array(
                entity.uniquenessConstraints.map { .array($0.map(JSONValue.string)) })
        }
        if !entity.ownFetchedProperties.isEmpty {
            members["fetchedProperties"] = .array(entity.ownFetchedProperties.map(write))
        }
        if !entity.indexes.isEmpty { members["indexes"] = .array(entity.indexes.map(write)) }
        common(
            &members, userInfo: entity.userInfo, versionHashModifier: entity.versionHashModifier,
            renamingIdentifier: entity.renamingIdentifier)
        return .object(JSONObject(members))
    }

    private func write(_ fetched: FetchedPropertyDescription) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(fetched.name), "destination": .string(fetched.destinationEntityName),
        ]
        members["predicateFormat"] = fetched.predicateFormat.map(JSONValue.string)
        if !fetched.isOptional { members["isOptional"] = .bool(false) }
        common(
            &members, userInfo: fetched.userInfo, versionHashModifier: fetched.versionHashModifier,
            renamingIdentifier: fetched.renamingIdentifier)
        return .object(JSONObject(members))
    }

    private func write(_ index: FetchIndexDescription) -> JSONValue {
        .object([
            "name": .string(index.name),
            "elements": .array(
                index.elements.map { element in
                    var members: [String: JSONValue] = ["property": .string(element.propertyName)]
                    if element.collationType != .binary {
                        members["collationType"] = .string(element.collationType.rawValue)
                    }
                    if !element.isAscending { members["isAscending"] = .bool(false) }
                    return .object(JSONObject(members))
                }),
        ])
    }

    private func write(_ t: FetchRequestTemplate) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(t.name), "entityName": .string(t.entityName),
        ]
        members["predicateFormat"] = t.predicateFormat.map(JSONValue.string)
        if t.resultType != .managedObject { members["resultType"] = .string(t.resultType.rawValue) }
        if t.fetchLimit != 0 { members["fetchLimit"] = .number(String(t.fetchLimit)) }
        if t.fetchBatchSize != 0 { members["fetchBatchSize"] = .number(String(t.fetchBatchSize)) }
        if !t.includesSubentities { members["includesSubentities"] = .bool(false) }
        if !t.includesPropertyValues { members["includesPropertyValues"] = .bool(false) }
        if !t.includesPendingChanges { members["includesPendingChanges"] = .bool(false) }
        if !t.returnsObjectsAsFaults { members["returnsObjectsAsFaults"] = .bool(false) }
        if t.returnsDistinctResults { members["returnsDistinctResults"] = .bool(true) }
        return .object(JSONObject(members))
    }

    private func write(_ property: PropertyDescription) -> JSONValue {
        var members: [String: JSONValue] = ["name": .string(property.name)]
        if !property.isOptional { members["isOptional"] = .bool(false) }
        if property.isTransient { members["isTransient"] = .bool(true) }
        if let attribute = property as? AttributeDescription {
            members["kind"] = .string("attribute")
            write(attribute, into: &members)
        } else if let relationship = property as? RelationshipDescription {
            members["kind"] = .string("relationship")
            write(relationship, into: &members)
        }
        common(
            &members, userInfo: property.userInfo,
            versionHashModifier: property.versionHashModifier,
            renamingIdentifier: property.renamingIdentifier)
        return .object(JSONObject(members))
    }

    private func write(_ a: AttributeDescription, into members: inout [String: JSONValue]) {
        members["type"] = .string(a.type.rawValue)
        if !a.defaultValue.isNull {
            members["defaultValue"] = a.defaultValue.modelJSON(for: a.type)
        }
        members["minValue"] = a.minValue.map { $0.modelJSON(for: a.type) }
        members["maxValue"] = a.maxValue.map { $0.modelJSON(for: a.type) }
        members["minLength"] = a.minLength.map { .number(String($0)) }
        members["maxLength"] = a.maxLength.map { .number(String($0)) }
        members["pattern"] = a.pattern.map(JSONValue.string)
        if !a.validationPredicates.isEmpty {
            members["validationPredicates"] = .array(
                a.validationPredicates.map { .string($0.description) })
            members["validationWarnings"] = .array(a.validationWarnings.map(JSONValue.string))
        }
        members["valueTransformerName"] = a.valueTransformerName.map(JSONValue.string)
        members["attributeValueClassName"] = a.attributeValueClassName.map(JSONValue.string)
        if a.allowsExternalBinaryDataStorage {
            members["allowsExternalBinaryDataStorage"] = .bool(true)
        }
        members["derivationExpression"] = a.derivationExpression.map(JSONValue.string)
        if a.isIndexed { members["isIndexed"] = .bool(true) }
        if a.preservesValueInHistoryOnDeletion {
            members["preservesValueInHistoryOnDeletion"] = .bool(true)
        }
    }

    private func write(_ r: RelationshipDescription, into members: inout [String: JSONValue]) {
        members["destination"] = .string(r.destinationEntityName)
        members["inverse"] = r.inverseName.map(JSONValue.string)
        if r.isToMany { members["isToMany"] = .bool(true) }
        if r.isOrdered { members["isOrdered"] = .bool(true) }
        if r.minCount != 0 { members["minCount"] = .number(String(r.minCount)) }
        if r.maxCount != 0 { members["maxCount"] = .number(String(r.maxCount)) }
        if r.deleteRule != .nullify { members["deleteRule"] = .string(r.deleteRule.jsonName) }
    }

    private func common(
        _ members: inout [String: JSONValue], userInfo: [String: String],
        versionHashModifier: String?, renamingIdentifier: String?
    ) {
        if !userInfo.isEmpty {
            members["userInfo"] = .object(JSONObject(userInfo.mapValues(JSONValue.string)))
        }
        members["versionHashModifier"] = versionHashModifier.map(JSONValue.string)
        members["renamingIdentifier"] = renamingIdentifier.map(JSONValue.string)
    }
}

extension DeleteRule {
    /// The rule's spelling in the JSON model format (its case name).
    var jsonName: String {
        switch self {
        case .noAction: "noAction"
        case .nullify: "nullify"
        case .cascade: "cascade"
        case .deny: "deny"
        }
    }
}
