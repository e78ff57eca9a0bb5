import CLISupport
import Foundation
import LedgerKit
import Testing

/// `ledger history`, `ledger watch` and `ledger compact --keep-history`, in-process: the file
/// keeps persistent history and every save carries the command as its author.
@Suite struct LedgerHistoryCommandTests {
    @Test func historyListsEachSaveWithItsCommandAndTime() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let file = sandbox.path("ledger.jsonl")
        #expect(await sandbox.run(["category", "add", "Food", "--file", file]).code == 0)
        #expect(
            await sandbox.run(["add", "12.50", "--category", "Food", "--file", file]).code == 0)
        let entries = try #require(
            try await sandbox.json(["history", "--file", file]) as? [[String: Any]])
        let authors = entries.compactMap { $0["author"] as? String }
        #expect(authors == ["ledger category add", "ledger add"])
        let add = try #require(entries.first { $0["author"] as? String == "ledger add" })
        #expect(add["inserted"] as? Int == 1)
        #expect((add["time"] as? String)?.hasSuffix("Z") == true)

        let text = await sandbox.run(["history", "--file", file])
        #expect(text.code == 0)
        #expect(text.stdout.contains("ledger category add"))
        #expect(text.stdout.split(separator: "\n").first?.hasPrefix("#") == true)
    }

    @Test func historySinceADayLeavesOutEarlierSaves() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let file = sandbox.path("ledger.jsonl")
        #expect(await sandbox.run(["add", "3.00", "--file", file]).code == 0)
        let later = try #require(
            try await sandbox.json(["history", "--since", "2999-01-01", "--file", file])
                as? [Any])
        #expect(later.isEmpty)
        let all = try #require(
            try await sandbox.json(["history", "--since", "2000-01-01", "--file", file])
                as? [Any])
        #expect(all.count == 1)
        #expect(await sandbox.run(["history", "--since", "yesterday", "--file", file]).code == 1)
        #expect(await sandbox.run(["history", "surplus", "--file", file]).code == 64)
        #expect(await sandbox.run(["history", "--help"]).code == 0)
        #expect(await sandbox.run(["history", "--file", sandbox.path("none.jsonl")]).code == 1)
    }

    @Test func compactKeepHistoryDropsOlderHistoryAndKeepsTheRows() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let file = sandbox.path("ledger.jsonl")
        #expect(await sandbox.run(["add", "3.00", "--file", file]).code == 0)
        #expect(await sandbox.run(["add", "4.00", "--file", file]).code == 0)
        // The saves are stamped now; seen from a today 30 days ahead they are over 7 days old.
        #expect(await sandbox.run(["compact", "--keep-history", "7", "--file", file]).code == 0)
        #expect((try await sandbox.json(["history", "--file", file]) as? [Any])?.count == 2)
        var future = sandbox.environment
        future.today = { Date(timeIntervalSinceNow: 30 * 86_400) }
        let kept = await sandbox.run(
            ["compact", "--keep-history", "7", "--file", file], environment: future)
        #expect(kept.code == 0, "\(kept.stderr)")
        let history = try #require(try await sandbox.json(["history", "--file", file]) as? [Any])
        #expect(history.count == 0, "the two saves are over 7 days older than the future today")
        let list = await sandbox.run(["list", "--file", file])
        #expect(list.stdout.contains("-3.00") && list.stdout.contains("-4.00"))
        #expect(await sandbox.run(["compact", "--keep-history", "-1", "--file", file]).code == 1)
        #expect(await sandbox.run(["compact", "--help"]).stdout.contains("--keep-history"))
    }

    @Test func watchPrintsWhatAnotherCommandSavesThenStopsCleanly() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let file = sandbox.path("ledger.jsonl")
        #expect(await sandbox.run(["add", "1.00", "--payee", "Before", "--file", file]).code == 0)
        let result = await watchWhileAddingACornerShopExpense(sandbox, file)
        #expect(result.code == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 1, "only the save made while watching: \(lines)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["author"] as? String == "ledger add")
        #expect(object["change"] as? String == "added")
        let transaction = try #require(object["transaction"] as? [String: Any])
        #expect(transaction["payee"] as? String == "Corner Shop")
        #expect(transaction["amount"] as? String == "12.50")
        #expect(result.stderr.contains("watching"))
    }

    @Test func watchStartedRightAfterAPurgeStaysQuietAndPrintsTheNextSave() async throws {
        // A purge deletes the history through its own save, so the watch's first token (the
        // ledger's last save) has expired. Before the fix the watch printed "the token of
        // transaction 3 has expired" twice, and again at every wake until another save (the
        // README's session: `purge`, `history`, `watch`).
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let file = sandbox.path("ledger.jsonl")
        let old = ["add", "1.00", "--payee", "Old", "--date", "2020-01-02", "--file", file]
        #expect(await sandbox.run(old).code == 0)
        #expect(await sandbox.run(["add", "2.00", "--payee", "Kept", "--file", file]).code == 0)
        let purge = await sandbox.run(["purge", "--before", "2021-01-01", "--file", file])
        #expect(purge.code == 0, "\(purge.stderr)")
        let result = await watchWhileAddingACornerShopExpense(sandbox, file)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("expired"), "nothing was missed: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 1, "only the save made while watching: \(lines)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let transaction = try #require(object["transaction"] as? [String: Any])
        #expect(transaction["payee"] as? String == "Corner Shop")
    }

    /// Runs `ledger watch --json` on `file` until it is ready, adds a 12.50 expense at
    /// "Corner Shop" from another command, then interrupts the watch; returns its result.
    private func watchWhileAddingACornerShopExpense(_ sandbox: CLISandbox, _ file: String) async
        -> CLIResult
    {
        let stopper = Stopper()
        var environment = sandbox.environment
        environment.interruption = { stop in stopper.ready(stop) }
        let watch = Task {
            await sandbox.run(["watch", "--json", "--file", file], environment: environment)
        }
        await stopper.waitUntilReady()
        #expect(
            await sandbox.run(["add", "12.50", "--payee", "Corner Shop", "--file", file]).code == 0)
        stopper.stop()
        return await watch.value
    }

    @Test func watchNeedsALedgerFile() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        #expect(await sandbox.run(["watch", "--file", "/dev/null"]).code == 1)
        #expect(await sandbox.run(["watch", "--file", sandbox.path("none.jsonl")]).code == 1)
        #expect(await sandbox.run(["watch", "extra"]).code == 64)
        #expect(await sandbox.run(["watch", "--help"]).code == 0)
    }
}

/// Hands a test the `stop` of a running `ledger watch`, once it is ready.
final class Stopper: @unchecked Sendable {
    // Sendable: `stopAction` and `waiter` are guarded by `lock`.
    private let lock = NSLock()
    private var stopAction: (@Sendable () -> Void)?
    private var waiter: CheckedContinuation<Void, Never>?

    func ready(_ stop: @escaping @Sendable () -> Void) {
        lock.lock()
        stopAction = stop
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume()
    }

    func waitUntilReady() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if stopAction != nil {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }

    func stop() {
        lock.lock()
        let action = stopAction
        lock.unlock()
        action?()
    }
}
