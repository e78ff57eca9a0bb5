import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a fetch or batch request names an entity the model does not
    /// have.
    public static let unknownEntity = Self("unknownEntity", code: 134060)
    /// 134060 (`NSCoreDataError`): a request found by its class (`Category.fetchRequest()`)
    /// whose class is the class of no entity of the context's model.
    public static let noEntityForClass = Self("noEntityForClass", code: 134060)
    /// 134060 (`NSCoreDataError`): the request's result type gives values that are not the
    /// request's `Result` type.
    public static let resultTypeMismatch = Self("resultTypeMismatch", code: 134060)
    /// 134060 (`NSCoreDataError`): a fetch request whose settings do not go together (a Swift
    /// predicate with dictionary results, an unknown item in `propertiesToFetch`, a to-many in
    /// dictionary results, a prefetch key path that names no relationship).
    public static let invalidFetchRequest = Self("invalidFetchRequest", code: 134060)
    /// 134060 (`NSCoreDataError`): a context with no coordinator (and no parent) asked to run
    /// a request against stores.
    public static let noCoordinator = Self("noCoordinator", code: 134060)
    /// 134091 (`NSPersistentStoreUnsupportedRequestTypeError`): a request stores do not run.
    public static let unsupportedRequest = Self("unsupportedRequest", code: 134091)
}

extension ObjectGraphError {
    /// ``Reason/unknownEntity`` (134060), for `catch` clauses.
    public static var unknownEntity: Reason { .unknownEntity }
    /// ``Reason/noEntityForClass`` (134060), for `catch` clauses.
    public static var noEntityForClass: Reason { .noEntityForClass }
    /// ``Reason/resultTypeMismatch`` (134060), for `catch` clauses.
    public static var resultTypeMismatch: Reason { .resultTypeMismatch }
    /// ``Reason/invalidFetchRequest`` (134060), for `catch` clauses.
    public static var invalidFetchRequest: Reason { .invalidFetchRequest }
    /// ``Reason/noCoordinator`` (134060), for `catch` clauses.
    public static var noCoordinator: Reason { .noCoordinator }
    /// ``Reason/unsupportedRequest`` (134091), for `catch` clauses.
    public static var unsupportedRequest: Reason { .unsupportedRequest }
}

/// Factories for the errors of fetch requests and of running requests in a context.
enum FetchErrors {
    static func unknownEntity(_ what: String, _ name: String) -> ObjectGraphError {
        ObjectGraphError(
            .unknownEntity, "\(what): the model has no entity named \(EchoedText.capped(name))",
            entityName: name)
    }

    /// A request that names no entity, whose result class has no entity in the model.
    static func noEntity(request: String, _ failure: ClassLookupFailure) -> ObjectGraphError {
        ObjectGraphError(
            .noEntityForClass,
            "fetch: \(request) names no entity, and \(failure.explanation) "
                + "(FetchRequest<\(failure.type)>(entityName: …))")
    }

    /// A request that names no entity, whose result type is not a managed-object class.
    static func noEntity(request: String, _ type: Any.Type) -> ObjectGraphError {
        ObjectGraphError(
            .noEntityForClass,
            "fetch: \(request) names no entity, and \(type) is not a managed-object class; "
                + "give it an entity name: FetchRequest<\(type)>(entityName: …)")
    }

    static func resultTypeMismatch(
        _ request: String, gives given: Any.Type, wanted: Any.Type, entity: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .resultTypeMismatch,
            "fetch: \(request) returns \(given) values, which are not \(wanted)",
            entityName: entity)
    }

    static func invalid(_ problem: String, entity: String, key: String? = nil)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidFetchRequest, "fetch: \(problem)", entityName: entity, key: key)
    }

    static func noCoordinator(_ what: String, _ context: ManagedObjectContext)
        -> ObjectGraphError
    {
        ObjectGraphError(.noCoordinator, "\(what): \(context) has no coordinator")
    }

    static func unsupported(_ request: PersistentStoreRequest) -> ObjectGraphError {
        ObjectGraphError(
            .unsupportedRequest, "execute: \(request) is not a request stores understand")
    }
}
