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

    struct VerifyArguments: ParsableArguments {
        @Flag("--fix", help: "remove receipt files no transaction names") var fix: Bool
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
                // A bar on a terminal: the snapshot's rows written.
                let bar = global.progressBar("compact", output)
                defer { bar?.finish() }
                return (
                    try ledger.compact(progress: bar.map { bar in { bar.update($0, of: $1) } }),
                    ledger.configuration.storeURL.relativePath
                )
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
                + "changing anything. Exits 1 when something is wrong, listing each problem on stdout. "
                + "--fix removes receipt files no transaction names (left by an interrupted purge or "
                + "delete), holding the writer lock; --json then adds \"removed\": [file]."
        ) { (arguments: VerifyArguments, global, output) in
            var result: LedgerVerification
            var removed: [String] = []
            do {
                let configuration = environment.configuration(file: global.file)
                // A bar on a terminal: reading the file, then the rows checked.
                let bar = global.progressBar("verify", output)
                defer { bar?.finish() }
                bar?.status("reading \(configuration.storeURL.lastPathComponent)")
                result = try Ledger.verify(
                    configuration, progress: bar.map { bar in { bar.update($0, of: $1) } })
                bar?.finish()
                if arguments.fix, result.isHealthy,
                    result.notices.contains(where: {
                        $0.hasPrefix("receipt file ")
                    })
                {
                    removed = try Ledger.removeOrphanReceipts(configuration)
                    result = try Ledger.verify(configuration)
                }
            } catch {
                throw LedgerSession.failure(error)
            }
            if global.json {
                var object = result.jsonObject
                if arguments.fix { object["removed"] = removed }
                try output.json(object)
            } else {
                for name in removed {
                    output.out("removed: receipt file \(name) belonged to no transaction")
                }
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
