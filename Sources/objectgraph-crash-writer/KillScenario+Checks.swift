import Foundation
import ObjectGraph

extension KillScenario {
    /// Checks what must hold after the command was killed (or ended) with `outcome`, then
    /// runs the command users would run next and checks again. Throws a violation.
    func check(
        _ trial: inout CampaignTrial, _ outcome: CampaignChild.Outcome,
        companions: [CampaignChild.Outcome] = []
    ) throws {
        let ledger = trial.tools.ledger
        let file = trial.file
        switch self {
        case .contextSave:
            let reported =
                outcome.out.split(separator: "\n")
                .compactMap { $0.hasPrefix("committed ") ? Int64($0.dropFirst(10)) : nil }
                .max() ?? 0
            guard FileManager.default.fileExists(atPath: file) else {
                guard reported == 0 else {
                    throw CrashViolation("\(reported) commits reported, but there is no file")
                }
                return
            }
            _ = try CrashWorkload.check(file: file, reported: reported)
            try CampaignFiles.requireHealthy(file)
        case .ledgerRace:
            var acknowledged = Set(
                companions.indices.filter { companions[$0].status == 0 }.map { "companion \($0)" })
            if outcome.status == 0 { acknowledged.insert("new") }
            for (i, companion) in companions.enumerated()
            where companion.status != 0 && !companion.err.contains("locked by another writer") {
                throw CrashViolation("companion \(i) failed: \(companion.err)")
            }
            _ = try trial.run(ledger, ["add", "3.00", "--note", "after", "--file", file])
            let notes = Set(try CampaignFiles.notes(file) ?? [])
            guard notes.isSuperset(of: acknowledged.union(["after"])),
                notes.isSubset(of: ["new", "companion 0", "companion 1", "after"])
            else {
                throw CrashViolation(
                    "acknowledged \(acknowledged.sorted()), the file holds \(notes.sorted())")
            }
            try CampaignFiles.requireHealthy(file)
        case .ledgerCreate, .ledgerCleanUp:
            let before = try CampaignFiles.notes(file)
            if self == .ledgerCleanUp {
                guard outcome.status != 0 else { throw CrashViolation("the failing add exited 0") }
                if outcome.status != nil, before != nil {
                    throw CrashViolation("the failed add left its new file behind")
                }
            }
            if outcome.status == 0, before?.contains("new") != true {
                throw CrashViolation("the add exited 0 but its transaction is not in the file")
            }
            _ = try trial.run(ledger, ["add", "2.00", "--note", "after", "--file", file])
            let after = try CampaignFiles.notes(file) ?? []
            let allowed: Set<String> = self == .ledgerCreate ? ["new", "after"] : ["after"]
            guard after.contains("after"), Set(after).isSubset(of: allowed),
                Set(after).count == after.count
            else { throw CrashViolation("the ledger holds \(after)") }
            try requireNoLeftovers(file)
        case .ledgerImport:
            let rows = trial.expected["rows"]!
            if let status = outcome.status, status != 0 {
                throw CrashViolation("the import failed by itself: \(outcome.err)")
            }
            let notes = try CampaignFiles.notes(file) ?? []
            let count = try CampaignFiles.values(file, entity: "Transaction", key: "amount").count
            guard notes.contains("before") else { throw CrashViolation("the earlier add is gone") }
            if outcome.status == 0, count != rows + 1 {
                throw CrashViolation(
                    "the import exited 0, but the file holds \(count - 1) of \(rows)")
            }
            guard count == 1 || count == rows + 1 else {
                throw CrashViolation("half an import: \(count - 1) of \(rows) rows")
            }
            _ = try trial.run(ledger, ["add", "2.00", "--note", "after", "--file", file])
            try CampaignFiles.requireHealthy(file)
            try requireNoLeftovers(file)
        case .compact:
            if let status = outcome.status, status != 0 {
                throw CrashViolation("compact failed by itself: \(outcome.err)")
            }
            guard try CampaignFiles.rows(file) == trial.expectedRows else {
                throw CrashViolation("the rows changed across a killed compaction")
            }
            _ = try trial.run(ledger, ["add", "2.00", "--note", "after", "--file", file])
            try CampaignFiles.requireHealthy(file)
            try requireNoLeftovers(file)
        case .repair, .salvage:
            let again = try CampaignChild.run(
                trial.tools.objectgraph, command(trial).1, in: trial.directory)
            guard again.status == 0 else {
                throw CrashViolation("repair after the kill failed: \(again.err)")
            }
            guard try CampaignFiles.rows(file) == trial.expectedRows else {
                throw CrashViolation("the repaired rows differ from an uninterrupted repair's")
            }
            try CampaignFiles.requireHealthy(file)
            let name = (file as NSString).lastPathComponent
            let sidecars = try FileManager.default.contentsOfDirectory(atPath: trial.directory)
                .filter { $0.hasPrefix(name + ".corrupt-") }
            guard !sidecars.isEmpty else { throw CrashViolation("the damaged part is gone") }
        case .seed, .load:
            let items = trial.expected["items"]!
            if FileManager.default.fileExists(atPath: file) {
                try CampaignFiles.requireHealthy(file)
                let count = try CampaignFiles.values(file, entity: "Item", key: "txn").count
                guard count == items else {
                    throw CrashViolation("\(file) exists with \(count) of \(items) items")
                }
            } else {
                guard outcome.status != 0 else {
                    throw CrashViolation("\(rawValue) exited 0 but wrote no file")
                }
                let (tool, arguments) = command(trial)
                _ = try trial.run(tool, arguments)  // the retry works
                try CampaignFiles.requireHealthy(file)
            }
        case .migrate, .migrateStaged:
            try checkMigration(trial, outcome)
        }
    }

    /// The file is the old one, byte for byte, or the completely migrated one; a rerun
    /// migrates it (or finds it migrated), and the old file is kept as `FILE.pre-migration`.
    private func checkMigration(_ trial: CampaignTrial, _ outcome: CampaignChild.Outcome) throws {
        let file = trial.file
        if let status = outcome.status, status != 0 {
            throw CrashViolation("the migration failed by itself: \(outcome.err)")
        }
        let untouched = try Data(contentsOf: URL(fileURLWithPath: file)) == trial.originalBytes
        let migrated = try !untouched && CampaignFiles.rows(file) == trial.expectedRows
        if outcome.status == 0, !migrated {
            throw CrashViolation("the migration exited 0, but the file is not the migrated one")
        }
        guard untouched || migrated else {
            throw CrashViolation("the file is neither the old one intact nor the migrated one")
        }
        if migrated { try requireKeptOriginal(trial) }
        let (tool, arguments) = command(trial)
        _ = try trial.run(tool, arguments)
        guard try CampaignFiles.rows(file) == trial.expectedRows else {
            throw CrashViolation("the rerun migration's rows differ from an uninterrupted one's")
        }
        try CampaignFiles.requireHealthy(file)
        try requireKeptOriginal(trial)
        try requireNoLeftovers(file)
    }

    private func requireKeptOriginal(_ trial: CampaignTrial) throws {
        let kept = try? Data(contentsOf: URL(fileURLWithPath: trial.file + ".pre-migration"))
        guard kept == trial.originalBytes else {
            throw CrashViolation("\(trial.file).pre-migration is not the old file")
        }
    }

    /// A writer opened after the kill removes a leftover `FILE.tmp`.
    private func requireNoLeftovers(_ file: String) throws {
        if FileManager.default.fileExists(atPath: file + ".tmp") {
            throw CrashViolation("\(file).tmp is left after the next writer")
        }
    }
}
