import Foundation

// objectgraph-bench: the side-by-side benchmark (W0–W7) and the micro-benchmarks.
// Exit codes: 0 ok, 1 failure, 64 usage.
exit(await BenchCommand.tool.run(Array(CommandLine.arguments.dropFirst())))
