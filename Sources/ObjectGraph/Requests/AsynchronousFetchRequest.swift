import Foundation

/// A fetch that runs later on the context's queue and hands its result to a completion block,
/// with a `Progress` that counts the results and whose cancellation stops it.
///
/// ```swift
/// let request = AsynchronousFetchRequest(fetchRequest: FetchRequest<Transaction>(entityName: "Transaction")) { result in
///     // on the context's queue
///     let transactions = result.finalResult ?? []
/// }
/// let running = try context.execute(request)
/// running.progress.cancel()   // stops it between chunks of results
/// ```
///
/// - Important: Build it on the context's queue and read the objects the result holds there
///   only, as with a plain fetch; for work off the queue, use
///   ``ManagedObjectContext/fetchObjectIDs(_:)`` and pass the IDs.
/// - Note: Mirrors `NSAsynchronousFetchRequest<ResultType>`.
public final class AsynchronousFetchRequest<Result>: @unchecked Sendable {
    // Sendable: handed once to the context's queue, and used there only afterwards (the
    // request and its completion run on that queue, as in Core Data).
    /// The fetch to run.
    public let fetchRequest: FetchRequest<Result>
    /// Runs on the context's queue when the fetch ends: finished, failed or cancelled.
    public let completionBlock: ((AsynchronousFetchResult<Result>) -> Void)?
    /// An estimate of the number of results, the progress's total until the real count is
    /// known. Default 0 (unknown).
    public var estimatedResultCount = 0

    /// Creates an asynchronous fetch of `fetchRequest`.
    ///
    /// - Note: Mirrors `init(fetchRequest:completionBlock:)`.
    public init(
        fetchRequest: FetchRequest<Result>,
        completionBlock: ((AsynchronousFetchResult<Result>) -> Void)?
    ) {
        self.fetchRequest = fetchRequest
        self.completionBlock = completionBlock
    }
}

/// What an asynchronous fetch returns at once: its progress now, and its results (or error)
/// when it ends.
///
/// - Note: Mirrors `NSAsynchronousFetchResult<ResultType>`.
public final class AsynchronousFetchResult<Result>: @unchecked Sendable {
    // Sendable: `finalResult` and `operationError` are written once on the context's queue
    // before the completion block runs there; read them there (or after the completion).
    /// The request this is the result of.
    public let fetchRequest: AsynchronousFetchRequest<Result>
    /// The context that runs the fetch.
    public private(set) weak var managedObjectContext: ManagedObjectContext?
    /// The results, once the fetch has finished; `nil` before, or when it failed or was
    /// cancelled.
    public internal(set) var finalResult: [Result]?
    /// Why the fetch failed: its error, or `NSUserCancelledError` (3072) when cancelled.
    public internal(set) var operationError: (any Error)?
    /// Counts results: `totalUnitCount` is the number of matches once known (the request's
    /// `estimatedResultCount` before), `completedUnitCount` the results ready so far.
    /// Cancelling it stops the fetch at its next check: before the query, and between chunks
    /// of results.
    public let progress: Progress

    init(_ request: AsynchronousFetchRequest<Result>, context: ManagedObjectContext) {
        fetchRequest = request
        managedObjectContext = context
        progress = Progress(totalUnitCount: Int64(request.estimatedResultCount))
    }

    /// Cancels the fetch (``progress``'s `cancel()`).
    ///
    /// - Note: Mirrors `NSPersistentStoreAsynchronousResult.cancel()`.
    public func cancel() { progress.cancel() }
}
