import Foundation

/// The saving context's adoption of a save (its objects re-keyed to their permanent IDs,
/// their versions advanced), handed to the store with a large change set so that it runs on
/// the committing thread while a second thread applies the change set to the store's rows.
///
/// After a large save's line is written and synced (or, in memory, once the change set is
/// checked), two steps remain that touch separate structures: the store's row table, and
/// the saving context's objects and registry. Run one after the other they left the
/// machine's second core idle (W1 file: ≈ 19 ms of table update, then ≈ 23 ms of re-keying
/// for 100,000 inserts). The store runs them at once (``RowTable/applyUnchecked(_:alongside:)``;
/// the committing thread takes the table update too when no pool thread has started it by
/// the time the adoption is done) only where nothing can fail any more, holding the coordinator's lock, its own lock (and
/// the file's writer lock) until both have finished: no other thread sees a half-updated
/// table or a half-re-keyed context, and everything after (history, the end record, write
/// reports, compaction, the coordinator's unlock, the save's notifications) runs as before,
/// on the committing thread. The locks are thus held for the adoption too: for both steps
/// in turn (W1 file at 100,000 inserts: ≈ 42 ms) when the committing thread runs the table
/// update itself, and a registered object whose last reference goes during the adoption
/// (the registry's move, `ObjectRegistry.move`) is deinitialised under the store's lock.
///
/// The saver gives one only where the adoption reads and writes nothing the table update
/// does: one store written, no row hand-off (whose closures change the saver's objects
/// while the table is patched, ``StoreRowHandoff``), nothing merged, taken over, rolled back
/// or planned (whose adoption may read the store). The rows the inserted objects keep are
/// the arrays the table takes; both sides only retain and release them (atomically), and
/// the change set holds them throughout, so neither side's copy-on-write check can find one
/// unique and change it in place. The work runs once: the first successful ``claim(applying:)``
/// takes it; a store that does not claim it (a small change set, a store of another kind, a
/// commit that fails or writes nothing) leaves it to the saver, which runs it after the
/// commit as before (``takeUnclaimed()``).
final class StoreCommitOverlap: @unchecked Sendable {
    // Sendable: `work` is read and cleared only while holding `lock`; the work itself runs on
    // the saving context's thread (the store's committing thread, or the saver after the
    // commit), never on the second thread.

    /// The fewest changes (rows inserted, updated, patched and deleted) a change set needs for
    /// its table update to run on a second thread: 4,096 (≈ 0.8 ms of table update, against
    /// a thread's hand-off and wake-up of some tens of microseconds); never on one core.
    static let defaultThreshold =
        ProcessInfo.processInfo.activeProcessorCount > 1 ? 4_096 : Int.max

    /// The fewest changes for which a store claims the work (see ``defaultThreshold``).
    let threshold: Int
    /// The saver's adoption until it is claimed; `nil` after.
    private var work: (() -> Void)?
    /// Serialises the claims.
    private let lock = NSLock()

    /// An overlap offering `work` to a store applying at least `threshold` changes.
    init(threshold: Int, work: @escaping () -> Void) {
        self.threshold = threshold
        self.work = work
    }

    /// The work, for a store about to apply `count` changes that nothing can fail any more:
    /// `nil` when `count` is under the threshold or the work was claimed already.
    func claim(applying count: Int) -> (() -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        guard count >= threshold, let claimed = work else { return nil }
        work = nil
        return claimed
    }

    /// The work when no store claimed it (the saver runs it now), else `nil`.
    func takeUnclaimed() -> (() -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        let unclaimed = work
        work = nil
        return unclaimed
    }

    /// Runs `background` on a second thread and `foreground` on this one, and returns once
    /// both have finished (everything `background` wrote is then visible to this thread).
    ///
    /// When this thread finishes `foreground` before a pool thread has started `background`
    /// (a loaded machine, where no core is free), it runs `background` itself instead of
    /// waiting: it never waits for a pool thread that has not started.
    ///
    /// - Parameter dispatch: hands `background`'s job to a second thread (the global queue;
    ///   tests pass one that runs it on a thread of their own, or never).
    /// - Precondition: the two touch no common state, except to retain and release.
    static func run(
        _ background: @escaping @Sendable () -> Void, alongside foreground: () -> Void,
        dispatch: (@escaping @Sendable () -> Void) -> Void = {
            DispatchQueue.global(qos: .userInitiated).async(execute: $0)
        }
    ) {
        let job = BackgroundJob(background)
        dispatch { job.runIfUnclaimed() }
        foreground()
        job.finish()
    }
}

/// One ``StoreCommitOverlap/run(_:alongside:dispatch:)``'s background work: run by the pool
/// thread that gets to it first, or by the caller when none has started it.
private final class BackgroundJob: @unchecked Sendable {
    // Sendable: `body` is read and cleared only while holding `lock`; it runs on one thread
    // only (the one that took it).

    /// The work until a thread takes it; `nil` after, so that what it captures (the change
    /// set, the table) is released when it has run, not when the pool's block is released
    /// (which, when the caller took the work, can be long after the save).
    private var body: (@Sendable () -> Void)?
    /// Serialises the taking of `body`.
    private let lock = NSLock()
    /// Signalled when the pool thread has run the work.
    private let done = DispatchSemaphore(value: 0)

    /// A job for `body`.
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    /// The work, for the first thread to ask (it is then cleared); `nil` for any other.
    private func take() -> (@Sendable () -> Void)? {
        lock.withLock {
            defer { body = nil }
            return body
        }
    }

    /// The pool thread's part: runs the work unless the caller took it.
    func runIfUnclaimed() {
        guard let work = take() else { return }
        work()
        done.signal()
    }

    /// The caller's part: runs the work when no pool thread has started it, else waits for it.
    func finish() {
        if let work = take() { work() } else { done.wait() }
    }
}

extension StoreChangeSet {
    /// How many changes the change set holds: rows inserted, updated, patched and deleted.
    var changeCount: Int { inserted.count + updated.count + patched.count + deleted.count }
}

extension RowTable {
    /// ``applyUnchecked(_:)``, on a second thread while this one runs the saver's adoption when
    /// the change set carries a ``StoreCommitOverlap`` that this application claims (a large
    /// change set, the first application); else on this thread alone.
    ///
    /// The caller holds the store's lock (and the writer lock) throughout, and calls this only
    /// where nothing can fail any more: the change set is checked, and its line written.
    mutating func applyUnchecked(_ changes: StoreChangeSet, alongside overlap: StoreCommitOverlap?)
    {
        guard let work = overlap?.claim(applying: changes.changeCount) else {
            applyUnchecked(changes)
            return
        }
        withUnsafeMutablePointer(to: &self) { table in
            let target = TablePointer(table: table)
            StoreCommitOverlap.run(
                { target.table.pointee.applyUnchecked(changes) }, alongside: work)
        }
    }
}

/// The row table being applied to, handed to the second thread for one
/// ``RowTable/applyUnchecked(_:alongside:)``.
private struct TablePointer: @unchecked Sendable {
    // Sendable: one thread only applies the change set to the table: the pool thread that
    // took the job (the committing thread, which holds the store's lock, then waits for it
    // before touching the table again), or the committing thread itself when it took the job
    // over (`StoreCommitOverlap.run`).

    /// The table, valid for the application.
    let table: UnsafeMutablePointer<RowTable>
}
