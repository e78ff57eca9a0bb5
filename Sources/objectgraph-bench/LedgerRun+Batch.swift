import Foundation
import LedgerKit

/// The batch workloads: `adjust` (one batch update of every amount, × 1.01 rounded to cents,
/// with its rule check) and `purge` (one batch delete of the half dated before 2020, the
/// CSV's middle year), each on a fresh copy of an imported ledger, open and close included.
/// Copying the file is not timed.
extension LedgerRun {
    /// Runs `adjust` and `purge` when wanted, on copies of `base` (an imported ledger).
    func runBatchWorkloads(base: URL, into ledgerURL: URL, _ reporter: Reporter) throws {
        let wanted = { (name: String) in options.only.isEmpty || options.only.contains(name) }
        if wanted("adjust") {
            let seconds = try (0..<options.repeats).map { _ in
                try copy(base, to: ledgerURL)
                return try timedBatch(ledgerURL, expecting: options.count) { ledger in
                    try ledger.adjustAmounts(.multiply(1.01), matching: TransactionQuery()).count
                }
            }
            emit("adjust", seconds, reporter)
        }
        if wanted("purge") {
            let before = LedgerDates.parse("2020-01-01")!
            let seconds = try (0..<options.repeats).map { _ in
                try copy(base, to: ledgerURL)
                // Rows 0 ..< ⌈N/2⌉ fall before 2020 (row i is in year 2015 + 10i/N).
                return try timedBatch(ledgerURL, expecting: (options.count + 1) / 2) { ledger in
                    try ledger.purge(before: before, matching: TransactionQuery()).count
                }
            }
            emit("purge", seconds, reporter)
        }
    }

    /// `body` on the ledger at `url` opened for writing, timed from opening to closing;
    /// `body` returns how many transactions it changed.
    private func timedBatch(
        _ url: URL, expecting changed: Int, _ body: (Ledger) throws -> Int
    ) throws -> Double {
        var count = -1
        var failure: (any Error)?
        Measurement.resetPeak()
        let start = Measurement.now()
        timedRegion {
            do {
                let ledger = try Ledger(LedgerConfiguration(storeURL: url), access: .write)
                defer { ledger.close() }
                count = try body(ledger)
            } catch { failure = error }
        }
        let seconds = Measurement.seconds(since: start)
        if let failure { throw failure }
        guard count == changed else {
            throw BenchError("ledger: a batch changed \(count) transactions, expected \(changed)")
        }
        return seconds
    }

    private func copy(_ base: URL, to url: URL) throws {
        try removeLedger(url)
        try FileManager.default.copyItem(at: base, to: url)
    }
}
