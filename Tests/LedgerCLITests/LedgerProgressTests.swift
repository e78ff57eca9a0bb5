import CLISupport
import Foundation
import LedgerKit
import Testing

/// What the long `ledger` commands report to their progress bar, with a fake terminal: each
/// bar's counts rise and reach the total, and `--quiet` draws nothing.
@Suite struct LedgerProgressTests {
    /// Fake bars whose clock moves a second per reading (so every update draws) and whose
    /// writes are kept, by label.
    private final class Terminal: @unchecked Sendable {
        // Sendable: `writes` is guarded by `lock`.
        private let lock = NSLock()
        private var now: TimeInterval = 0
        private var writes: [(label: String, text: String)] = []

        func bar(_ label: String) -> ProgressBar {
            ProgressBar(
                label: label, width: 200,
                clock: { [self] in
                    lock.withLock {
                        now += 1
                        return now
                    }
                },
                write: { [self] text in lock.withLock { writes.append((label, text)) } })
        }

        /// The labels that drew anything.
        var labels: Set<String> { lock.withLock { Set(writes.map(\.label)) } }

        /// The `done/total` pairs the bar labelled `label` drew, in order.
        func counts(_ label: String) -> [(done: Int, total: Int)] {
            lock.withLock {
                writes.filter { $0.label == label }.compactMap { Self.counts(in: $0.text) }
            }
        }

        /// Whether the bar labelled `label` ended with the line cleared.
        func cleared(_ label: String) -> Bool {
            lock.withLock { writes.last { $0.label == label }?.text == "\r\u{1B}[K" }
        }

        /// `41,000/100,000 rows` → (41000, 100000).
        private static func counts(in text: String) -> (Int, Int)? {
            guard let range = text.range(of: #"[0-9,]+/[0-9,]+ rows"#, options: .regularExpression)
            else { return nil }
            let parts = text[range].dropLast(5).split(separator: "/").map {
                Int($0.replacingOccurrences(of: ",", with: ""))
            }
            guard parts.count == 2, let done = parts[0], let total = parts[1] else { return nil }
            return (done, total)
        }
    }

    /// Runs `ledger` in-process with `terminal`'s bars standing in for a terminal.
    private func run(_ sandbox: CLISandbox, _ arguments: [String], _ terminal: Terminal) async
        -> CLIResult
    {
        let output = CLIOutput.capturing(progressBars: terminal.bar)
        let code = await LedgerTool.make(environment: sandbox.environment).run(
            arguments, output: output)
        return CLIResult(code: code, stdout: output.stdout, stderr: output.stderr)
    }

    /// Expects `counts` to rise (never fall) to `total`, on one total.
    private func expectRising(
        _ counts: [(done: Int, total: Int)], to total: Int, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!counts.isEmpty, "\(label) drew no counts", sourceLocation: sourceLocation)
        #expect(
            counts.allSatisfy { $0.total == total }, "\(label): \(counts)",
            sourceLocation: sourceLocation)
        #expect(
            zip(counts, counts.dropFirst()).allSatisfy { $0.done <= $1.done },
            "\(label): \(counts)", sourceLocation: sourceLocation)
        #expect(counts.last?.done == total, "\(label): \(counts)", sourceLocation: sourceLocation)
    }

    /// A sandbox with `l.jsonl` holding `count` imported transactions, half before 2021.
    private func ledger(_ count: Int) async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        var csv = "Date,Amount\n"
        for i in 0..<count {
            let (year, day) = (i < count / 2 ? 2020 : 2021, i % 28 + 1)
            csv += "\(year)-01-\(day < 10 ? "0" : "")\(day),-\(i % 97 + 1).25\n"
        }
        let file = try sandbox.write("rows.csv", csv)
        let imported = await sandbox.run([
            "--file", "l.jsonl", "import", file, "--date-column", "1", "--amount-column", "2",
        ])
        #expect(imported.code == 0, "\(imported.stderr)")
        return sandbox
    }

    @Test func adjustPurgeCompactAndVerifyCountUpToTheirTotalsAndClearTheLine() async throws {
        let sandbox = try await ledger(9_000)
        defer { sandbox.remove() }
        let terminal = Terminal()
        for command in [
            ["adjust", "--multiply", "1.1"], ["purge", "--before", "2021-01-01"], ["compact"],
            ["verify"],
        ] {
            let result = await run(sandbox, command + ["--file", "l.jsonl"], terminal)
            #expect(result.code == 0, "\(command): \(result.stderr)")
            #expect(result.stderr == "", "\(command)")
        }
        // adjust checks all 9,000 rows (a report every 4,096), purge the 4,500 before 2021;
        // compact writes the 4,500 left, verify checks them.
        let adjust = terminal.counts("adjust")
        expectRising(adjust, to: 9_000, "adjust")
        #expect(adjust.contains { $0.done == 4_096 })
        expectRising(terminal.counts("purge"), to: 4_500, "purge")
        expectRising(terminal.counts("compact"), to: 4_500, "compact")
        expectRising(terminal.counts("verify"), to: 4_500, "verify")
        #expect(terminal.counts("compact").first?.done == 0)
        for label in ["adjust", "purge", "compact", "verify"] {
            #expect(terminal.cleared(label), "\(label)")
        }
    }

    @Test func quietDrawsNoBar() async throws {
        let sandbox = try await ledger(10)
        defer { sandbox.remove() }
        let terminal = Terminal()
        for command in [
            ["adjust", "--add", "1.00"], ["purge", "--before", "2021-01-01"], ["compact"],
            ["verify"],
        ] {
            let result = await run(sandbox, command + ["--file", "l.jsonl", "--quiet"], terminal)
            #expect(result.code == 0, "\(command): \(result.stderr)")
        }
        #expect(terminal.labels.isEmpty)
    }

    @Test func compactAndVerifyHelpListQuiet() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        for command in ["compact", "verify", "purge", "adjust"] {
            let help = await sandbox.run([command, "--help"])
            #expect(help.code == 0)
            #expect(help.stdout.contains("--quiet"), "\(command)")
        }
    }
}
