import Foundation
import Testing

@testable import ObjectGraph

/// The engine's stores run a change set's `StoreCommitOverlap` work (the saver's adoption) on
/// the committing thread while a second thread updates their rows, only for a change set of
/// at least the overlap's threshold, once, and only when the commit can no longer fail.
@Suite struct StoreCommitOverlapTests {
    /// The stores: in memory, and a file (with `fs`, whose faults the tests inject).
    static let kinds = ["InMemory", "JSONLines"]

    let model: ManagedObjectModel
    let rows: FileStoreFixtures.Rows
    let fs = FaultInjectingFileSystem()

    init() throws {
        model = try FileStoreFixtures.model()
        rows = FileStoreFixtures.Rows(
            model: model, store: FileStoreFixtures.options().storeIdentifier!)
    }

    private func open(_ kind: String) throws -> any PersistentStore {
        let options = FileStoreFixtures.options()
        guard kind == "JSONLines" else { return InMemoryStore(model: model, options: options) }
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("s.jsonl")
        return try JSONLinesStore(model: model, url: url, options: options, fileSystem: fs)
    }

    /// Three inserted expenses, offering `overlap`.
    private func insert(_ first: Int64, offering overlap: StoreCommitOverlap?) -> StoreChangeSet {
        var changes = StoreChangeSet(
            inserted: (first..<first + 3).map { rows.expense($0, seed: Int($0)) },
            timestamp: Date(timeIntervalSince1970: 5))
        changes.overlap = overlap
        return changes
    }

    /// Records where and how often the work ran.
    final class Ran: @unchecked Sendable {
        // Sendable: every property is guarded by `lock`.
        private let lock = NSLock()
        private var threads: [Thread] = []
        var count: Int { lock.withLock { threads.count } }
        var onlyOn: Thread? { lock.withLock { threads.count == 1 ? threads[0] : nil } }
        func note() { lock.withLock { threads.append(Thread.current) } }
    }

    /// Three rows: a threshold of 3 claims the work (run once, on the committing thread,
    /// before the commit returns); one of 4 leaves it to the saver.
    @Test(arguments: kinds, [3, 4])
    func aChangeSetRunsTheWorkFromItsThresholdOnElseLeavesItToTheSaver(
        kind: String, threshold: Int
    ) throws {
        let store = try open(kind)
        let ran = Ran()
        let overlap = StoreCommitOverlap(threshold: threshold) { ran.note() }
        try store.commit(insert(1, offering: overlap))
        let claimed = threshold <= 3
        #expect(ran.count == (claimed ? 1 : 0))
        #expect(!claimed || ran.onlyOn == Thread.current)
        let unclaimed = overlap.takeUnclaimed()
        #expect((unclaimed == nil) == claimed)
        unclaimed?()
        #expect(ran.count == 1)
        #expect(overlap.takeUnclaimed() == nil)
        #expect(try FileStoreFixtures.allRows(store).count == 3)
        #expect(try store.row(for: rows.id("Expense", 2)) == rows.expense(2, seed: 2))
    }

    @Test(arguments: kinds)
    func aCommitThatFailsLeavesTheWorkUnclaimedAndTheRowsUnchanged(kind: String) throws {
        let store = try open(kind)
        try store.commit(insert(1, offering: nil))
        let before = try FileStoreFixtures.allRows(store)
        let ran = Ran()
        let overlap = StoreCommitOverlap(threshold: 0) { ran.note() }
        // A clash with a row the store has (both stores), then a failed write (the file).
        #expect { try store.commit(insert(3, offering: overlap)) } throws: {
            ($0 as? ObjectGraphError)?.reason == .storeSaveConflict
        }
        if kind == "JSONLines" {
            fs.failNext(.sync, .fail(EIO))
            #expect { try store.commit(insert(4, offering: overlap)) } throws: {
                ($0 as? ObjectGraphError)?.reason == .storeWriteFailed
            }
        }
        #expect(ran.count == 0)
        #expect(try FileStoreFixtures.allRows(store) == before)
        #expect(overlap.takeUnclaimed() != nil)
    }

    /// A row table applies a change set with the overlap exactly as without it.
    @Test func aTableAppliesAChangeSetAlongsideTheWorkAsWithoutIt() throws {
        var plain = RowTable(model: model, storeIdentifier: rows.store)
        var overlapped = RowTable(model: model, storeIdentifier: rows.store)
        let ran = Ran()
        for first in stride(from: Int64(1), through: 10, by: 3) {
            plain.applyUnchecked(insert(first, offering: nil))
            let overlap = StoreCommitOverlap(threshold: 0) { ran.note() }
            let changes = insert(first, offering: overlap)
            overlapped.applyUnchecked(changes, alongside: changes.overlap)
        }
        #expect(ran.count == 4)
        #expect(overlapped.allRows() == plain.allRows())
        #expect(overlapped.primaryKeyCounters == plain.primaryKeyCounters)
    }

    /// A pool thread that starts the background work before the foreground is done runs it
    /// (once, on its own thread), and the caller waits for it: the work has finished when
    /// `run` returns.
    @Test func aBackgroundJobAPoolThreadStartedRunsWhileTheCallerWaits() {
        let ran = Ran()
        let started = DispatchSemaphore(value: 0)
        StoreCommitOverlap.run(
            {
                started.signal()
                ran.note()
            },
            alongside: { started.wait() },
            dispatch: { block in Thread { block() }.start() })
        #expect(ran.count == 1)
        #expect(ran.onlyOn.map { $0 != Thread.current } == true)
    }

    /// A background job that no pool thread starts is run by the caller once the foreground is
    /// done; the pool's block, run later, does nothing; and the work (with what it captures) is
    /// released when it has run, not when the pool's block is.
    @Test func aBackgroundJobNoPoolThreadStartedIsRunByTheCallerAndReleased() {
        final class Captured: Sendable {}
        let ran = Ran()
        var pending: (@Sendable () -> Void)?
        weak var captured: Captured?
        do {
            let held = Captured()
            captured = held
            StoreCommitOverlap.run(
                {
                    withExtendedLifetime(held) { ran.note() }
                },
                alongside: {},
                dispatch: { pending = $0 })
        }
        #expect(ran.count == 1)
        #expect(ran.onlyOn == Thread.current)
        #expect(captured == nil)
        #expect(pending != nil)
        pending?()
        #expect(ran.count == 1)
    }
}
