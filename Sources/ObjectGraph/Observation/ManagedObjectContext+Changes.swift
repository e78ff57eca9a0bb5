import Foundation

/// One element of a change stream: the results as IDs, and how they changed.
///
/// - Note: Sendable, unlike managed objects: look objects up with `object(with:)` on the
///   queue of the context that uses them.
public struct FetchedResultsUpdate: Sendable, Hashable {
    /// The results: section names and object IDs, in order.
    public let snapshot: FetchedResultsSnapshot
    /// How ``objectIDs`` changed since the previous element (all insertions for the first).
    public let difference: CollectionDifference<ManagedObjectID>

    /// Every object ID, in order.
    public var objectIDs: [ManagedObjectID] { snapshot.itemIdentifiers }
}

extension ManagedObjectContext {
    /// The results of `request` now and after every context event that changes them, as
    /// `Sendable` snapshots of object IDs: for server and command-line code.
    ///
    /// ```swift
    /// for try await update in context.changes(for: request) {
    ///     print(update.objectIDs.count, update.difference.insertions.count)
    /// }
    /// ```
    ///
    /// The first element comes as soon as the fetch has run on the context's queue; then one
    /// element per event that changes the results (the end of a `perform`, a
    /// `processPendingChanges()`, a save, a merge). After the context's `reset()` the request
    /// is fetched again and the new results yielded. Cancelling the consuming task (or
    /// dropping the stream) stops following the context and releases the observer. Elements
    /// are buffered without limit until read.
    ///
    /// - Parameters:
    ///   - request: The request; it needs at least one sort descriptor. It is read on the
    ///     context's queue: do not change it while the stream runs.
    ///   - sectionNameKeyPath: A key path naming each object's section, or `nil`.
    /// - Returns: A stream that finishes by throwing the fetch's error when the request is
    ///   refused or fails (as ``FetchedResultsController/performFetch()``).
    /// - Complexity: O(n) per element to copy the IDs, plus the difference.
    public func changes<Result: ManagedObject>(
        for request: FetchRequest<Result>, sectionNameKeyPath: String? = nil
    ) -> AsyncThrowingStream<FetchedResultsUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let follower = UncheckedSendable(
                ChangeFollower(request: request, sectionNameKeyPath: sectionNameKeyPath))
            let box = UncheckedSendable(continuation)
            perform { [self] in follower.value.start(in: self, box.value) }
            continuation.onTermination = { [weak self] _ in
                self?.perform { follower.value.stop() }
            }
        }
    }
}

/// Follows a request in a context for ``ManagedObjectContext/changes(for:sectionNameKeyPath:)``.
/// Lives on the context's queue.
final class ChangeFollower<Result: ManagedObject> {
    private let request: FetchRequest<Result>
    private let sectionNameKeyPath: String?
    private var controller: FetchedResultsController<Result>?
    private let listener = ResultsListener()
    private var lastIDs: [ManagedObjectID] = []
    private var stopped = false
    private var continuation: AsyncThrowingStream<FetchedResultsUpdate, any Error>.Continuation?

    init(request: FetchRequest<Result>, sectionNameKeyPath: String?) {
        self.request = request
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    func start(
        in context: ManagedObjectContext,
        _ continuation: AsyncThrowingStream<FetchedResultsUpdate, any Error>.Continuation
    ) {
        guard !stopped else { return }
        self.continuation = continuation
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
        controller.delegate = listener
        listener.onChange = { [unowned self] updated in yield(reloaded: updated) }
        controller.invalidationHandler = { [unowned self] in fetch() }
        self.controller = controller
        fetch()
    }

    func stop() {
        stopped = true
        controller?.delegate = nil
        controller = nil
        continuation = nil
    }

    private func fetch() {
        do {
            try controller?.performFetch()
            yield(reloaded: [])
        } catch {
            continuation?.finish(throwing: error)
            stop()
        }
    }

    private func yield(reloaded: [ManagedObjectID]) {
        guard let controller, let continuation else { return }
        let snapshot = controller.snapshot(reloaded: reloaded)
        let ids = snapshot.itemIdentifiers
        let difference = ids.difference(from: lastIDs).inferringMoves()
        lastIDs = ids
        continuation.yield(FetchedResultsUpdate(snapshot: snapshot, difference: difference))
    }
}
