import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): an entity name used twice in one model.
    public static let duplicateEntity = Self("duplicateEntity", code: 134060)
    /// 134060 (`NSCoreDataError`): one entity description passed to two models.
    public static let entityReused = Self("entityReused", code: 134060)
    /// 134060 (`NSCoreDataError`): an empty or otherwise unusable entity or property name.
    public static let invalidName = Self("invalidName", code: 134060)
    /// 134060 (`NSCoreDataError`): a property name used twice in an entity or its ancestors.
    public static let duplicateProperty = Self("duplicateProperty", code: 134060)
    /// 134060 (`NSCoreDataError`): a superentity that is not in the model, or an inheritance
    /// cycle.
    public static let invalidSuperentity = Self("invalidSuperentity", code: 134060)
    /// 134060 (`NSCoreDataError`): a relationship whose destination is not in the model.
    public static let unknownDestination = Self("unknownDestination", code: 134060)
    /// 134060 (`NSCoreDataError`): an inverse relationship that does not exist or does not
    /// point back.
    public static let invalidInverse = Self("invalidInverse", code: 134060)
    /// 134060 (`NSCoreDataError`): a uniqueness constraint naming something that is not a
    /// stored attribute or to-one.
    public static let invalidConstraint = Self("invalidConstraint", code: 134060)
    /// 134060 (`NSCoreDataError`): an attribute's default, limits or pattern that do not fit it.
    public static let invalidAttribute = Self("invalidAttribute", code: 134060)
    /// 134060 (`NSCoreDataError`): a relationship whose counts, ordering or destination break a
    /// rule.
    public static let invalidRelationship = Self("invalidRelationship", code: 134060)
    /// 134060 (`NSCoreDataError`): a configuration naming an unknown entity, or one twice.
    public static let invalidConfiguration = Self("invalidConfiguration", code: 134060)
    /// 134060 (`NSCoreDataError`): a fetch request template with a duplicate name or an unknown
    /// entity.
    public static let invalidFetchRequestTemplate = Self(
        "invalidFetchRequestTemplate", code: 134060)
    /// 134060 (`NSCoreDataError`): a fetch index with a bad name or element.
    public static let invalidIndex = Self("invalidIndex", code: 134060)
    /// 134060 (`NSCoreDataError`): a JSON model document whose structure or values do not fit
    /// the format.
    public static let invalidModelJSON = Self("invalidModelJSON", code: 134060)
    /// 134060 (`NSCoreDataError`): an Xcode model file that is not well-formed XML.
    public static let modelXMLSyntax = Self("modelXMLSyntax", code: 134060)
    /// 134060 (`NSCoreDataError`): an Xcode model element whose content does not fit (an
    /// unknown attribute type, a value that does not parse).
    public static let invalidXcodeModel = Self("invalidXcodeModel", code: 134060)
    /// 134060 (`NSCoreDataError`): a model file, bundle or version that cannot be found, read
    /// or chosen; the message lists every place searched.
    public static let modelNotFound = Self("modelNotFound", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/duplicateEntity`` (134060), for `catch` clauses.
    public static var duplicateEntity: Reason { .duplicateEntity }
    /// ``Reason/entityReused`` (134060), for `catch` clauses.
    public static var entityReused: Reason { .entityReused }
    /// ``Reason/invalidName`` (134060), for `catch` clauses.
    public static var invalidName: Reason { .invalidName }
    /// ``Reason/duplicateProperty`` (134060), for `catch` clauses.
    public static var duplicateProperty: Reason { .duplicateProperty }
    /// ``Reason/invalidSuperentity`` (134060), for `catch` clauses.
    public static var invalidSuperentity: Reason { .invalidSuperentity }
    /// ``Reason/unknownDestination`` (134060), for `catch` clauses.
    public static var unknownDestination: Reason { .unknownDestination }
    /// ``Reason/invalidInverse`` (134060), for `catch` clauses.
    public static var invalidInverse: Reason { .invalidInverse }
    /// ``Reason/invalidConstraint`` (134060), for `catch` clauses.
    public static var invalidConstraint: Reason { .invalidConstraint }
    /// ``Reason/invalidAttribute`` (134060), for `catch` clauses.
    public static var invalidAttribute: Reason { .invalidAttribute }
    /// ``Reason/invalidRelationship`` (134060), for `catch` clauses.
    public static var invalidRelationship: Reason { .invalidRelationship }
    /// ``Reason/invalidConfiguration`` (134060), for `catch` clauses.
    public static var invalidConfiguration: Reason { .invalidConfiguration }
    /// ``Reason/invalidFetchRequestTemplate`` (134060), for `catch` clauses.
    public static var invalidFetchRequestTemplate: Reason { .invalidFetchRequestTemplate }
    /// ``Reason/invalidIndex`` (134060), for `catch` clauses.
    public static var invalidIndex: Reason { .invalidIndex }
    /// ``Reason/invalidModelJSON`` (134060), for `catch` clauses.
    public static var invalidModelJSON: Reason { .invalidModelJSON }
    /// ``Reason/modelXMLSyntax`` (134060), for `catch` clauses.
    public static var modelXMLSyntax: Reason { .modelXMLSyntax }
    /// ``Reason/invalidXcodeModel`` (134060), for `catch` clauses.
    public static var invalidXcodeModel: Reason { .invalidXcodeModel }
    /// ``Reason/modelNotFound`` (134060), for `catch` clauses.
    public static var modelNotFound: Reason { .modelNotFound }
}

/// Factories for the errors of models and model files, one per rule; each names the entity,
/// the property and the rule (and the file, line and column for files).
enum ModelError {
    /// An entity name used twice in one model.
    static func duplicateEntity(_ entity: String) -> ObjectGraphError {
        ObjectGraphError(
            .duplicateEntity, "model: entity \(entity) is declared twice", entityName: entity)
    }
    /// One entity description passed to two models.
    static func entityReused(_ entity: String) -> ObjectGraphError {
        ObjectGraphError(
            .entityReused,
            "model: entity \(entity) already belongs to another model; "
                + "create new descriptions for each model", entityName: entity)
    }
    /// An empty or otherwise unusable name.
    static func invalidName(entity: String, property: String?) -> ObjectGraphError {
        ObjectGraphError(
            .invalidName,
            "model: \(property.map { "\(entity).\($0)" } ?? "entity '\(entity)'") "
                + "has an empty or invalid name", entityName: entity, key: property)
    }
    /// A property name used twice in an entity or its ancestors.
    static func duplicateProperty(entity: String, property: String) -> ObjectGraphError {
        ObjectGraphError(
            .duplicateProperty,
            "model: \(entity).\(property) is declared twice (in the entity or a superentity)",
            entityName: entity, key: property)
    }
    /// A superentity that is not in the model, or an inheritance cycle.
    static func badSuperentity(entity: String, superentity: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidSuperentity, "model: \(entity)'s superentity \(superentity) \(reason)",
            entityName: entity
        )
    }
    /// A relationship whose destination is not in the model.
    static func unknownDestination(entity: String, relationship: String, destination: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .unknownDestination,
            "model: \(entity).\(relationship) points to unknown entity \(destination)",
            entityName: entity, key: relationship)
    }
    /// An inverse that does not exist or does not point back.
    static func badInverse(entity: String, relationship: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidInverse, "model: \(entity).\(relationship)'s inverse \(reason)",
            entityName: entity, key: relationship)
    }
    /// A uniqueness constraint naming something that is not a stored attribute or to-one.
    static func badConstraint(entity: String, key: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidConstraint, "model: \(entity).\(key) in a uniqueness constraint: \(reason)",
            entityName: entity, key: key)
    }
    /// A default or limit that does not fit the attribute.
    static func badAttribute(entity: String, attribute: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidAttribute, "model: \(entity).\(attribute): \(reason)", entityName: entity,
            key: attribute)
    }
}

extension ModelError {
    /// A JSON model document whose structure or values do not fit the format, at `path`
    /// (e.g. `entities[1].properties[3].type`).
    static func json(
        path: String, entity: String?, property: String?, expected: String,
        found: String
    ) -> ObjectGraphError {
        let subject = entity.map { e in property.map { " (\(e).\($0))" } ?? " (\(e))" } ?? ""
        return ObjectGraphError(
            .invalidModelJSON,
            "model JSON at \(path)\(subject): expected \(expected), found \(found)",
            entityName: entity, key: property)
    }
}

extension ModelError {
    /// A relationship whose counts, ordering or destination break a rule.
    static func badRelationship(entity: String, relationship: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidRelationship, "model: \(entity).\(relationship): \(reason)", entityName: entity,
            key: relationship)
    }

    /// A configuration naming an entity that is not in the model, or naming one twice.
    static func badConfiguration(_ configuration: String, reason: String) -> ObjectGraphError {
        ObjectGraphError(.invalidConfiguration, "model: configuration '\(configuration)' \(reason)")
    }
}

extension ModelError {
    /// A fetch request template with a duplicate name or an unknown entity.
    static func badFetchRequestTemplate(_ template: String, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidFetchRequestTemplate, "model: fetch request template '\(template)' \(reason)")
    }

    /// A fetch index with a bad name or element.
    static func badIndex(entity: String, index: String, key: String?, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidIndex,
            "model: \(entity)\(key.map { ".\($0)" } ?? "") in fetch index '\(index)': \(reason)",
            entityName: entity, key: key)
    }
}

extension ModelError {
    /// An Xcode model file that is not well-formed XML.
    static func xmlSyntax(file: String, line: Int, column: Int, expected: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .modelXMLSyntax, "\(file):\(line):\(column): malformed XML: expected \(expected)",
            file: file, line: line, column: column)
    }

    /// An Xcode model element whose content does not fit (an unknown attribute type, a value
    /// that does not parse), at `file:line:column`.
    static func xcodeModel(
        file: String, line: Int, column: Int, entity: String?, property: String?,
        problem: String
    ) -> ObjectGraphError {
        let subject = entity.map { e in property.map { "\(e).\($0): " } ?? "\(e): " } ?? ""
        return ObjectGraphError(
            .invalidXcodeModel, "\(file):\(line):\(column): \(subject)\(problem)",
            entityName: entity, key: property, file: file, line: line, column: column)
    }

    /// An Xcode model bundle or version that cannot be found or chosen.
    static func xcodeModelLocation(_ path: String, problem: String) -> ObjectGraphError {
        ObjectGraphError(.modelNotFound, "\(path): \(problem)", file: path)
    }
}
