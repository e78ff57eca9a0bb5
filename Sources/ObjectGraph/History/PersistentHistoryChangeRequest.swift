import Foundation

/// What a ``PersistentHistoryChangeRequest`` returns.
///
/// - Note: Mirrors `NSPersistentHistoryResultType` (same raw values).
public enum PersistentHistoryResultType: Int, Sendable, Hashable, CaseIterable {
    /// Only success: `result` is `true`. The default of delete requests.
    case statusOnly = 0
    /// The IDs of the changed objects, each once, in history order: `[ManagedObjectID]`.
    case objectIDs = 1
    /// How many transactions matched (for a delete: how many it deleted): `Int`.
    case count = 2
    /// The transactions, without changes (`changes` is `nil`): `[PersistentHistoryTransaction]`.
    case transactionsOnly = 3
    /// The changes of the matching transactions: `[PersistentHistoryChange]`.
    case changesOnly = 4
    /// The transactions with their changes: `[PersistentHistoryTransaction]`. The default.
    case transactionsAndChanges = 5
}

/// A request for the persistent history of the stores, or to delete part of it; run it with
/// ``ManagedObjectContext/execute(_:)->PersistentStoreResult``.
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request) as? PersistentHistoryResult
/// let transactions = result?.result as? [PersistentHistoryTransaction] ?? []
/// ```
///
/// Fetches return every transaction after the token, date or transaction, oldest first, or
/// fail: a token whose transaction was deleted fails with 134301 (`historyTokenExpired`),
/// never with a partial list. Deletes remove the transactions strictly older than the
/// token, date or transaction. Stores opened without `NSPersistentHistoryTrackingKey` fail
/// with 134091 (`historyNotTracked`).
///
/// - Note: Mirrors `NSPersistentHistoryChangeRequest`.
public final class PersistentHistoryChangeRequest: PersistentStoreRequest {
    /// What the result holds. Default ``PersistentHistoryResultType/transactionsAndChanges``
    /// (for a delete, ``PersistentHistoryResultType/statusOnly``).
    public var resultType: PersistentHistoryResultType
    /// The token the request fetches after or deletes before; `nil` for requests made
    /// otherwise.
    public let token: PersistentHistoryToken?
    /// A fetch request on ``PersistentHistoryTransaction/entityDescription`` or
    /// ``PersistentHistoryChange/entityDescription`` that filters what the request returns
    /// (its predicate, sort, offset and limit), read when the request runs. Set it on any
    /// fetch request, as Apple's recipe does to leave out the app's own transactions:
    ///
    /// ```swift
    /// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
    /// if let filter = PersistentHistoryTransaction.fetchRequest {
    ///     filter.predicate = try FetchPredicate(format: "%K != %@", "author", "app")
    ///     request.fetchRequest = filter
    /// }
    /// ```
    ///
    /// - Note: Mirrors `fetchRequest`.
    public var fetchRequest: (any HistoryFetchRequestConvertible)?

    /// Where the request starts or ends.
    enum Bound {
        case token(PersistentHistoryToken?)
        case date(Date)
        case transaction(PersistentHistoryTransaction?)
        case all
    }

    let bound: Bound
    let isDelete: Bool

    private init(bound: Bound, isDelete: Bool, token: PersistentHistoryToken? = nil) {
        self.bound = bound
        self.isDelete = isDelete
        self.token = token
        self.resultType = isDelete ? .statusOnly : .transactionsAndChanges
        super.init(entityName: "PersistentHistoryTransaction")
    }

    /// The transactions after `token`'s, of every store; all of them for `nil`.
    ///
    /// - Note: Mirrors `fetchHistory(after:)` with a token.
    public static func fetchHistory(after token: PersistentHistoryToken?)
        -> PersistentHistoryChangeRequest
    {
        PersistentHistoryChangeRequest(bound: .token(token), isDelete: false, token: token)
    }

    /// The transactions whose timestamp is after `date`.
    ///
    /// - Note: Mirrors `fetchHistory(after:)` with a date.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(bound: .date(date), isDelete: false)
    }

    /// The transactions after `transaction`; all of them for `nil`.
    ///
    /// - Note: Mirrors `fetchHistory(after:)` with a transaction.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?)
        -> PersistentHistoryChangeRequest
    {
        PersistentHistoryChangeRequest(
            bound: .transaction(transaction), isDelete: false, token: transaction?.token)
    }

    /// The transactions (or changes) a fetch request on
    /// ``PersistentHistoryTransaction/entityDescription`` or
    /// ``PersistentHistoryChange/entityDescription`` selects: transactions filtered by
    /// `author`, `contextName`, `timestamp`, …; changes by `changedEntity` (an entity name),
    /// `changeType`, ….
    ///
    /// ```swift
    /// let filter = PersistentHistoryTransaction.fetchRequest!
    /// filter.predicate = try FetchPredicate(format: "author != %@", "app")
    /// let request = PersistentHistoryChangeRequest.fetchHistory(withFetchRequest: filter)
    /// ```
    ///
    /// - Note: Mirrors `fetchHistory(withFetchRequest:)`.
    public static func fetchHistory<R>(withFetchRequest fetchRequest: FetchRequest<R>)
        -> PersistentHistoryChangeRequest
    {
        let request = PersistentHistoryChangeRequest(bound: .all, isDelete: false)
        request.fetchRequest = fetchRequest
        return request
    }

    /// Deletes the transactions before `token`'s (its own stays); all of them for `nil`.
    ///
    /// - Note: Mirrors `deleteHistory(before:)` with a token.
    public static func deleteHistory(before token: PersistentHistoryToken?)
        -> PersistentHistoryChangeRequest
    {
        PersistentHistoryChangeRequest(bound: .token(token), isDelete: true, token: token)
    }

    /// Deletes the transactions whose timestamp is before `date` (the run of them from the
    /// oldest on).
    ///
    /// - Note: Mirrors `deleteHistory(before:)` with a date.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(bound: .date(date), isDelete: true)
    }

    /// Deletes the transactions before `transaction` (it stays); all of them for `nil`.
    ///
    /// - Note: Mirrors `deleteHistory(before:)` with a transaction.
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?)
        -> PersistentHistoryChangeRequest
    {
        PersistentHistoryChangeRequest(
            bound: .transaction(transaction), isDelete: true, token: transaction?.token)
    }

    /// The request's kind and bound.
    public override var description: String {
        "PersistentHistoryChangeRequest(\(isDelete ? "delete before" : "fetch after") \(bound))"
    }
}

/// The result of a ``PersistentHistoryChangeRequest``: ``PersistentStoreResult/result`` holds
/// what the request's ``PersistentHistoryChangeRequest/resultType`` asked for, which
/// ``historyResultType`` repeats.
///
/// - Note: Mirrors `NSPersistentHistoryResult`, whose `resultType` is
///   ``historyResultType`` here: the inherited `resultType` is the batch requests' type and
///   reads `.statusOnly`.
public final class PersistentHistoryResult: PersistentStoreResult {
    /// What ``PersistentStoreResult/result`` holds.
    public let historyResultType: PersistentHistoryResultType

    init(result: Any, historyResultType: PersistentHistoryResultType) {
        self.historyResultType = historyResultType
        super.init(result: result, resultType: .statusOnly)
    }
}

/// A fetch request a ``PersistentHistoryChangeRequest`` can filter with: every
/// ``FetchRequest``.
public protocol HistoryFetchRequestConvertible: AnyObject {
    /// The entity, predicate, sort, offset and limit, as they are now.
    var historyFetchFilter: HistoryFetchFilter { get }
}

extension FetchRequest: HistoryFetchRequestConvertible {
    /// The entity, predicate, sort, offset and limit, as they are now.
    public var historyFetchFilter: HistoryFetchFilter { HistoryFetchFilter(self) }
}
