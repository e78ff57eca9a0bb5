import CLISupport
import Foundation
import ObjectGraph
import ObjectGraphTesting

/// `objectgraph seed` and `objectgraph load`: write a store file from a model and either
/// generated preview data or a JSON fixture, deterministically.
enum SeedCommand {
    static let command = Command(
        CommandSpec(
            path: ["seed"], summary: "Write a store file of valid generated data for a model.",
            positionals: 0...0,
            options: [
                .value("--model", "MODEL", "the model: JSON, .xcdatamodeld, .xcdatamodel"),
                .value(
                    "--count", "Entity=N", "how many objects of an entity (repeatable)",
                    repeatable: true),
                .value("--seed", "S", "the seed of values, store UUID and timestamps (default 0)"),
                .value("--out", "FILE.jsonl", "the store file to write (must not exist)"),
            ],
            details: "The same model, counts and seed write byte-identical files.")
    ) { args, output in
        let model = try loadModel(args)
        var counts: [String: Int] = [:]
        for item in args.allValues("--count") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let n = ParsedArguments.wholeNumber(parts[1]) else {
                throw CLIError.failure(
                    "--count takes Entity=N with N a whole number ≥ 0, not '\(EchoedText.capped(item))'"
                )
            }
            counts[parts[0]] = n
        }
        let seed = try seedValue(args)
        let out = try outputURL(args)
        try StoreFileSupport.reportingCodes {
            let result = try SeedJob(model: model, counts: counts, seed: seed).run(storeURL: out)
            close(result)
            output.out("\(out.path): \(result.totalCount) objects (" + summary(result.counts) + ")")
        }
    }

    static let loadCommand = Command(
        CommandSpec(
            path: ["load"],
            summary: "Write a store file from a JSON fixture, after checking it fully.",
            positionals: 0...0,
            options: [
                .value("--model", "MODEL", "the model: JSON, .xcdatamodeld, .xcdatamodel"),
                .value("--fixtures", "F.json", "a fixture file (repeatable)", repeatable: true),
                .value("--seed", "S", "the seed of the store UUID and timestamps (default 0)"),
                .value("--out", "FILE.jsonl", "the store file to write (must not exist)"),
            ],
            details: "An invalid fixture writes nothing. Format: docs/fixtures-and-seeding.md.")
    ) { args, output in
        let model = try loadModel(args)
        let files = args.allValues("--fixtures")
        guard !files.isEmpty else { throw CLIError.usage("--fixtures F.json is required") }
        let seed = try seedValue(args)
        let out = try outputURL(args)
        try StoreFileSupport.reportingCodes {
            let sources = try files.map { try FixtureSource(contentsOf: URL(fileURLWithPath: $0)) }
            let result = try LoadJob(model: model, fixtures: sources, seed: seed).run(storeURL: out)
            close(result)
            output.out("\(out.path): \(result.totalCount) objects (" + summary(result.counts) + ")")
        }
    }

    private static func loadModel(_ args: ParsedArguments) throws -> ManagedObjectModel {
        guard let path = args.value("--model") else {
            throw CLIError.usage("--model MODEL is required")
        }
        do {
            return try ManagedObjectModel(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ObjectGraphError {
            throw CLIError.failure(error.description)
        }
    }

    private static func seedValue(_ args: ParsedArguments) throws -> UInt64 {
        guard let text = args.value("--seed") else { return 0 }
        guard !text.isEmpty,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let seed = UInt64(text)
        else {
            throw CLIError.failure(
                "--seed takes a whole number from 0 to \(UInt64.max), not '\(EchoedText.capped(text))'"
            )
        }
        return seed
    }

    private static func outputURL(_ args: ParsedArguments) throws -> URL {
        guard let path = args.value("--out") else {
            throw CLIError.usage("--out FILE.jsonl is required")
        }
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
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
