import Foundation

/// The errors of dictionary fetches (`.dictionaryResultType`), all code 134060
/// (`NSCoreDataError`): Core Data raises `NSInvalidArgumentException` for these requests,
/// which Swift code cannot catch; here they are thrown.
enum DictionaryFetchErrors {
    static func toMany(_ name: String, entity: EntityDescription, role: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: \(entity.name).\(name) is a to-many relationship, which \(role) cannot hold "
                + "(Core Data: \"Invalid to-many relationship\"); fetch attributes, to-ones, "
                + "key paths or expressions such as count:(\(name))",
            entityName: entity.name, key: name)
    }

    static func notAColumn(_ name: String, entity: EntityDescription, role: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: \(entity.name).\(name) is a fetched property, which \(role) cannot hold",
            entityName: entity.name, key: name)
    }

    static func unusableItem(_ item: Any, entity: EntityDescription, role: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: \(role) holds a \(type(of: item)); use property names, "
                + "PropertyDescriptions or ExpressionDescriptions", entityName: entity.name)
    }

    static func aggregateInGroupBy(_ d: ExpressionDescription, entity: EntityDescription)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: propertiesToGroupBy holds the aggregate '\(d.name)' (\(d.expression)); "
                + "group by properties, key paths or expressions, and fetch the aggregate",
            entityName: entity.name, key: d.name)
    }

    static func ungroupedColumn(_ key: String, entity: EntityDescription) -> ObjectGraphError {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: '\(key)' is in propertiesToFetch but neither in propertiesToGroupBy nor an "
                + "aggregate: with grouping, every fetched value must be a grouped property, an "
                + "aggregate or a constant (Core Data's rule for propertiesToGroupBy)",
            entityName: entity.name, key: key)
    }

    static func groupingWithoutDictionaries(entity: EntityDescription) -> ObjectGraphError {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: propertiesToGroupBy and havingPredicate need resultType "
                + ".dictionaryResultType (Core Data's rule)", entityName: entity.name)
    }

    static func havingWithoutGroupBy(entity: EntityDescription) -> ObjectGraphError {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: havingPredicate needs propertiesToGroupBy: it filters groups (Core Data: "
                + "\"specifying a HAVING predicate requires that a GROUP BY also be specified\")",
            entityName: entity.name)
    }

    static func havingFunction(_ e: FetchExpression, entity: EntityDescription)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: havingPredicate: unsupported function expression \(e) (as in Core Data); "
                + "fetch the aggregate with an ExpressionDescription and name it as $NAME, "
                + "e.g. \"$count > 1\"", entityName: entity.name)
    }

    static func havingAlias(_ name: String, entity: EntityDescription) -> ObjectGraphError {
        ObjectGraphError(
            .invalidFetchRequest,
            "fetch: havingPredicate: key path \(name) not found in entity \(entity.name) (as in "
                + "Core Data); an expression description's value is named as a variable: "
                + "$\(name)", entityName: entity.name, key: name)
    }
}
