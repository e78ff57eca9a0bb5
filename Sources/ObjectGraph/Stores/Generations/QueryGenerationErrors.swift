import Foundation

extension ObjectGraphError.Reason {
    /// 134091 (`NSPersistentStoreUnsupportedRequestTypeError`): a store that keeps no earlier
    /// generations was asked to pin one (``PersistentStore/supportsQueryGenerations`` is
    /// `false`), or a pinning request is not supported in the context's state.
    public static let queryGenerationsUnsupported = Self(
        "queryGenerationsUnsupported", code: 134091)
    /// 134070 (`NSPersistentStoreOperationError`): a query generation token that does not
    /// belong to the context's coordinator, or that tracks a store the coordinator no longer
    /// has.
    public static let queryGenerationMismatch = Self("queryGenerationMismatch", code: 134070)
}

extension ObjectGraphError {
    /// ``Reason/queryGenerationsUnsupported`` (134091), for `catch` clauses.
    public static var queryGenerationsUnsupported: Reason { .queryGenerationsUnsupported }
    /// ``Reason/queryGenerationMismatch`` (134070), for `catch` clauses.
    public static var queryGenerationMismatch: Reason { .queryGenerationMismatch }
}

/// Factories for the errors of query generations.
enum QueryGenerationErrors {
    /// A store that keeps no earlier generations.
    static func unsupported(_ store: any PersistentStore) -> ObjectGraphError {
        ObjectGraphError(
            .queryGenerationsUnsupported,
            "query generations: the \(store.type) store \(store.url?.path ?? store.identifier) "
                + "keeps no earlier generations, so a context cannot be pinned to one",
            file: store.url?.path)
    }

    /// A token of another coordinator.
    static func foreign(_ token: QueryGenerationToken) -> ObjectGraphError {
        ObjectGraphError(
            .queryGenerationMismatch,
            "setQueryGenerationFrom: \(token) belongs to another persistent store coordinator; "
                + "pass a token of a context on this context's coordinator, or .current")
    }

    /// A token tracking stores this coordinator no longer has.
    static func storesRemoved(_ identifiers: [String]) -> ObjectGraphError {
        ObjectGraphError(
            .queryGenerationMismatch,
            "setQueryGenerationFrom: the token tracks "
                + (identifiers.count == 1 ? "store " : "stores ")
                + identifiers.joined(separator: ", ")
                + ", removed from the coordinator since; the context is pinned for the other "
                + "stores only")
    }

    /// Automatic merging asked of a context pinned to an older generation.
    static let automaticMergeWhilePinned =
        "ObjectGraph: automaticallyMergesChangesFromParent cannot be turned on while the context "
        + "is pinned to a query generation that is no longer current (as in Core Data, this is "
        + "not supported); call setQueryGenerationFrom(.current) or (nil) first"
}
