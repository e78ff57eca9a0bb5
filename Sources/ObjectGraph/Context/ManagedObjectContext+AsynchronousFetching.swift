import Foundation

extension ManagedObjectContext {
    /// How many results an asynchronous fetch makes ready between progress reports and
    /// cancellation checks.
    static let asynchronousFetchChunk = 1024

    /// Starts `request` on the context's queue and returns at once; its completion block runs
    /// on that queue when the fetch ends.
    ///
    /// The fetch runs as a later ``perform(_:)-(()->Void)`` block would, seeing the context
    /// as it is then (unsaved changes included, as ``fetch(_:)`` does). The store query runs in
    /// one step; the results are then made ready in chunks, each reported to the progress,
    /// with a cancellation check before the query and between chunks. A cancelled fetch ends
    /// with `operationError` `NSUserCancelledError` (3072) and no `finalResult`.
    ///
    /// - Returns: The result: its `progress` now, `finalResult` or `operationError` when the
    ///   completion block runs.
    /// - Throws: Nothing today (errors of the fetch go to `operationError`); `throws` as Core
    ///   Data's `execute(_:)` does.
    /// - Complexity: As ``fetch(_:)``.
    /// - Note: Mirrors `execute(_:)` with an `NSAsynchronousFetchRequest`.
    @discardableResult
    public func execute<Result>(_ request: AsynchronousFetchRequest<Result>) throws
        -> AsynchronousFetchResult<Result>
    {
        checkQueue("execute(AsynchronousFetchRequest)")
        let result = AsynchronousFetchResult(request, context: self)
        perform { [self] in runAsynchronousFetch(result) }
        return result
    }

    private func runAsynchronousFetch<Result>(_ result: AsynchronousFetchResult<Result>) {
        let request = result.fetchRequest.fetchRequest
        let progress = result.progress
        let cancelled = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.userCancelled.rawValue,
            userInfo: [NSLocalizedDescriptionKey: "the asynchronous fetch was cancelled"])
        do {
            if progress.isCancelled { throw cancelled }
            let plain =
                request.resultType == .managedObjectResultType && request.swiftPredicate == nil
                && request.swiftSortDescriptors.isEmpty
            guard plain else {
                let values = try fetch(request)
                progress.totalUnitCount = Int64(values.count)
                progress.completedUnitCount = Int64(values.count)
                if progress.isCancelled { throw cancelled }
                result.finalResult = values
                result.fetchRequest.completionBlock?(result)
                return
            }
            let query = FetchQuery(request, entity: try resolveEntity(request))
            let objects = try self.objects(query)
            progress.totalUnitCount = Int64(objects.count)
            var typed: [Result] = []
            typed.reserveCapacity(objects.count)
            var start = 0
            while start < objects.count {
                if progress.isCancelled { throw cancelled }
                let end = min(start + Self.asynchronousFetchChunk, objects.count)
                for object in objects[start..<end] {
                    if !request.returnsObjectsAsFaults && object.isFault { object.fireFault() }
                    guard let value = object as? Result else {
                        throw ObjectGraphError(
                            .resultTypeMismatch,
                            "fetch: \(object.entity.name) objects are not \(Result.self)",
                            entityName: object.entity.name)
                    }
                    typed.append(value)
                }
                progress.completedUnitCount = Int64(end)
                start = end
            }
            try prefetch(request.relationshipKeyPathsForPrefetching, for: objects)
            keepForEvent(objects)
            result.finalResult = typed
        } catch {
            result.operationError = error
        }
        result.fetchRequest.completionBlock?(result)
    }

    /// The IDs of the objects `request` matches, fetched on the context's queue, for use on
    /// any queue (IDs are `Sendable`; objects are not).
    ///
    /// The fetch sees the context as a ``perform(_:)-(()->Void)`` block would (unsaved
    /// changes included); `resultType` is ignored. This is a separate name, not an `async`
    /// overload of ``fetch(_:)``, so that `try context.fetch(r)` keeps compiling unchanged
    /// inside `async` functions.
    ///
    /// ```swift
    /// let ids = try await context.fetchObjectIDs(FetchRequest<Transaction>(entityName: "Transaction"))
    /// ```
    ///
    /// - Throws: As ``fetch(_:)``.
    /// - Complexity: As ``fetch(_:)``.
    /// - Note: The `async` counterpart of `NSAsynchronousFetchRequest` with
    ///   `.managedObjectIDResultType`.
    public func fetchObjectIDs<Result>(_ request: FetchRequest<Result>) async throws
        -> [ManagedObjectID]
    {
        let handed = HandedRequest(request)
        return try await perform { [self] in
            let request = handed.request
            let query = FetchQuery(request, entity: try resolveEntity(request))
            if request.swiftPredicate == nil && request.swiftSortDescriptors.isEmpty {
                return try matchingIDs(query)
            }
            // Foundation filters run over objects: fetch them, keep their IDs.
            return try fetch(request).compactMap {
                ($0 as? ManagedObjectID) ?? ($0 as? ManagedObject)?.objectID
            }
        }
    }
}

/// A fetch request handed to the context's queue.
private struct HandedRequest<Result>: @unchecked Sendable {
    // Sendable: the caller gives the request up to the context's queue, where alone it is
    // read (a request is plain data, used on one queue at a time).
    let request: FetchRequest<Result>
    init(_ request: FetchRequest<Result>) { self.request = request }
}
