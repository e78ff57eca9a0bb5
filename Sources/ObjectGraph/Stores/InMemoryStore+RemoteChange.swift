import Foundation

extension InMemoryStore: WriteReportingStore {
    /// Reports each commit from now on (a RAM store has no other writers).
    func startReportingWrites(to report: @escaping @Sendable (StoreWrite) -> Void) {
        locked { reporting = WriteReporting(report: report, reported: transactionCount) }
    }

    /// Stops reporting.
    func stopReportingWrites() {
        locked { reporting = nil }
    }
}
