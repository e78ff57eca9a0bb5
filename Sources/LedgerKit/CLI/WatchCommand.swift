import CLISupport
import Foundation
import ObjectGraph

/// `ledger watch`: prints each transaction other processes add, edit or delete, as it
/// happens, until interrupted.
enum WatchCommand {
    static func make(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["watch"],
            summary: "print each transaction other processes add, edit or delete, as it happens",
            details:
                "Reads the ledger without locking it (other commands keep writing) and prints one "
                + "line per change: time, command, what happened, the transaction (--json: one "
                + "JSON object per line). Runs until interrupted (Ctrl-C or SIGTERM), prints what was "
                + "saved before the interruption, then exits 0."
        ) { (_: NoArguments, global, output) in
            var watching = environment
            watching.storeOptions.postsRemoteChangeNotifications = true
            let ledger = try LedgerSession.open(global, watching, access: .read, output: output)
            defer { ledger.close() }
            if ledger.isInMemory { throw LedgerSession.failure(LedgerErrors.needsFile("watch")) }
            try await watch(ledger, json: global.json, output: output, environment: environment)
        }
    }

    /// Prints the history after the ledger's current end whenever the store reports a write,
    /// until `environment.interruption` stops it.
    private static func watch(
        _ ledger: Ledger, json: Bool, output: CLIOutput, environment: LedgerEnvironment
    ) async throws {
        var token = ledger.historyToken()
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let observer = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange,
            object: ledger.container.persistentStoreCoordinator, queue: nil
        ) { _ in wake.yield() }
        defer { NotificationCenter.default.removeObserver(observer) }
        wake.yield()  // what was written between opening and observing
        output.err("ledger: watching \(ledger.configuration.storeURL.relativePath) (Ctrl-C stops)")
        environment.interruption { wake.finish() }
        for await _ in wakes {
            token = try printHistory(of: ledger, after: token, json: json, to: output)
        }
        // Everything saved before the interruption is printed, even if its news is on the way.
        _ = try printHistory(of: ledger, after: token, json: json, to: output)
    }

    /// Prints the transactions' changes after `token`; returns the token to continue from.
    ///
    /// A token whose transaction's history was deleted (`historyTokenExpired`: a `purge`
    /// deletes the history through its own save, `compact --keep-history` what is older than
    /// a number of days) is not retried as it is: the history left is read from its start and
    /// only transactions after the token's are printed, so nothing is printed twice and a
    /// watch started right after a purge stays quiet. The deletion is reported once, and only
    /// when it took transactions after the token's, which this watch had not printed.
    private static func printHistory(
        of ledger: Ledger, after token: PersistentHistoryToken?, json: Bool, to output: CLIOutput
    ) throws -> PersistentHistoryToken? {
        var entries: [LedgerHistoryEntry]
        let next: PersistentHistoryToken?
        do {
            (entries, next) = try ledger.history(after: token)
        } catch let error as ObjectGraphError where error.reason == .historyTokenExpired {
            let seen = token?.transactionNumbers.values.max() ?? 0
            do {
                (entries, next) = try ledger.history(after: nil)
            } catch {
                throw LedgerSession.failure(error)
            }
            entries.removeAll { $0.number <= seen }
            let newest = ledger.historyToken()?.transactionNumbers.values.max() ?? seen
            let firstLeft = entries.first?.number ?? newest + 1
            if firstLeft > seen + 1 {
                // Transactions after the token's were deleted before this watch printed them.
                output.err("ledger: watch: \(error.message); going on from the oldest history left")
            }
            // Nothing left after the token's: keep it (the next wake reads the history left
            // again), or move to the newest transaction when the deletion took it too.
            if entries.isEmpty {
                return newest > seen ? ledger.historyToken() : token
            }
        } catch {
            throw LedgerSession.failure(error)
        }
        for entry in entries {
            for change in entry.changes { print(change, of: entry, json: json, to: output) }
        }
        return next
    }

    private static func print(
        _ change: LedgerHistoryChange, of entry: LedgerHistoryEntry, json: Bool,
        to output: CLIOutput
    ) {
        let time = LedgerHistory.time(entry.timestamp)
        if json {
            var object: [String: Any] = [
                "time": time, "author": entry.author ?? NSNull(), "change": change.kind.rawValue,
                "transaction": change.record?.jsonObject ?? NSNull(),
            ]
            if change.kind == .edited { object["properties"] = change.properties }
            if let value = try? JSONValue(jsonObject: object) { output.jsonLine(value) }
            return
        }
        var line = [time, entry.author ?? "-", change.kind.rawValue.padding(7)]
        if let record = change.record {
            line.append(LedgerText.line(record))
        } else {
            line.append("(since deleted)")
        }
        if change.kind == .edited, !change.properties.isEmpty {
            line.append("(" + change.properties.joined(separator: ", ") + ")")
        }
        output.out(line.joined(separator: "  "))
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
