import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph-crash-writer`: the child process of the file store's crash tests.
///
///     objectgraph-crash-writer write FILE SEED full|normal|off   commit until killed; print "committed N"
///     objectgraph-crash-writer hold FILE                          hold the writer lock until stdin closes
///     objectgraph-crash-writer check FILE [REPORTED]              check the invariants; exit 1 on a violation
///     objectgraph-crash-writer context FILE SEED full|normal|off  the write workload through contexts
///     objectgraph-crash-writer migrate FILE                       open FILE through the staged migration chain
///     objectgraph-crash-writer stress DIR TRIALS SEED             kill a writer TRIALS times and check each file
///     objectgraph-crash-writer campaign DIR TRIALS SEED [--scenario NAME…]
///                                        kill ledger, objectgraph and context saves in their windows
///
/// Transaction N inserts 1–20 `Item`s tagged N (with random-length payloads), sets the
/// `Counter` to N and deletes the items of transaction N−3; every seventh transaction also
/// compacts. So a file that holds exactly the transactions 1…N has the counter at N and
/// complete groups of items for N−2…N: anything half-applied shows.
@main
struct CrashWriter {
    struct WriteArguments: ParsableArguments {
        @Argument("FILE") var file: String
        @Argument("SEED", transform: .usage("a seed from 0 to \(UInt64.max)") { UInt64($0) })
        var seed: UInt64
        @Argument(
            "full|normal|off",
            transform: .usage("full, normal or off") { SynchronousMode(rawValue: $0) })
        var synchronous: SynchronousMode
    }

    struct CheckArguments: ParsableArguments {
        @Argument("FILE") var file: String
        /// The last commit the writer reported (text that is not a number counts as 0).
        @Argument("REPORTED", transform: ArgumentTransform { text, _ in Int64(text) ?? 0 })
        var reported: Int64?
    }

    struct StressArguments: ParsableArguments {
        @Argument("DIR") var directory: String
        @Argument("TRIALS", transform: .usage("a number of trials") { Int($0) }) var trials: Int
        @Argument("SEED", transform: .usage("a seed from 0 to \(UInt64.max)") { UInt64($0) })
        var seed: UInt64
    }

    struct CampaignArguments: ParsableArguments {
        @Argument("DIR") var directory: String
        @Argument(
            "TRIALS",
            transform: .usage("a number of trials") { Int($0).flatMap { $0 > 0 ? $0 : nil } })
        var trials: Int
        @Argument("SEED", transform: .usage("a seed from 0 to \(UInt64.max)") { UInt64($0) })
        var seed: UInt64
        @Option(
            "--scenario", "NAME",
            help: "only this scenario (repeatable): "
                + KillScenario.allCases.map(\.rawValue).joined(separator: ", "),
            transform: .usage("a scenario name") { KillScenario(rawValue: $0) })
        var scenarios: [KillScenario]
    }

    static let tool = CommandLineTool(
        name: "objectgraph-crash-writer",
        summary: "The child process of the file store's crash tests, and a kill-trial runner.",
        commands: [
            Command(["write"], summary: "commit until killed; print \"committed N\" after each") {
                (arguments: WriteArguments, _, _) in
                try CrashWorkload.write(
                    file: arguments.file, seed: arguments.seed,
                    synchronous: arguments.synchronous)
            },
            Command(["context"], summary: "the write workload through contexts (two-step saves)") {
                (arguments: WriteArguments, _, _) in
                try CrashWorkload.writeThroughContexts(
                    file: arguments.file, seed: arguments.seed,
                    synchronous: arguments.synchronous)
            },
            Command(["hold"], summary: "hold the writer lock until standard input closes") {
                (arguments: StoreFileArgument, _, output) in
                let store = try JSONLinesStore(
                    model: CrashWorkload.model, url: URL(fileURLWithPath: arguments.file))
                output.out("ready \(getpid())")
                _ = FileHandle.standardInput.readDataToEndOfFile()
                store.close()
            },
            Command(["check"], summary: "check the invariants; exit 1 on a violation") {
                (arguments: CheckArguments, _, output) in
                let n = try CrashWorkload.check(
                    file: arguments.file, reported: arguments.reported ?? 0)
                output.out("ok \(n)")
            },
            Command(["migrate"], summary: "open FILE with version 3 through the staged chain") {
                (arguments: StoreFileArgument, _, output) in
                try MigrationWorkload.migrateStaged(arguments.file)
                output.out("migrated")
            },
            Command(["stress"], summary: "kill a writer TRIALS times and check each file") {
                (arguments: StressArguments, _, output) in
                try await CrashStress.run(
                    directory: arguments.directory, trials: arguments.trials, seed: arguments.seed,
                    output: output)
            },
            Command(
                ["campaign"],
                summary: "kill ledger, objectgraph and context saves inside their write windows"
            ) { (arguments: CampaignArguments, _, output) in
                try KillCampaign.run(
                    directory: arguments.directory, trials: arguments.trials, seed: arguments.seed,
                    only: arguments.scenarios, output: output)
            },
        ])

    static func main() async {
        exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
    }
}

/// `FILE`.
struct StoreFileArgument: ParsableArguments {
    @Argument("FILE") var file: String
}

extension ArgumentTransform {
    /// The value `parse` reads, or a usage error (exit 64) saying what was `expected`.
    static func usage(_ expected: String, _ parse: @escaping @Sendable (String) -> Value?) -> Self {
        Self { text, name in
            guard let value = parse(text) else {
                throw CLIError.usage("\(name) takes \(expected), not '\(text)'")
            }
            return value
        }
    }
}
