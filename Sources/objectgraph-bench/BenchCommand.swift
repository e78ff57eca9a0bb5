import CLISupport
import Foundation

/// The command line: `--dataset FILE --mode memory|jsonl --dir DIR [--drop-caches]`, or
/// `micro [--n N] [--repeat R] [--json] [--only CASE,...]`, or
/// `ledger [--n N] [--repeat R] [--dir DIR] [--json] [--only WORKLOAD,...]`, or
/// `memory [--n N] [--json]`.
enum BenchCommand {
    static let tool = CommandLineTool(
        name: "objectgraph-bench",
        summary: "The side-by-side benchmark (W0–W7), the micro-benchmarks and the ledger's goals.",
        commands: [macro, micro, ledger, memory])

    /// The default command: the workloads W0–W7 on one store.
    static let macro = Command<NoArguments>(
        [], summary: "Run the workloads W0–W7 on one store and print one JSON line per workload.",
        details: """
            The workloads are those of docs/performance.md; the dataset is a JSON-lines file of
            expenses (reading it is not timed). jsonl mode keeps its store at DIR/bench.jsonl,
            with automatic compaction off. --drop-caches drops the OS page cache before W2
            (needs root; best effort).

            Build with: swift build -c release --product objectgraph-bench
            """
    ) { (options: MacroOptions, _, output) in
        let dataset = try Dataset.load(path: options.datasetPath)
        try FileManager.default.createDirectory(
            atPath: options.directory, withIntermediateDirectories: true)
        let run = try MacroRun(
            dataset: dataset, mode: options.mode,
            directory: URL(fileURLWithPath: options.directory), dropCaches: options.dropCaches,
            output: output)
        try run.run()
    }

    /// `micro`: the micro-benchmarks that explain the workloads' numbers.
    static let micro = Command<NoArguments>(
        ["micro"], summary: "Run the micro-benchmarks and print a table, or JSON lines.",
        details: """
            N objects; each case R times, reporting the median. --only runs the named cases
            alone (for a profiler: the timed regions run inside `timedRegion`, so callgrind's
            --toggle-collect='*timedRegion*' sees only them).
            """
    ) { (options: MicroOptions, _, output) in
        try MicroSuite(options: options, output: output).run()
    }

    /// `memory`: bytes per row and per registered object.
    static let memory = Command<NoArguments>(
        ["memory"], summary: "Measure bytes per row (RAM and file store) and per fetched object.",
        details: """
            Heap in use (glibc's mallinfo2, every arena) before and after: N synthetic expenses
            committed to a RAM store (row.ram), a file of N expenses opened (row.file), N
            expenses fetched into a context as faults (object.fault) and with their values
            (object.filled). Prints bytes per item, or with --json one JSON line per case.
            """
    ) { (options: RunOptions, _, output) in
        try MemoryRun(count: options.count, json: options.json, output: output).run()
    }

    /// `ledger`: the ledger's speed goals, through LedgerKit.
    static let ledger = Command<NoArguments>(
        ["ledger"], summary: "Time the ledger's import, re-import and report through LedgerKit.",
        details: """
            Writes an N-row bank CSV (Date,Amount,Payee,Memo; seeded, not timed) to DIR (default:
            a temporary directory, removed afterwards), then times `import` into a new ledger
            file (goal ≤ 2 s at N = 100000), `import` of the same file again (adds nothing), and
            `report` by category on the file, open included (goal ≤ 0.3 s), as the `ledger`
            command runs them. Each run opens and closes its own ledger; each workload prints
            the median of R runs, or, with --json, one JSON line in the first form's shape (mode
            "ledger", plus "runs" and "goal_seconds"). The timed regions run inside
            `timedRegion`.
            """
    ) { (options: LedgerOptions, _, output) in
        try LedgerRun(options: options, output: output).run()
    }
}

/// Options of a macro run.
struct MacroOptions: ParsableArguments {
    @Option("--dataset", "FILE", help: "the dataset: one JSON object per expense")
    var datasetPath: String
    @Option(
        "--mode", "memory|jsonl", help: "the store",
        transform: ArgumentTransform { text, name in
            guard let mode = StoreMode(rawValue: text) else {
                throw CLIError.usage("\(name) must be memory or jsonl, not '\(text)'")
            }
            return mode
        })
    var mode: StoreMode
    @Option("--dir", "DIR", help: "where the jsonl store is written") var directory: String
    @Flag("--drop-caches", help: "drop the OS page cache before W2 (needs root)")
    var dropCaches: Bool
}

/// What the micro and ledger runs share: how many, how often, and how to print.
struct RunOptions: ParsableArguments {
    @Option("--n", "N", help: "how many objects or rows", transform: .positive)
    var count = 100_000
    @Option(
        "--repeat", "R", help: "runs of each case; the median is reported", transform: .positive)
    var repeats = 3
    @Flag("--json", help: "print one JSON line per result") var json: Bool
}

/// Options of the micro-benchmarks.
struct MicroOptions: ParsableArguments {
    @OptionGroup var run: RunOptions
    /// Case names to run; empty runs them all.
    @Option("--only", "CASE,...", help: "run only these cases", transform: .commaSeparated)
    var only: Set<String> = []

    var count: Int { run.count }
    var repeats: Int { run.repeats }
    var json: Bool { run.json }
}

extension ArgumentTransform where Value == Int {
    /// A positive integer, else a usage error.
    static var positive: Self {
        Self { text, name in
            guard let value = Int(text), value > 0 else {
                throw CLIError.usage("\(name) needs a positive integer, not '\(text)'")
            }
            return value
        }
    }
}

extension ArgumentTransform where Value == Set<String> {
    /// `a,b,c` as a set of names.
    static var commaSeparated: Self {
        Self { text, _ in Set(text.split(separator: ",").map(String.init)) }
    }
}
