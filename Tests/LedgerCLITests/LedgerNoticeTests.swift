import Foundation
import Testing

/// What the store notices when `ledger` opens a file reaches the user once, on stderr (issue
/// 14: `ledger` dropped a torn last line silently where `objectgraph` printed a notice).
@Suite struct LedgerNoticeTests {
    @Test func aTornLastLineIsReportedByAReaderAndDroppedOnceByAWriter() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        #expect(await sandbox.run(["add", "1.00", "--note", "kept"]).code == 0)
        let handle = try FileHandle(
            forWritingTo: URL(fileURLWithPath: sandbox.path("ledger.jsonl")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"t\":2,\"at\":1.0,\"ins\":[[\"Trans".utf8))
        try handle.close()
        let list = await sandbox.run(["list"])
        #expect(list.code == 0)
        #expect(list.stderr.hasPrefix("ledger: notice: store "))
        #expect(list.stderr.contains("line 3: incomplete last line"))
        #expect(list.stderr.split(separator: "\n").count == 1)
        let add = await sandbox.run(["add", "2.00", "--note", "next"])
        #expect(add.code == 0)
        #expect(add.stderr.contains("dropped the torn last line 3"))
        let again = await sandbox.run(["list"])
        #expect(again.stderr == "")
        #expect(again.stdout.contains("kept") && again.stdout.contains("next"))
    }
}
