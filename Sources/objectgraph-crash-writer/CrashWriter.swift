import Foundation
import ObjectGraph

/// `objectgraph-crash-writer`: the child process of the file store's crash tests.
///
///     objectgraph-crash-writer write FILE SEED full|normal|off   commit until killed; print "committed N"
///     objectgraph-crash-writer hold FILE                          hold the writer lock until stdin closes
///     objectgraph-crash-writer check FILE [REPORTED]              check the invariants; exit 1 on a violation
///     objectgraph-crash-writer context FILE SEED full|normal|off  the write workload through contexts
///     objectgraph-crash-writer stress DIR TRIALS SEED             kill a writer TRIALS times and check each file
///     objectgraph-crash-writer campaign DIR TRIALS SEED [SCENARIO…]
///                                        kill ledger, objectgraph and context saves in their windows
///
/// Transaction N inserts 1–20 `Item`s tagged N (with random-length payloads), sets the
/// `Counter` to N and deletes the items of transaction N−3; every seventh transaction also
/// compacts. So a file that holds exactly the transactions 1…N has the counter at N and
/// complete groups of items for N−2…N: anything half-applied shows.
@main
struct CrashWriter {
    static func main() async {
        let args = Array(CommandLine.arguments.dropFirst())
        do {
            switch (args.first, args.count) {
            case ("write", 4):
                guard let seed = UInt64(args[2]), let sync = SynchronousMode(rawValue: args[3])
                else { usage() }
                try CrashWorkload.write(file: args[1], seed: seed, synchronous: sync)
            case ("context", 4):
                guard let seed = UInt64(args[2]), let sync = SynchronousMode(rawValue: args[3])
                else { usage() }
                try CrashWorkload.writeThroughContexts(
                    file: args[1], seed: seed, synchronous: sync)
            case ("hold", 2):
                let store = try JSONLinesStore(
                    model: CrashWorkload.model, url: URL(fileURLWithPath: args[1]))
                FileHandle.standardOutput.write(Data("ready \(getpid())\n".utf8))
                _ = FileHandle.standardInput.readDataToEndOfFile()
                store.close()
            case ("check", 2), ("check", 3):
                let n = try CrashWorkload.check(
                    file: args[1], reported: args.count == 3 ? Int64(args[2]) ?? 0 : 0)
                print("ok \(n)")
            case ("campaign", 4...):
                guard let trials = Int(args[2]), trials > 0, let seed = UInt64(args[3]) else {
                    usage()
                }
                let only = try args.dropFirst(4).map { name in
                    guard let scenario = KillScenario(rawValue: name) else {
                        throw CrashViolation(
                            "unknown scenario \(name); known: "
                                + KillScenario.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    return scenario
                }
                try KillCampaign.run(directory: args[1], trials: trials, seed: seed, only: only)
            case ("stress", 4):
                guard let trials = Int(args[2]), let seed = UInt64(args[3]) else { usage() }
                try await CrashStress.run(directory: args[1], trials: trials, seed: seed)
            default:
                usage()
            }
        } catch {
            FileHandle.standardError.write(Data("objectgraph-crash-writer: \(error)\n".utf8))
            exit(1)
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(
            Data(
                """
                usage: objectgraph-crash-writer write FILE SEED full|normal|off
                       objectgraph-crash-writer hold FILE
                       objectgraph-crash-writer check FILE [REPORTED]
                       objectgraph-crash-writer context FILE SEED full|normal|off
                       objectgraph-crash-writer stress DIR TRIALS SEED
                       objectgraph-crash-writer campaign DIR TRIALS SEED [SCENARIO…]

                """.utf8))
        exit(64)
    }
}
