import Foundation

extension ObjectGraphError.Reason {
    /// 134301 (`NSPersistentHistoryTokenExpiredError`): the token names a transaction whose
    /// history was deleted (``PersistentHistoryChangeRequest/deleteHistory(before:)-(PersistentHistoryToken?)``),
    /// so the history after it is no longer complete.
    public static let historyTokenExpired = Self(
        "historyTokenExpired", code: NSPersistentHistoryTokenExpiredError)
    /// 134091 (`NSPersistentStoreUnsupportedRequestTypeError`): a history request on a store
    /// opened without `NSPersistentHistoryTrackingKey`, or on a store type that keeps no history.
    public static let historyNotTracked = Self("historyNotTracked", code: 134091)
    /// 134501: the token names none of the stores the request runs on (a token of another
    /// store, or of a store that was replaced).
    public static let historyTokenOfAnotherStore = Self("historyTokenOfAnotherStore", code: 134501)
}

extension ObjectGraphError {
    /// ``Reason/historyTokenExpired`` (134301), for `catch` clauses.
    public static var historyTokenExpired: Reason { .historyTokenExpired }
    /// ``Reason/historyNotTracked`` (134091), for `catch` clauses.
    public static var historyNotTracked: Reason { .historyNotTracked }
    /// ``Reason/historyTokenOfAnotherStore`` (134501), for `catch` clauses.
    public static var historyTokenOfAnotherStore: Reason { .historyTokenOfAnotherStore }
}

/// Factories for the errors of persistent history.
enum HistoryErrors {
    static func notTracked(_ store: any PersistentStore) -> ObjectGraphError {
        ObjectGraphError(
            .historyNotTracked,
            "persistent history: the \(store.type) store \(place(store)) does not track history; "
                + "open it with NSPersistentHistoryTrackingKey set to true",
            file: store.url?.path)
    }

    static func unsupported(_ store: any PersistentStore) -> ObjectGraphError {
        ObjectGraphError(
            .historyNotTracked,
            "persistent history: the \(store.type) store \(place(store)) keeps no history "
                + "(its type does not implement it)", file: store.url?.path)
    }

    static func expired(_ number: Int64, keptFrom first: Int64, store: String, path: String?)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .historyTokenExpired,
            "persistent history: the token of transaction \(number) has expired: the history of "
                + "store \(store) before transaction \(first) was deleted; fetch from nil and "
                + "start again", file: path)
    }

    static func anotherStore(_ token: PersistentHistoryToken, stores: [String]) -> ObjectGraphError
    {
        ObjectGraphError(
            .historyTokenOfAnotherStore,
            "persistent history: the token \(token) names none of the stores "
                + stores.joined(separator: ", "))
    }

    static func place(_ store: any PersistentStore) -> String {
        store.url?.path ?? store.identifier
    }
}
