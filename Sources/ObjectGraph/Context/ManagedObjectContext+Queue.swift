import Foundation

extension ManagedObjectContext {
    /// Runs `block` on the context's queue and waits for it; reentrant; returns its value and
    /// rethrows its error.
    ///
    /// Unlike ``perform(_:)-(()->Void)``, it does not end the event, as in Core Data: changes
    /// made in the block are announced, and their delete rules run, at the next
    /// ``processPendingChanges()``, `perform` block or `save()` (for a main-queue context,
    /// at the latest at the end of the main queue's turn). Objects the context handed out in
    /// the block (fetch results, `object(with:)`) are kept until it returns to a caller
    /// outside the queue. Called from code already on this context's queue, the block runs
    /// inline.
    ///
    /// ```swift
    /// let count = try context.performAndWait { try context.count(for: request) }
    /// ```
    ///
    /// - Note: Mirrors `performAndWait(_:)`.
    @discardableResult
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if ownsQueue { return try block() }
        let lent = QueueOwnership.lendable
        return try withoutActuallyEscaping(block) { block in
            var result: Result<T, any Error>!
            let owned = lent.union(queue.blockOwnership)
            queue.sync("performAndWait", self) {
                QueueOwnership.with(owned, adding: ObjectIdentifier(self)) {
                    result = Result { try block() }
                    // Not the end of an event; but the caller leaves the queue, so objects
                    // handed out in the block live on only where the caller keeps them.
                    releaseEventObjects()
                }
            }
            return try result.get()
        }
    }

    /// Runs `block` on the context's queue asynchronously and returns its value.
    ///
    /// Ends the event when the block ends, as ``perform(_:)-(()->Void)`` does.
    ///
    /// ```swift
    /// let names = try await context.perform { try context.fetch(request).map(\.name) }
    /// ```
    ///
    /// - Throws: whatever `block` throws.
    /// - Note: Mirrors `perform(schedule:_:)`; Core Data's version `rethrows`, this one
    ///   always `throws` (a Swift limitation with continuations).
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T
    {
        try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<T, any Error>) in
            queue.async("perform (async)", self) { [self] in
                // The caller resumes once the event has ended (its objects-did-change posted).
                let result = QueueOwnership.with(
                    queue.blockOwnership, adding: ObjectIdentifier(self)
                ) {
                    let result = Result { try block() }
                    endEvent()
                    return result
                }
                continuation.resume(with: result)
            }
        }
    }

    /// Schedules `block` on the context's queue and returns at once.
    ///
    /// The end of the block ends the event, as in Core Data: pending changes are processed
    /// (delete rules run, one objects-did-change is posted on the context's queue) and the
    /// objects handed out in the block are released unless you keep them.
    ///
    /// - Note: Mirrors `perform(_:)`, which "encapsulates an autorelease pool and a call to
    ///   processPendingChanges".
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async("perform", self) { [self] in
            QueueOwnership.with(queue.blockOwnership, adding: ObjectIdentifier(self)) {
                block()
                endEvent()
            }
        }
    }

    /// Whether the current code may use this context.
    var ownsQueue: Bool {
        let owned = QueueOwnership.current
        if owned.contains(ObjectIdentifier(self)) { return true }
        return concurrencyType == .mainQueue && QueueOwnership.isOnMainQueue
    }

    /// Traps when the concurrency check is on and the caller does not own the context.
    @inline(__always)
    func checkQueue(_ call: @autoclosure () -> String) {
        guard ConcurrencyCheck.isEnabled, !ownsQueue else { return }
        ConcurrencyCheck.fail(context: description, call: call())
    }
}

/// The concurrency check: Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`, on by default
/// in debug builds.
///
/// `OBJECTGRAPH_CONCURRENCY_CHECK=0` turns it off; `=1` turns it on in release builds.
public enum ConcurrencyCheck {
    /// Whether misuse traps. Read once, from the environment and the build configuration.
    public static let isEnabled: Bool = {
        if let value = ProcessInfo.processInfo.environment["OBJECTGRAPH_CONCURRENCY_CHECK"] {
            return value != "0"
        }
        #if DEBUG
            return true
        #else
            return false
        #endif
    }()

    static func fail(context: String, call: String) -> Never {
        preconditionFailure(
            """
            ObjectGraph concurrency violation: \(call) on \(context) from outside its queue. \
            Use the context (and its objects) only inside perform/performAndWait, or directly \
            on the main queue for a main-queue context; pass ManagedObjectID across queues.
            """)
    }
}
