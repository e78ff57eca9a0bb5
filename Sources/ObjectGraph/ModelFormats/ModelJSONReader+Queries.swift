import Foundation

/// Reading fetched properties, fetch indexes and fetch request templates.
extension ModelJSONReader {
    func readFetchedProperty(_ value: JSONValue, path: String, entity: String) throws
        -> FetchedPropertyDescription
    {
        var probe = try JSONFields(value, path: path, entity: entity)
        let name = try probe.requiredString("name")
        var fields = try JSONFields(value, path: path, entity: entity, property: name)
        _ = fields.value("name")
        let fetched = FetchedPropertyDescription(
            name: name, destination: try fields.requiredString("destination"),
            predicateFormat: try fields.string("predicateFormat"),
            isOptional: try fields.bool("isOptional", default: true),
            userInfo: try fields.stringMap("userInfo"),
            versionHashModifier: try fields.string("versionHashModifier"),
            renamingIdentifier: try fields.string("renamingIdentifier"))
        try fields.rejectUnknownKeys()
        return fetched
    }

    func readIndex(_ value: JSONValue, path: String, entity: String) throws -> FetchIndexDescription
    {
        var fields = try JSONFields(value, path: path, entity: entity)
        let name = try fields.requiredString("name")
        let elements = try fields.array("elements").enumerated().map { i, item in
            var element = try JSONFields(
                item, path: fields.path("elements") + "[\(i)]", entity: entity)
            let property = try element.requiredString("property")
            let collationName =
                try element.string("collationType")
                ?? FetchIndexDescription.CollationType.binary.rawValue
            guard let collation = FetchIndexDescription.CollationType(rawValue: collationName)
            else {
                throw element.error(
                    "collationType", expected: "\"binary\" or \"rTree\"",
                    found: .string(collationName))
            }
            let ascending = try element.bool("isAscending", default: true)
            try element.rejectUnknownKeys()
            return FetchIndexDescription.Element(
                property: property, collationType: collation, isAscending: ascending)
        }
        try fields.rejectUnknownKeys()
        return FetchIndexDescription(name: name, elements: elements)
    }

    func readTemplate(_ value: JSONValue, path: String) throws -> FetchRequestTemplate {
        var fields = try JSONFields(value, path: path)
        let name = try fields.requiredString("name")
        let resultName =
            try fields.string("resultType")
            ?? FetchRequestTemplate.ResultType.managedObject.rawValue
        guard let resultType = FetchRequestTemplate.ResultType(rawValue: resultName) else {
            let all = FetchRequestTemplate.ResultType.allCases.map(\.rawValue).joined(
                separator: ", ")
            throw fields.error("resultType", expected: "one of \(all)", found: .string(resultName))
        }
        let template = FetchRequestTemplate(
            name: name, entityName: try fields.requiredString("entityName"),
            predicateFormat: try fields.string("predicateFormat"), resultType: resultType,
            fetchLimit: try fields.int("fetchLimit") ?? 0,
            fetchBatchSize: try fields.int("fetchBatchSize") ?? 0,
            includesSubentities: try fields.bool("includesSubentities", default: true),
            includesPropertyValues: try fields.bool("includesPropertyValues", default: true),
            includesPendingChanges: try fields.bool("includesPendingChanges", default: true),
            returnsObjectsAsFaults: try fields.bool("returnsObjectsAsFaults", default: true),
            returnsDistinctResults: try fields.bool("returnsDistinctResults", default: false))
        try fields.rejectUnknownKeys()
        return template
    }
}
