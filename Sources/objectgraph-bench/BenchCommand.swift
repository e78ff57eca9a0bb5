import Foundation

/// The command line: `--dataset FILE --mode memory|jsonl --dir DIR [--drop-caches]`, or
/// `micro [--n N] [--repeat R] [--json] [--only CASE,...]`, or
/// `ledger [--n N] [--repeat R] [--dir DIR] [--json] [--only WORKLOAD,...]`.
enum BenchCommand {
    static let usage = """
        usage: objectgraph-bench --dataset FILE --mode memory|jsonl --dir DIR [--drop-caches]
               objectgraph-bench micro [--n N] [--repeat R] [--json] [--only CASE,...]
               objectgraph-bench ledger [--n N] [--repeat R] [--dir DIR] [--json]
                                        [--only import,reimport,report]

        The first form runs the workloads W0–W7 of ../shared/bench/README.md on one store and
        prints one JSON line per workload (the dataset comes from ../shared/bench/dataset.py;
        reading it is not timed). jsonl mode keeps its store at DIR/bench.jsonl, with automatic
        compaction off. --drop-caches drops the OS page cache before W2 (needs root; best effort).

        `micro` runs the micro-benchmarks that explain the workloads' numbers (N objects,
        default 100000; each case R times, default 3, reporting the median) and prints a table,
        or JSON lines with --json. --only runs the named cases alone (for a profiler: the timed
        regions run inside `timedRegion`, so callgrind's --toggle-collect='*timedRegion*' sees
        only them).

        `ledger` measures issue 4's goals through LedgerKit, as the `ledger` command runs them:
        it writes an N-row bank CSV (Date,Amount,Payee,Memo; default N 100000; seeded, not
        timed) to DIR (default: a temporary directory, removed afterwards), then times `import`
        into a new ledger file (goal ≤ 2 s at N = 100000), `import` of the same file again
        (adds nothing), and `report` by category on the file, open included (goal ≤ 0.3 s).
        Each run opens and closes its own ledger; each workload prints the median of R runs
        (default 3), or, with --json, one JSON line in the first form's shape (mode "ledger",
        plus "runs" and "goal_seconds"). The timed regions run inside `timedRegion`.

        Build with: swift build -c release --product objectgraph-bench

        """

    /// Runs the command; returns the exit code.
    static func main(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage, terminator: "")
            return 0
        }
        do {
            if arguments.first == "micro" {
                let options = try MicroOptions(Array(arguments.dropFirst()))
                try MicroSuite(options: options).run()
            } else if arguments.first == "ledger" {
                try LedgerRun(options: try LedgerOptions(Array(arguments.dropFirst()))).run()
            } else {
                let options = try MacroOptions(arguments)
                let dataset = try Dataset.load(path: options.datasetPath)
                try FileManager.default.createDirectory(
                    atPath: options.directory, withIntermediateDirectories: true)
                let run = try MacroRun(
                    dataset: dataset, mode: options.mode,
                    directory: URL(fileURLWithPath: options.directory),
                    dropCaches: options.dropCaches)
                try run.run()
            }
            return 0
        } catch let error as UsageError {
            FileHandle.standardError.write(
                Data("objectgraph-bench: \(error.message)\n\n\(usage)".utf8))
            return 64
        } catch {
            FileHandle.standardError.write(Data("objectgraph-bench: \(error)\n".utf8))
            return 1
        }
    }
}

/// A command-line mistake: printed with the usage, exit code 64.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Options of a macro run.
struct MacroOptions {
    var datasetPath = ""
    var mode = StoreMode.memory
    var directory = ""
    var dropCaches = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        var sawMode = false
        while let argument = rest.popFirst() {
            switch argument {
            case "--dataset": datasetPath = try value(of: argument, from: &rest)
            case "--dir": directory = try value(of: argument, from: &rest)
            case "--drop-caches": dropCaches = true
            case "--mode":
                let text = try value(of: argument, from: &rest)
                guard let parsed = StoreMode(rawValue: text) else {
                    throw UsageError("--mode must be memory or jsonl, not '\(text)'")
                }
                mode = parsed
                sawMode = true
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        if datasetPath.isEmpty { throw UsageError("--dataset FILE is required") }
        if directory.isEmpty { throw UsageError("--dir DIR is required") }
        if !sawMode { throw UsageError("--mode memory|jsonl is required") }
    }
}

/// Options of the micro-benchmarks.
struct MicroOptions {
    var count = 100_000
    var repeats = 3
    var json = false
    /// Case names to run; empty runs them all.
    var only: Set<String> = []

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--only":
                only = Set(
                    try value(of: argument, from: &rest).split(separator: ",").map(String.init))
            case "--n": count = try positive(try value(of: argument, from: &rest), argument)
            case "--repeat": repeats = try positive(try value(of: argument, from: &rest), argument)
            case "--json": json = true
            default: throw UsageError("micro: unknown argument '\(argument)'")
            }
        }
    }

    private func positive(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError("\(name) needs a positive integer, not '\(text)'")
        }
        return value
    }
}

/// The value after an option, or a usage error naming the option.
private func value(of option: String, from rest: inout ArraySlice<String>) throws -> String {
    guard let value = rest.popFirst(), !value.hasPrefix("--") else {
        throw UsageError("\(option) needs a value")
    }
    return value
}
