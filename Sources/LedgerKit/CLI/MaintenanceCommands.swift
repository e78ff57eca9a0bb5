import CLISupport
import Foundation

/// `ledger compact` and `ledger verify`.
enum MaintenanceCommands {
    struct CompactArguments: ParsableArguments {
        @Option(
            "--keep-history", "DAYS",
            help: "delete the history older than DAYS days first (default: keep all)",
            transform: .ledgerDays)
        var keepHistory: Int?
    }

    static func compact(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["compact"], summary: "rewrite the file as a snapshot of its live rows",
            details:
                "Atomic: a crash leaves the old file or the new one. Edits and deletions leave old lines "
                + "behind until then. The history (`ledger history`) is kept whole unless "
                + "--keep-history DAYS drops what is older."
        ) { (arguments: CompactArguments, global, output) in
            let (result, path) = try LedgerSession.run(
                global, environment, access: .write, output: output
            ) {
                ledger in
                if let days = arguments.keepHistory {
                    try ledger.deleteHistory(olderThanDays: days)
                }
                return (try ledger.compact(), ledger.configuration.storeURL.relativePath)
            }
            if global.json {
                try output.json([
                    "file": path, "bytesBefore": result.bytesBefore,
                    "bytesAfter": result.bytesAfter,
                ])
            } else {
                output.out("compacted \(path): \(result.bytesBefore) → \(result.bytesAfter) bytes")
            }
        }
    }

    static func verify(_ environment: LedgerEnvironment) -> LedgerCommand {
        LedgerCommand(
            ["verify"], summary: "check the file and the receipts",
            details:
                "Checks every line's checksum, the replay, every reference and every receipt, without "
                + "changing anything. Exits 1 when something is wrong, listing each problem on stdout."
        ) { (_: NoArguments, global, output) in
            let result: LedgerVerification
            do {
                result = try Ledger.verify(
                    environment.configuration(file: global.file))
            } catch {
                throw LedgerSession.failure(error)
            }
            if global.json {
                try output.json(result.jsonObject)
            } else {
                for problem in result.problems { output.out("problem: \(problem)") }
                for notice in result.notices { output.out("notice: \(notice)") }
                if result.isHealthy {
                    var line =
                        "\(result.file): ok, \(LedgerText.count(result.transactions ?? 0, "transaction")), "
                        + "\(LedgerText.count(result.categories ?? 0, "category", plural: "categories")), "
                        + "\(LedgerText.count(result.receipts, "receipt"))"
                    if let statistics = result.statistics {
                        line +=
                            "; \(statistics.fileBytes) bytes, \(statistics.deadBytes) reclaimable by compact"
                    }
                    output.out(line)
                }
            }
            guard result.isHealthy else {
                throw CLIError.failure(
                    "\(result.file): \(LedgerText.count(result.problems.count, "problem")) found")
            }
        }
    }
}
