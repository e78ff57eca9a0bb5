import Foundation
import ObjectGraphTesting
import Synchronization
import Testing

@testable import ObjectGraph

/// The progress the file store's long operations report (compaction, verification, migration
/// at open): counts that never fall, on one total, reaching it; nothing asked, nothing told.
@Suite struct StoreProgressTests {
    /// Reports collected from any thread.
    private final class Reports: Sendable {
        private let list = Mutex<[(done: Int, total: Int)]>([])
        var all: [(done: Int, total: Int)] { list.withLock { $0 } }
        @Sendable func add(_ done: Int, _ total: Int) { list.withLock { $0.append((done, total)) } }
    }

    private func expectRising(
        _ reports: [(done: Int, total: Int)], to total: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reports.first?.done == 0, "\(reports)", sourceLocation: sourceLocation)
        #expect(reports.last?.done == total, "\(reports)", sourceLocation: sourceLocation)
        #expect(
            reports.allSatisfy { $0.total == total }, "\(reports)", sourceLocation: sourceLocation)
        #expect(
            zip(reports, reports.dropFirst()).allSatisfy { $0.done <= $1.done }, "\(reports)",
            sourceLocation: sourceLocation)
    }

    @Test func compactionCountsTheSnapshotRowsWritten() throws {
        let model = try MigrationFixtures.v1()
        let url = try MigrationFixtures.previewSeeded(model, count: 40)
        let store = try JSONLinesStore(model: model, url: url)
        defer { store.close() }
        let reports = Reports()
        try store.compact(progress: reports.add)
        expectRising(reports.all, to: 80)
        #expect(try store.statistics().snapshotRowCount == 80)
        #expect(JSONLinesStore.compactionProgressInterval > 0)
    }

    @Test func verificationCountsTheRowsWhoseReferencesAreChecked() throws {
        let model = try MigrationFixtures.v1()
        let url = try MigrationFixtures.previewSeeded(model, count: 25)
        let reports = Reports()
        let report = JSONLinesStore.verify(at: url, progress: reports.add)
        #expect(report.isHealthy)
        expectRising(reports.all, to: 50)
    }

    @Test func verificationOfAnUnreadableFileReportsNothing() throws {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("x.jsonl")
        try Data("not a store\n".utf8).write(to: url)
        let reports = Reports()
        #expect(!JSONLinesStore.verify(at: url, progress: reports.add).isHealthy)
        #expect(reports.all.isEmpty)
    }

    /// Core Data's `NSMigrationManager.migrationProgress` runs from 0 to 1 over a migration
    /// (developer.apple.com/documentation/coredata/nsmigrationmanager/migrationprogress); the
    /// store reports the same course as rows: every row once per step, then once written.
    @Test func migrationAtOpenCountsRowsPerStepThenRowsWritten() throws {
        let v1 = try MigrationFixtures.v1()
        let url = try MigrationFixtures.previewSeeded(v1, count: 30)
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)])
        let reports = Reports()
        var options = MigrationFixtures.options([v1])
        options.migrationProgress = reports.add
        let store = try JSONLinesStore(model: v2, url: url, options: options)
        defer { store.close() }
        #expect(store.recoveryNotices.contains { $0.contains("migrated from") })
        // One step (60 rows), then the 60 rows written.
        expectRising(reports.all, to: 120)
        #expect(reports.all.contains { $0.done == 60 })
        // Opening it again migrates nothing and reports nothing.
        store.close()
        let again = Reports()
        options.migrationProgress = again.add
        let reopened = try JSONLinesStore(model: v2, url: url, options: options)
        reopened.close()
        #expect(again.all.isEmpty)
    }

    @Test func aReaderMigratingInMemoryCountsOnlyTheSteps() throws {
        let v1 = try MigrationFixtures.v1()
        let url = try MigrationFixtures.previewSeeded(v1, count: 10)
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)])
        let reports = Reports()
        var options = MigrationFixtures.options([v1], readOnly: true)
        options.migrationProgress = reports.add
        let store = try JSONLinesStore(model: v2, url: url, options: options)
        store.close()
        expectRising(reports.all, to: 20)
    }
}
