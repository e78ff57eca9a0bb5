import Foundation
import Testing

@testable import ObjectGraph

/// Deterministic crashes through the I/O seam: at every step of a save and of a compaction
/// (after k bytes of a write, before and after each sync and the rename), as a killed process
/// and as a power cut that drops everything never synced.
@Suite struct JSONLinesCrashSimulationTests {
    let model: ManagedObjectModel
    let rows: FileStoreFixtures.Rows
    let url = URL(fileURLWithPath: "/sim/store.jsonl")

    init() throws {
        model = try FileStoreFixtures.model()
        rows = FileStoreFixtures.Rows(
            model: model, store: FileStoreFixtures.options().storeIdentifier!)
    }

    private func open(_ fs: SimulatedFileSystem, _ sync: SynchronousMode = .full) throws
        -> JSONLinesStore
    {
        var options = FileStoreFixtures.options(synchronous: sync)
        options.automaticCompaction = false
        return try JSONLinesStore(model: model, url: url, options: options, fileSystem: fs)
    }

    /// A closed store with three transactions (one update and one delete leave dead lines).
    private func base() throws -> SimulatedFileSystem {
        let fs = SimulatedFileSystem()
        let store = try open(fs)
        try store.commit(
            StoreChangeSet(
                inserted: [
                    rows.row("Category", 1, ["name": .attribute(.string("Food"))]),
                    rows.expense(1, seed: 1, category: 1), rows.expense(2, seed: 2),
                ],
                timestamp: Date(timeIntervalSince1970: 10)))
        try store.commit(
            StoreChangeSet(
                updated: [rows.expense(1, version: 2, seed: 11, category: 1)],
                timestamp: Date(timeIntervalSince1970: 11)))
        try store.commit(
            StoreChangeSet(
                deleted: [(rows.id("Expense", 2), 1)], timestamp: Date(timeIntervalSince1970: 12)))
        store.close()
        return fs
    }

    /// The save the save-crash tests interrupt.
    private var save: StoreChangeSet {
        StoreChangeSet(
            inserted: [rows.expense(3, seed: 3, category: 1)],
            updated: [
                rows.row("Category", 1, version: 2, ["name": .attribute(.string("Groceries"))])
            ],
            deleted: [(rows.id("Expense", 1), 2)], author: "crash",
            timestamp: Date(timeIntervalSince1970: 13))
    }

    private func state(_ fs: SimulatedFileSystem) throws -> (
        rows: [ManagedObjectID: StoreRow], last: Int64
    ) {
        let store = try open(fs)
        defer { store.close() }
        return (try FileStoreFixtures.allRows(store), try store.statistics().lastTransactionNumber)
    }

    /// Crash points for an operation list: (operation index, bytes of a write to keep).
    private func crashPoints(_ operations: [SimulatedFileSystem.Operation]) -> [(Int, Int?)] {
        var points: [(Int, Int?)] = []
        for (i, op) in operations.enumerated() {
            points.append((i, nil))
            if case .write(_, let n) = op {
                // Cuts at the start, in the middle, inside and around the checksum member, before the LF.
                let ks = Set([1, 2, 7, n / 3, n / 2, n - 19, n - 18, n - 17, n - 10, n - 2, n - 1])
                points += ks.filter { $0 > 0 && $0 < n }.sorted().map { (i, $0) }
            }
        }
        points.append((operations.count, nil))
        return points
    }

    @Test(arguments: [SynchronousMode.full, .normal, .off], SimulatedFileSystem.CrashKind.allCases)
    func aCrashDuringASaveKeepsExactlyTheCommittedTransactions(
        sync: SynchronousMode,
        crash: SimulatedFileSystem.CrashKind
    ) throws {
        let base = try base()
        let before = try state(base.copy())
        let probe = base.copy()
        let probeStore = try open(probe, sync)
        probe.inject { _, _ in nil }
        try probeStore.commit(save)
        let operations = probe.operations
        let after = (try FileStoreFixtures.allRows(probeStore), before.last + 1)
        #expect(operations.first.map { if case .write = $0 { true } else { false } } == true)
        #expect(operations.count == (sync == .full ? 2 : 1), "\(operations)")
        for (index, keep) in crashPoints(operations) {
            let fs = base.copy()
            let store = try open(fs, sync)
            fs.inject { _, i in i == index ? (keep.map { .partialThenCrash($0) } ?? .crash) : nil }
            let returned = (try? store.commit(save)) != nil
            #expect(returned == (index == operations.count))
            let restarted = fs.afterCrash(crash)
            let written = index > 0  // the whole line reached the page cache
            let synced = sync == .full && index > 1
            let committed = crash == .kill ? written : synced
            let point =
                "\(crash): crash before op \(index) keeping \(keep.map(String.init) ?? "-") bytes"
            let torn = crash == .kill && index == 0 && keep != nil
            let reopened = try open(restarted, sync)
            #expect(reopened.recoveryNotices.count == (torn ? 1 : 0), "\(point)")
            #expect(
                restarted.contents(url.path)?.count == (try reopened.statistics().fileBytes),
                "the writer truncates a torn line: \(point)")
            reopened.close()
            let seen = try state(restarted)
            #expect(seen.rows == (committed ? after.0 : before.rows), "\(point)")
            #expect(seen.last == (committed ? after.1 : before.last), "\(point)")
            // The reopened store accepts the save (again, or next) and keeps it.
            let again = try open(restarted, sync)
            var next =
                committed ? StoreChangeSet(inserted: [rows.row("Tag", 9)], timestamp: Date()) : save
            next.timestamp = Date(timeIntervalSince1970: 99)
            try again.commit(next)
            again.close()
            #expect(try state(restarted).last == seen.last + 1, "\(point)")
        }
    }

    @Test(arguments: SimulatedFileSystem.CrashKind.allCases)
    func aCrashDuringCompactionNeverLosesTheFile(crash: SimulatedFileSystem.CrashKind) throws {
        // B38
        let base = try base()
        let before = try state(base.copy())
        let probe = base.copy()
        let probeStore = try open(probe)
        probe.inject { _, _ in nil }
        try probeStore.compact()
        let operations = probe.operations
        #expect(
            operations.map(\.description) == [
                "open store.jsonl.tmp", operations[1].description,
                "fsync store.jsonl.tmp", "rename store.jsonl.tmp → store.jsonl",
                "fsync directory",
            ])
        for (index, keep) in crashPoints(operations) {
            let fs = base.copy()
            let store = try open(fs)
            fs.inject { _, i in i == index ? (keep.map { .partialThenCrash($0) } ?? .crash) : nil }
            let returned = (try? store.compact()) != nil
            #expect(returned == (index == operations.count))
            let restarted = fs.afterCrash(crash)
            let point =
                "\(crash): crash before op \(index) keeping \(keep.map(String.init) ?? "-") bytes"
            let seen = try state(restarted)
            #expect(seen.rows == before.rows, "\(point)")
            #expect(seen.last == before.last, "\(point)")
            #expect(
                !restarted.paths.contains(url.path + ".tmp"),
                "the writer removes a leftover temporary file")
            let again = try open(restarted)
            try again.commit(StoreChangeSet(inserted: [rows.row("Tag", 9)], timestamp: Date()))
            again.close()
            #expect(try state(restarted).last == before.last + 1)
        }
    }

    @Test func aCrashWhileCreatingLeavesNoFileOrACompleteOne() throws {
        for crash in SimulatedFileSystem.CrashKind.allCases {
            let probe = SimulatedFileSystem()
            probe.inject { _, _ in nil }
            try open(probe).close()
            let operations = probe.operations.filter {
                if case .open(let p) = $0 { !p.hasSuffix(".lock") } else { true }
            }
            for index in 0...(probe.operations.count) {
                let fs = SimulatedFileSystem()
                fs.inject { _, i in i == index ? .crash : nil }
                _ = try? open(fs)
                let restarted = fs.afterCrash(crash)
                if let bytes = restarted.contents(url.path), !bytes.isEmpty {
                    #expect(bytes.last == 0x0A, "a store file exists only with a complete header")
                }
                let store = try open(restarted)
                #expect(try FileStoreFixtures.allRows(store).isEmpty)
                store.close()
            }
            #expect(operations.count >= 4)
        }
    }
}
