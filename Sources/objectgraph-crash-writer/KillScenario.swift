import Foundation
import ObjectGraph

/// One program users run, killed with SIGKILL inside its windows: what to prepare, what to
/// run, where to kill, and what must hold afterwards.
enum KillScenario: String, CaseIterable {
    /// The crash writer's workload saved through contexts (child → root → store).
    case contextSave = "context-save"
    /// `ledger add` on a file that does not exist yet.
    case ledgerCreate = "ledger-create"
    /// `ledger add` that fails (an unknown category) on a file it creates.
    case ledgerCleanUp = "ledger-clean-up"
    /// Three `ledger add` started at once on a file that does not exist yet, one of them killed.
    case ledgerRace = "ledger-race"
    /// `ledger import` of thousands of rows: one large line.
    case ledgerImport = "ledger-import"
    /// `objectgraph compact`.
    case compact
    /// `objectgraph repair` of a file with a damaged line.
    case repair
    /// `objectgraph repair --salvage` of a file with a damaged line.
    case salvage
    /// `objectgraph seed` of thousands of objects.
    case seed
    /// `objectgraph load` of thousands of objects.
    case load
    /// `objectgraph migrate FILE --to MODEL`: a lightweight migration of thousands of rows.
    case migrate
    /// A staged migration through a lightweight and a custom stage, at open
    /// (`objectgraph-crash-writer migrate FILE`).
    case migrateStaged = "migrate-staged"

    /// Pause points to kill at (`STEP@N` for the N-th time the step is reached).
    var steps: [String] {
        let commit = ["commit.start", "commit.midWrite", "commit.written", "commit.synced"]
        let replace = ["replace.midWrite", "replace.synced", "replace.renamed"]
        switch self {
        case .contextSave:
            return (1...6).flatMap { n in commit.map { "\($0)@\(n)" } } + replace
        case .ledgerCreate:
            return ["store.opening", "create.midWrite", "create.written", "store.opened"] + commit
        case .ledgerCleanUp: return ["create.written", "store.opened", "store.discard"]
        case .ledgerRace: return ["store.opening", "create.written", "store.opened"] + commit
        case .ledgerImport: return ["store.opened"] + commit
        case .compact: return ["store.opened"] + replace
        case .repair, .salvage: return ["repair.sidecarWritten"] + replace
        case .seed, .load: return ["create.written", "job.staged"] + commit
        case .migrate, .migrateStaged:
            // `objectgraph migrate` runs the plan twice (the mapping it prints, then the
            // migration); the staged chain has two steps.
            return ["store.opened", "migrate.step@1", "migrate.step@2"] + replace
                + ["migrate.kept"]
        }
    }

    /// The longest random delay before a kill, in milliseconds (for kills not at a step).
    var maximumDelay: Int { self == .contextSave ? 800 : 250 }

    /// Commands started at the same moment as the one killed, and run to their end.
    func companions(_ trial: CampaignTrial) -> [(URL, [String])] {
        guard self == .ledgerRace else { return [] }
        return (0..<2).map { i in
            (trial.tools.ledger, ["add", "2.00", "--note", "companion \(i)", "--file", trial.file])
        }
    }

    /// Makes what the command works on.
    func prepare(_ trial: inout CampaignTrial) throws {
        let ledger = trial.tools.ledger
        switch self {
        case .contextSave:
            trial.file = trial.path("context-\(trial.number % 3).jsonl")
        case .ledgerCreate, .ledgerCleanUp, .ledgerRace:
            trial.file = trial.path("new-\(trial.number).jsonl")
        case .ledgerImport:
            trial.file = trial.path("import-\(trial.number).jsonl")
            _ = try trial.run(ledger, ["add", "1.00", "--note", "before", "--file", trial.file])
            let rows = 2000 + trial.next(7000)
            trial.expected["rows"] = rows
            var csv = "Date,Amount,Payee\n"
            for i in 0..<rows {
                let day = String(format: "%02d", 1 + i % 28)
                csv += "2026-03-\(day),-\(1 + i % 90).\(String(format: "%02d", i % 100)),P\(i)\n"
            }
            try Data(csv.utf8).write(to: URL(fileURLWithPath: trial.path("bank.csv")))
        case .compact, .repair, .salvage:
            trial.file = trial.path("\(rawValue)-\(trial.number).jsonl")
            for i in 0..<(3 + trial.next(6)) {
                _ = try trial.run(
                    ledger, ["add", "\(i + 1).00", "--note", "n\(i)", "--file", trial.file])
            }
            if self != .compact {
                try damage(&trial)
            } else {
                trial.expectedRows = try CampaignFiles.rows(trial.file)
            }
        case .seed, .load:
            trial.file = trial.path("\(rawValue)-\(trial.number).jsonl")
            let model = trial.path("crash-model.json")
            try CrashWorkload.model.jsonData().write(to: URL(fileURLWithPath: model))
            let items = 1000 + trial.next(4000)
            trial.expected["items"] = items
            if self == .load {
                let objects = (0..<items).map {
                    "{\"txn\": \($0), \"size\": 1, \"payload\": \"\(String(repeating: "y", count: $0 % 300))\"}"
                }
                try Data("{\"Item\": [\(objects.joined(separator: ","))]}".utf8).write(
                    to: URL(fileURLWithPath: trial.path("items.json")))
            }
        case .migrate, .migrateStaged:
            try prepareMigration(&trial)
        }
    }

    /// A version-1 file of 500–3,000 contacts, its bytes, and the rows an uninterrupted
    /// migration of a copy gives.
    private func prepareMigration(_ trial: inout CampaignTrial) throws {
        trial.file = trial.path("\(rawValue)-\(trial.number).jsonl")
        let contacts = 500 + trial.next(2500)
        try MigrationWorkload.seed(trial.file, contacts: contacts, random: &trial.random)
        trial.originalBytes = try Data(contentsOf: URL(fileURLWithPath: trial.file))
        try MigrationWorkload.model(2).jsonData().write(
            to: URL(fileURLWithPath: trial.path("contacts-v2.json")))
        let copy = trial.path("expected.jsonl")
        for leftover in [copy, copy + ".pre-migration"] {
            try? FileManager.default.removeItem(atPath: leftover)
        }
        try trial.originalBytes!.write(to: URL(fileURLWithPath: copy))
        if self == .migrate {
            try MigrationWorkload.migrateLightweight(copy)
        } else {
            try MigrationWorkload.migrateStaged(copy)
        }
        trial.expectedRows = try CampaignFiles.rows(copy)
    }

    /// Flips a byte in the middle of a transaction line; remembers what a repair keeps.
    private func damage(_ trial: inout CampaignTrial) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: trial.file)))
        let lines = bytes.indices.filter { bytes[$0] == 0x0A }
        let line = 1 + trial.next(lines.count - 1)  // not the header
        let start = lines[line - 1] + 1
        bytes[start + (lines[line] - start) / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: trial.file))
        let copy = trial.path("expected.jsonl")
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        _ = try JSONLinesStore.repair(
            at: URL(fileURLWithPath: copy), salvaging: self == .salvage)
        trial.expectedRows = try CampaignFiles.rows(copy)
    }

    /// The program and arguments killed.
    func command(_ trial: CampaignTrial) -> (URL, [String]) {
        let tools = trial.tools
        switch self {
        case .contextSave:
            let sync = ["full", "normal", "off"][trial.number % 3]
            return (tools.crashWriter, ["context", trial.file, String(trial.number), sync])
        case .ledgerCreate, .ledgerRace:
            return (tools.ledger, ["add", "1.00", "--note", "new", "--file", trial.file])
        case .ledgerCleanUp:
            return (
                tools.ledger,
                ["add", "1.00", "--note", "bad", "--category", "Nope", "--file", trial.file]
            )
        case .ledgerImport:
            return (
                tools.ledger,
                [
                    "import", "bank.csv", "--date-column", "Date", "--amount-column", "Amount",
                    "--description-column", "Payee", "--file", trial.file,
                ]
            )
        case .compact: return (tools.objectgraph, ["compact", trial.file])
        case .repair: return (tools.objectgraph, ["repair", trial.file])
        case .salvage: return (tools.objectgraph, ["repair", "--salvage", trial.file])
        case .seed:
            return (
                tools.objectgraph,
                [
                    "seed", "--model", "crash-model.json", "--count",
                    "Item=\(trial.expected["items"]!)", "--out", trial.file,
                ]
            )
        case .load:
            return (
                tools.objectgraph,
                [
                    "load", "--model", "crash-model.json", "--fixtures", "items.json", "--out",
                    trial.file,
                ]
            )
        case .migrate:
            return (tools.objectgraph, ["migrate", trial.file, "--to", "contacts-v2.json"])
        case .migrateStaged: return (tools.crashWriter, ["migrate", trial.file])
        }
    }
}
