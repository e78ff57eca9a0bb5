import CLISupport
import Foundation
import LedgerKit

/// Options of the ledger benchmark: `ledger [--n N] [--repeat R] [--dir DIR] [--json]
/// [--only import,reimport,report,adjust,purge]`.
struct LedgerOptions: ParsableArguments {
    @OptionGroup var run: RunOptions
    @Option("--dir", "DIR", help: "where the CSV and the ledger go (default: a temporary one)")
    var directory: String?
    /// Workloads to run (`import`, `reimport`, `report`, `adjust`, `purge`); empty runs all.
    /// The others import once, untimed, when `import` is not run.
    @Option(
        "--only", "WORKLOAD,...",
        help: "run only these of import, reimport, report, adjust, purge",
        transform: ArgumentTransform { text, _ in
            let only = Set(text.split(separator: ",").map(String.init))
            let unknown = only.subtracting(LedgerOptions.workloads)
            if !unknown.isEmpty {
                throw CLIError.usage(
                    "no workload named \(unknown.sorted().joined(separator: ", ")); "
                        + "workloads: \(LedgerOptions.workloads.joined(separator: ", "))")
            }
            return only
        })
    var only: Set<String> = []

    static let workloads = ["import", "reimport", "report", "adjust", "purge"]

    var count: Int { run.count }
    var repeats: Int { run.repeats }
    var json: Bool { run.json }
}

/// The ledger's speed goals (docs/ledger.md), measured in-process through LedgerKit exactly as the `ledger`
/// command runs them: `import` of an N-row bank CSV into a new ledger file, `import` of the
/// same CSV again (adds nothing), and `report` (by category, text output) on the file, open
/// included. Each run opens a fresh ``Ledger`` (container, store, contexts) and closes it;
/// each workload reports the median of R runs. Writing the CSV is not timed.
struct LedgerRun {
    let options: LedgerOptions
    let output: CLIOutput

    /// The ledger's goals at N = 100,000, in seconds.
    static let goals: [String: Double] = [
        "import": 2.0, "report": 0.3, "adjust": 0.5, "purge": 0.5,
    ]

    func run() throws {
        let directory = try workDirectory()
        defer { if options.directory == nil { try? FileManager.default.removeItem(at: directory) } }
        let csv = directory.appendingPathComponent("ledger-bench.csv")
        try LedgerCSV.make(rows: options.count).write(to: csv)
        let ledgerURL = directory.appendingPathComponent("ledger-bench.jsonl")
        let reporter = Reporter(
            peer: "objectgraph", mode: "ledger", n: options.count, output: output)
        if !options.json {
            output.out(
                "objectgraph-bench ledger: N = \(options.count), median of \(options.repeats) "
                    + "run\(options.repeats == 1 ? "" : "s"), \(MacroRun.buildConfiguration) build\n"
            )
        }
        let wanted = { (name: String) in options.only.isEmpty || options.only.contains(name) }
        var imported = false
        if wanted("import") {
            let seconds = try (0..<options.repeats).map { _ in
                try removeLedger(ledgerURL)
                return try timedImport(csv, into: ledgerURL, expecting: options.count)
            }
            emit("import", seconds, reporter)
            imported = true
        }
        if !imported, wanted("reimport") || wanted("report") || wanted("adjust") || wanted("purge")
        {
            try removeLedger(ledgerURL)
            // Outside `timedRegion`, so a profile of the other workloads counts them alone.
            _ = try timedImport(csv, into: ledgerURL, expecting: options.count, profiled: false)
        }
        if wanted("reimport") {
            let seconds = try (0..<options.repeats).map { _ in
                try timedImport(csv, into: ledgerURL, expecting: 0)
            }
            emit("reimport", seconds, reporter)
        }
        if wanted("report") {
            let seconds = try (0..<options.repeats).map { _ in try timedReport(ledgerURL) }
            emit("report", seconds, reporter)
        }
        if wanted("adjust") || wanted("purge") {
            let base = directory.appendingPathComponent("ledger-bench-base.jsonl")
            try removeLedger(base)
            try FileManager.default.copyItem(at: ledgerURL, to: base)
            defer { try? removeLedger(base) }
            try runBatchWorkloads(base: base, into: ledgerURL, reporter)
        }
        try removeLedger(ledgerURL)
    }

    /// `ledger import CSV --date-column Date --amount-column Amount --description-column
    /// Payee --description-column Memo`, timed from opening the ledger to closing it; inside
    /// `timedRegion` unless `profiled` is `false` (the untimed import the other workloads need).
    private func timedImport(
        _ csv: URL, into ledgerURL: URL, expecting added: Int, profiled: Bool = true
    ) throws -> Double {
        let options = ImportOptions(
            dateColumn: .name("Date"), amountColumn: .name("Amount"),
            descriptionColumns: [.name("Payee"), .name("Memo")])
        var summary: ImportSummary?
        var failure: (any Error)?
        Measurement.resetPeak()
        let start = Measurement.now()
        let body = {
            do {
                let ledger = try Ledger(LedgerConfiguration(storeURL: ledgerURL), access: .create)
                defer { ledger.close() }
                summary = try ledger.importCSV(csv, options: options)
            } catch { failure = error }
        }
        if profiled { timedRegion(body) } else { body() }
        let seconds = Measurement.seconds(since: start)
        if let failure { throw failure }
        guard let summary, summary.added.count == added else {
            throw BenchError(
                "ledger: import added \(summary?.added.count ?? -1) transactions, expected \(added)"
            )
        }
        return seconds
    }

    /// `ledger report` (by category, text output), timed from opening the ledger to closing it.
    private func timedReport(_ ledgerURL: URL) throws -> Double {
        var report: LedgerReport?
        var text = ""
        var failure: (any Error)?
        Measurement.resetPeak()
        let start = Measurement.now()
        timedRegion {
            do {
                let ledger = try Ledger(LedgerConfiguration(storeURL: ledgerURL), access: .read)
                defer { ledger.close() }
                report = try ledger.report(by: .category)
                text = report?.text(title: "\(ledgerURL.relativePath): by category") ?? ""
            } catch { failure = error }
        }
        let seconds = Measurement.seconds(since: start)
        if let failure { throw failure }
        blackHole(text)
        guard let report, report.transactions == options.count else {
            throw BenchError(
                "ledger: report counted \(report?.transactions ?? -1) transactions, "
                    + "expected \(options.count)")
        }
        return seconds
    }

    func emit(_ workload: String, _ seconds: [Double], _ reporter: Reporter) {
        let middle = median(seconds)
        let goal = options.count == 100_000 ? Self.goals[workload] : nil
        if options.json {
            reporter.emit(
                workload, seconds: middle,
                [
                    ("runs", .array(seconds.map { .double(($0 * 1e6).rounded() / 1e6) })),
                    ("goal_seconds", goal.map { .double($0) } ?? .null),
                ])
            return
        }
        let runs = seconds.map { String(format: "%.3f", $0) }.joined(separator: " ")
        let verdict = goal.map {
            middle <= $0 ? "  goal ≤ \($0) s: met" : "  goal ≤ \($0) s: NOT met"
        }
        output.out(
            workload.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: "%8.3f s", middle) + "  (runs: \(runs))" + (verdict ?? ""))
    }

    private func workDirectory() throws -> URL {
        let path =
            options.directory
            ?? NSTemporaryDirectory()
            + "objectgraph-bench-ledger-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Removes the ledger file and the files the store keeps beside it.
    func removeLedger(_ url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasPrefix(name) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
    }
}
