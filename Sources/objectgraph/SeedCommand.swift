import CLISupport
import Foundation
import ObjectGraph
import ObjectGraphTesting

/// `objectgraph seed` and `objectgraph load`: write a store file from a model and either
/// generated preview data or a JSON fixture, deterministically.
enum SeedCommand {
    struct Arguments: ParsableArguments {
        @Option("--model", "MODEL", help: "the model: JSON, .xcdatamodeld, .xcdatamodel")
        var model: String
        @Option(
            "--count", "Entity=N", help: "how many objects of an entity (repeatable)",
            transform: ArgumentTransform { text, _ in try entityCount(text) })
        var counts: [(entity: String, count: Int)]
        @Option(
            "--seed", "S", help: "the seed of values, store UUID and timestamps",
            transform: .seed)
        var seed: UInt64 = 0
        @Option("--out", "FILE.jsonl", help: "the store file to write (must not exist)")
        var out: String
        @Flag("--quiet", help: "no progress bar on standard error") var quiet: Bool
    }

    static let command = ToolCommand(
        ["seed"], summary: "Write a store file of valid generated data for a model.",
        details:
            "The same model, counts and seed write byte-identical files. On a terminal, a progress "
            + "bar on standard error counts the objects made: each twice, once on a scratch RAM "
            + "store that checks the model, then in the file (--quiet: none)."
    ) { (args: Arguments, _, output) in
        let model = try loadModel(args.model)
        var counts: [String: Int] = [:]
        for (entity, n) in args.counts { counts[entity] = n }
        let out = try outputURL(args.out)
        try StoreFileSupport.reportingCodes {
            var job = SeedJob(model: model, counts: counts, seed: args.seed)
            job.requiresNewFile = true
            let result = try run(label: "seed", quiet: args.quiet, output) {
                try job.run(storeURL: out, progress: $0)
            } plain: {
                try job.run(storeURL: out)
            }
            close(result)
            output.out(
                "\(out.path): \(StoreFileSupport.grouped(result.totalCount)) objects ("
                    + summary(result.counts) + ")")
        }
    }

    /// Runs a job with a progress bar counting objects when standard error is a terminal and
    /// `quiet` is off (`withProgress`), else without (`plain`).
    private static func run(
        label: String, quiet: Bool, _ output: CLIOutput,
        withProgress: (@escaping (Int, Int) -> Void) throws -> StoreJobResult,
        plain: () throws -> StoreJobResult
    ) throws -> StoreJobResult {
        guard let bar = output.progressBar(label, quiet: quiet, unit: "objects") else {
            return try plain()
        }
        defer { bar.finish() }
        return try withProgress { bar.update($0, of: $1) }
    }

    struct LoadArguments: ParsableArguments {
        @Option("--model", "MODEL", help: "the model: JSON, .xcdatamodeld, .xcdatamodel")
        var model: String
        @Option("--fixtures", "F.json", help: "a fixture file (repeatable; at least one)")
        var fixtures: [String]
        @Option(
            "--seed", "S", help: "the seed of the store UUID and timestamps", transform: .seed)
        var seed: UInt64 = 0
        @Option("--out", "FILE.jsonl", help: "the store file to write (must not exist)")
        var out: String
        @Flag("--quiet", help: "no progress bar on standard error") var quiet: Bool
    }

    static let loadCommand = ToolCommand(
        ["load"], summary: "Write a store file from a JSON fixture, after checking it fully.",
        details:
            "An invalid fixture writes nothing. Format: the FixturesAndSeeding article of the documentation. "
            + "On a terminal, a progress bar on standard error counts the objects made: each twice, "
            + "once on a scratch RAM store that checks the fixtures, then in the file (--quiet: none)."
    ) { (args: LoadArguments, _, output) in
        let model = try loadModel(args.model)
        guard !args.fixtures.isEmpty else { throw CLIError.usage("--fixtures F.json is required") }
        let out = try outputURL(args.out)
        try StoreFileSupport.reportingCodes {
            let sources = try args.fixtures.map {
                try FixtureSource(contentsOf: URL(fileURLWithPath: $0))
            }
            var job = LoadJob(model: model, fixtures: sources, seed: args.seed)
            job.requiresNewFile = true
            let result = try run(label: "load", quiet: args.quiet, output) {
                try job.run(storeURL: out, progress: $0)
            } plain: {
                try job.run(storeURL: out)
            }
            close(result)
            output.out(
                "\(out.path): \(StoreFileSupport.grouped(result.totalCount)) objects ("
                    + summary(result.counts) + ")")
        }
    }

    private static func loadModel(_ path: String) throws -> ManagedObjectModel {
        do {
            return try ManagedObjectModel(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ObjectGraphError {
            throw CLIError.failure(error.description)
        }
    }

    /// `Entity=N`, N a whole number.
    private static func entityCount(_ item: String) throws -> (entity: String, count: Int) {
        let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let n = Int(digits: parts[1]) else {
            throw CLIError.failure(
                "--count takes Entity=N with N a whole number ≥ 0, not '\(EchoedText.capped(item))'"
            )
        }
        return (parts[0], n)
    }

    private static func outputURL(_ path: String) throws -> URL {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError.failure(
                "\(path) already exists; choose a new file (nothing was written)")
        }
        return URL(fileURLWithPath: path)
    }

    private static func close(_ result: StoreJobResult) {
        for case let store as JSONLinesStore in result.coordinator.persistentStores {
            store.close()
        }
    }

    private static func summary(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \(StoreFileSupport.grouped($0.value))" }
            .joined(separator: ", ")
    }
}

extension ArgumentTransform where Value == UInt64 {
    /// A seed: ASCII digits, 0 to `UInt64.max`.
    static var seed: Self {
        Self { text, name in
            guard !text.isEmpty,
                text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let seed = UInt64(text)
            else {
                throw CLIError.failure(
                    "\(name) takes a whole number from 0 to \(UInt64.max), not '\(EchoedText.capped(text))'"
                )
            }
            return seed
        }
    }
}
