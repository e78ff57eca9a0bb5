import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph verify FILE`: every checksum, the replay, every reference.
enum VerifyCommand {
    static let command = ToolCommand(
        ["verify"], summary: "Check every line's checksum and every reference of a store file.",
        details: """
            Lists every damaged line (not only the first) and every reference to a missing row, then
            warnings (an interrupted save's incomplete last line while no writer holds the file,
            transactions missing at the end, a leftover FILE.tmp), then the transactions, rows per
            entity, and the size (the file's, compacted, and what compacting reclaims). Exits with
            1 when anything is damaged (warnings alone exit 0); 'objectgraph repair FILE' keeps
            the good part of a damaged file, and 'objectgraph repair --salvage FILE' also the
            intact lines after the damage. On a terminal, a progress bar on standard error shows the file being read, then the rows
            whose references are checked (--quiet: none).
            """
    ) { (args: LongStoreFileArguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let path = args.file
            let url = URL(fileURLWithPath: path)
            // A bar on a terminal (not with --quiet): reading the file, then the rows checked.
            let report: JSONLinesStoreVerification
            if let bar = output.progressBar("verify", quiet: args.quiet) {
                defer { bar.finish() }
                bar.status("reading \(url.lastPathComponent)")
                report = JSONLinesStore.verify(at: url) { bar.update($0, of: $1) }
            } else {
                report = JSONLinesStore.verify(at: url)
            }
            if args.json {
                var members: [(String, JSONValue)] = [
                    ("file", .string(path)), ("healthy", .bool(report.isHealthy)),
                    ("problems", json(report.problems)), ("warnings", json(report.warnings)),
                ]
                if let statistics = report.statistics, let model = report.metadata?.model {
                    members += StoreFileSupport.json(statistics, model: model)
                }
                output.json(.object(members))
            } else {
                for problem in report.problems {
                    output.out(EchoedText.cappedLines(problem.description))
                }
                for warning in report.warnings {
                    output.out("warning: " + EchoedText.cappedLines(warning.description))
                }
                if let statistics = report.statistics, let model = report.metadata?.model {
                    if report.isHealthy { output.out("\(path): OK") }
                    StoreFileSupport.print(statistics, model: model, to: output)
                }
            }
            guard report.isHealthy else {
                let count = report.problems.count
                throw CLIError.failure(
                    "\(count) problem\(count == 1 ? "" : "s") in \(EchoedText.capped(path))")
            }
        }
    }

    /// `[{"line": N or null, "message": "…"}, …]`.
    private static func json(_ problems: [JSONLinesStoreVerification.Problem]) -> JSONValue {
        .array(
            problems.map { p in
                .object([
                    ("line", p.line.map { .integer($0) } ?? .null),
                    ("message", .string(p.message)),
                ])
            })
    }
}
