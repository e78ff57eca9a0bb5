import Foundation

/// Factories for the errors a model check throws (code 134060), one per rule.
public enum ModelError {
    /// An entity name used twice in one model.
    public static func duplicateEntity(_ entity: String) -> ObjectGraphError {
        ObjectGraphError(.coreData, "model: entity \(entity) is declared twice", entityName: entity)
    }
    /// One entity description passed to two models.
    public static func entityReused(_ entity: String) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "model: entity \(entity) already belongs to another model; "
                + "create new descriptions for each model", entityName: entity)
    }
    /// An empty or otherwise unusable name.
    public static func invalidName(entity: String, property: String?) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "model: \(property.map { "\(entity).\($0)" } ?? "entity '\(entity)'") "
                + "has an empty or invalid name", entityName: entity, key: property)
    }
    /// A property name used twice in an entity or its ancestors.
    public static func duplicateProperty(entity: String, property: String) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "model: \(entity).\(property) is declared twice (in the entity or a superentity)",
            entityName: entity, key: property)
    }
    /// A superentity that is not in the model, or an inheritance cycle.
    public static func badSuperentity(entity: String, superentity: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData, "model: \(entity)'s superentity \(superentity) \(reason)", entityName: entity
        )
    }
    /// A relationship whose destination is not in the model.
    public static func unknownDestination(entity: String, relationship: String, destination: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData, "model: \(entity).\(relationship) points to unknown entity \(destination)",
            entityName: entity, key: relationship)
    }
    /// An inverse that does not exist or does not point back.
    public static func badInverse(entity: String, relationship: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData, "model: \(entity).\(relationship)'s inverse \(reason)",
            entityName: entity, key: relationship)
    }
    /// A uniqueness constraint naming something that is not a stored attribute or to-one.
    public static func badConstraint(entity: String, key: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData, "model: \(entity).\(key) in a uniqueness constraint: \(reason)",
            entityName: entity, key: key)
    }
    /// A default or limit that does not fit the attribute.
    public static func badAttribute(entity: String, attribute: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData, "model: \(entity).\(attribute): \(reason)", entityName: entity,
            key: attribute)
    }
}

extension ModelError {
    /// A JSON model document whose structure or values do not fit the format, at `path`
    /// (e.g. `entities[1].properties[3].type`).
    public static func json(
        path: String, entity: String?, property: String?, expected: String,
        found: String
    ) -> ObjectGraphError {
        let subject = entity.map { e in property.map { " (\(e).\($0))" } ?? " (\(e))" } ?? ""
        return ObjectGraphError(
            .coreData, "model JSON at \(path)\(subject): expected \(expected), found \(found)",
            entityName: entity, key: property)
    }

    /// A JSON model document that is not well-formed JSON.
    public static func jsonSyntax(file: String?, line: Int, column: Int, expected: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData,
            "model JSON \(file.map { "\($0):" } ?? "line ")\(line):\(column): expected \(expected)",
            file: file, line: line, column: column)
    }
}

extension ModelError {
    /// A relationship whose counts, ordering or destination break a rule.
    public static func badRelationship(entity: String, relationship: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData, "model: \(entity).\(relationship): \(reason)", entityName: entity,
            key: relationship)
    }

    /// A configuration naming an entity that is not in the model, or naming one twice.
    public static func badConfiguration(_ configuration: String, reason: String) -> ObjectGraphError
    {
        ObjectGraphError(.coreData, "model: configuration '\(configuration)' \(reason)")
    }
}

extension ModelError {
    /// A fetch request template with a duplicate name or an unknown entity.
    public static func badFetchRequestTemplate(_ template: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(.coreData, "model: fetch request template '\(template)' \(reason)")
    }

    /// A fetch index with a bad name or element.
    public static func badIndex(entity: String, index: String, key: String?, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData,
            "model: \(entity)\(key.map { ".\($0)" } ?? "") in fetch index '\(index)': \(reason)",
            entityName: entity, key: key)
    }
}

extension ModelError {
    /// An Xcode model file that is not well-formed XML.
    public static func xmlSyntax(file: String, line: Int, column: Int, expected: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData, "\(file):\(line):\(column): malformed XML: expected \(expected)",
            file: file, line: line, column: column)
    }

    /// An Xcode model element whose content does not fit (an unknown attribute type, a value
    /// that does not parse), at `file:line:column`.
    public static func xcodeModel(
        file: String, line: Int, column: Int, entity: String?, property: String?,
        problem: String
    ) -> ObjectGraphError {
        let subject = entity.map { e in property.map { "\(e).\($0): " } ?? "\(e): " } ?? ""
        return ObjectGraphError(
            .coreData, "\(file):\(line):\(column): \(subject)\(problem)",
            entityName: entity, key: property, file: file, line: line, column: column)
    }

    /// An Xcode model bundle or version that cannot be found or chosen.
    public static func xcodeModelLocation(_ path: String, problem: String) -> ObjectGraphError {
        ObjectGraphError(.coreData, "\(path): \(problem)", file: path)
    }
}
