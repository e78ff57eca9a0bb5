import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a batch request names a key that is not an attribute of its
    /// entity (batch requests cannot set relationships).
    public static let batchInvalidProperty = Self("batchInvalidProperty", code: 134060)
    /// 134060 (`NSCoreDataError`): a batch request's value (or an expression's result) does not
    /// fit its attribute's type.
    public static let batchInvalidValue = Self("batchInvalidValue", code: 134060)
    /// 134060 (`NSCoreDataError`): a batch delete's object IDs are of several entities.
    public static let batchMixedEntities = Self("batchMixedEntities", code: 134060)
    /// 134060 (`NSCoreDataError`): a batch insert into an abstract entity.
    public static let batchAbstractEntity = Self("batchAbstractEntity", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/batchInvalidProperty`` (134060), for `catch` clauses.
    public static var batchInvalidProperty: Reason { .batchInvalidProperty }
    /// ``Reason/batchInvalidValue`` (134060), for `catch` clauses.
    public static var batchInvalidValue: Reason { .batchInvalidValue }
    /// ``Reason/batchMixedEntities`` (134060), for `catch` clauses.
    public static var batchMixedEntities: Reason { .batchMixedEntities }
    /// ``Reason/batchAbstractEntity`` (134060), for `catch` clauses.
    public static var batchAbstractEntity: Reason { .batchAbstractEntity }
}

/// Factories for the errors of batch update, delete and insert requests; each names the
/// request, the entity and the key.
enum BatchErrors {
    static func notAnAttribute(_ request: String, _ entity: EntityDescription, _ key: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .batchInvalidProperty,
            "batch \(request): \(entity.name) has no attribute '\(EchoedText.capped(key))' "
                + "(batch requests cannot set relationships)", entityName: entity.name, key: key)
    }

    static func invalidValue(
        _ request: String, _ entity: EntityDescription, _ attribute: AttributeDescription,
        objectID: ManagedObjectID? = nil
    ) -> ObjectGraphError {
        ObjectGraphError(
            .batchInvalidValue,
            "batch \(request): the value for \(entity.name).\(attribute.name) is not a "
                + attribute.type.rawValue, entityName: entity.name, key: attribute.name,
            objectID: objectID)
    }

    static func mixedEntities(_ entity: EntityDescription) -> ObjectGraphError {
        ObjectGraphError(
            .batchMixedEntities,
            "batch delete: the object IDs are of several entities; use one request per entity",
            entityName: entity.name)
    }

    static func abstractEntity(_ entity: EntityDescription) -> ObjectGraphError {
        ObjectGraphError(
            .batchAbstractEntity, "batch insert: \(entity.name) is abstract",
            entityName: entity.name)
    }
}
