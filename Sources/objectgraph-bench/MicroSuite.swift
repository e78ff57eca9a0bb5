import CLISupport
import Foundation
import ObjectGraph

/// One micro-benchmark: `run` does its own untimed setup and returns how many operations
/// it timed and how long they took.
struct MicroCase {
    let name: String
    /// What one operation is ("objects", "reads", …).
    let unit: String
    /// What the case explains, for the table's last column.
    let explains: String
    let run: () throws -> (operations: Int, seconds: Double)
}

/// The median, fastest and slowest of a case's repeats.
struct MicroResult {
    let benchCase: MicroCase
    let operations: Int
    let seconds: [Double]

    var medianSeconds: Double { median(seconds) }
    var operationsPerSecond: Double { medianSeconds > 0 ? Double(operations) / medianSeconds : 0 }
    var nanosecondsPerOperation: Double {
        operations > 0 ? medianSeconds * 1e9 / Double(operations) : 0
    }
}

/// Runs the micro-benchmarks and prints a table, or JSON lines with `--json`.
struct MicroSuite {
    let options: MicroOptions
    let output: CLIOutput

    /// Runs the selected cases and prints their results.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an unknown case name; ``BenchError`` when seeding fails.
    func run() throws {
        let fixture = try MicroFixture(count: options.count)
        let all = fixture.cases()
        let unknown = options.only.subtracting(all.map(\.name))
        if !unknown.isEmpty {
            throw CLIError.usage(
                "no case named \(unknown.sorted().joined(separator: ", ")); "
                    + "cases: \(all.map(\.name).joined(separator: ", "))")
        }
        let cases = all.filter { options.only.isEmpty || options.only.contains($0.name) }
        do { try fixture.prepare() } catch {
            throw BenchError("micro: seeding the store failed: \(error)")
        }
        if !options.json {
            output.out(
                "objectgraph-bench micro: N = \(options.count), median of \(options.repeats) run\(options.repeats == 1 ? "" : "s"), "
                    + "\(MacroRun.buildConfiguration) build\n")
        }
        var results: [MicroResult] = []
        for benchCase in cases {
            var seconds: [Double] = []
            var operations = 0
            var failure: (any Error)?
            for _ in 0..<options.repeats {
                do {
                    let outcome = try benchCase.run()
                    operations = outcome.operations
                    seconds.append(outcome.seconds)
                } catch {
                    failure = error
                    break
                }
            }
            if let failure {
                output.err("objectgraph-bench micro: \(benchCase.name) failed: \(failure)")
                continue
            }
            let result = MicroResult(benchCase: benchCase, operations: operations, seconds: seconds)
            results.append(result)
            if options.json { printJSON(result) }
        }
        if !options.json { printTable(results) }
    }

    private func printJSON(_ r: MicroResult) {
        let fields: [(String, JSONValue)] = [
            ("case", .string(r.benchCase.name)), ("unit", .string(r.benchCase.unit)),
            ("n", .integer(options.count)), ("operations", .integer(r.operations)),
            ("seconds_median", .double(rounded(r.medianSeconds, 9))),
            ("seconds_min", .double(rounded(r.seconds.min() ?? 0, 9))),
            ("seconds_max", .double(rounded(r.seconds.max() ?? 0, 9))),
            ("ops_per_second", .double(r.operationsPerSecond.rounded())),
            ("ns_per_op", .double(rounded(r.nanosecondsPerOperation, 1))),
        ]
        output.jsonLine(.object(fields))
    }

    private func printTable(_ results: [MicroResult]) {
        let header = [
            "case", "operations", "median", "min..max", "per second", "ns/op", "explains",
        ]
        let rows = results.map { r in
            [
                r.benchCase.name, "\(r.operations) \(r.benchCase.unit)", duration(r.medianSeconds),
                "\(duration(r.seconds.min() ?? 0))..\(duration(r.seconds.max() ?? 0))",
                count(r.operationsPerSecond), String(format: "%.0f", r.nanosecondsPerOperation),
                r.benchCase.explains,
            ]
        }
        output.table([header] + rows, rightAligned: [1, 2, 3, 4, 5], ruled: true)
        output.out("")
    }

    private func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }

    private func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<1e-3: String(format: "%.1f µs", seconds * 1e6)
        case ..<1: String(format: "%.1f ms", seconds * 1e3)
        default: String(format: "%.2f s", seconds)
        }
    }

    private func count(_ perSecond: Double) -> String {
        switch perSecond {
        case 1e6...: String(format: "%.2f M", perSecond / 1e6)
        case 1e3...: String(format: "%.1f k", perSecond / 1e3)
        default: String(format: "%.0f", perSecond)
        }
    }
}
