import Foundation
import ObjectGraph

/// A subcommand: its spec and what it does.
public struct Command: Sendable {
    /// What it accepts.
    public var spec: CommandSpec
    /// Runs it with parsed arguments, writing to `output`; throws ``CLIError`` (or any error,
    /// reported as a failure).
    public var run: @Sendable (ParsedArguments, CLIOutput) async throws -> Void

    /// Creates a command.
    public init(
        _ spec: CommandSpec,
        run: @escaping @Sendable (ParsedArguments, CLIOutput) async throws -> Void
    ) {
        self.spec = spec
        self.run = run
    }
}

/// A program made of subcommands, with global options, `--help` everywhere, and documented
/// exit codes (0 ok, 1 failure, 64 usage).
///
/// ```swift
/// let tool = CommandLineTool(name: "ledger", summary: "…", global: [.value("--file", "PATH", "…")],
///                            commands: [demo, add, list])
/// exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
/// ```
public struct CommandLineTool: Sendable {
    /// The program's name, for usage lines.
    public var name: String
    /// One paragraph about the program.
    public var summary: String
    /// Options every command accepts (before or after the command words).
    public var global: [OptionSpec]
    /// The subcommands.
    public var commands: [Command]

    /// Creates a tool.
    public init(name: String, summary: String, global: [OptionSpec], commands: [Command]) {
        self.name = name
        self.summary = summary
        self.global = global
        self.commands = commands
    }

    /// Runs the command line `words` (without the program name) and returns the exit code.
    ///
    /// Output goes to `output` (standard output and error by default).
    public func run(_ words: [String], output: CLIOutput = .standard) async -> Int32 {
        let helpRequested = words.contains("--help") || words.contains("-h")
        let rest = words.filter { $0 != "--help" && $0 != "-h" }
        guard let (command, remaining) = match(rest) else {
            if helpRequested && rest.allSatisfy({ $0.hasPrefix("-") }) {
                output.out(overview())
                return 0
            }
            if rest.isEmpty {
                output.err(overview())
                return 64
            }
            let unknown = rest.first { !$0.hasPrefix("-") } ?? rest[0]
            output.err(
                "\(name): unknown command '\(Self.shown(EchoedText.capped(unknown)))'\n\n\(overview())"
            )
            return 64
        }
        let usage = command.spec.usage(program: name, global: global)
        if helpRequested {
            output.out(usage)
            return 0
        }
        do {
            let arguments = try ParsedArguments.parse(
                remaining, options: command.spec.options + global,
                positionals: command.spec.positionals)
            try await command.run(arguments, output)
            return 0
        } catch let error as CLIError {
            switch error {
            case .usage(let message):
                output.err(
                    "\(name) \(command.spec.path.joined(separator: " ")): \(Self.shown(message))\n\n\(usage)"
                )
            case .failure(let message): output.err("\(name): \(Self.shown(message))")
            }
            return error.exitCode
        } catch {
            output.err("\(name): \(Self.shown(CLIOutput.describe(error)))")
            return 1
        }
    }

    /// An error message as printed: control characters made visible, each line capped (a
    /// message must never repeat a 100 KB argument whole; see `EchoedText`).
    static func shown(_ message: String) -> String {
        CLIOutput.visible(EchoedText.cappedLines(message))
    }

    /// The command whose path matches the first non-option words, and the other words.
    private func match(_ words: [String]) -> (Command, [String])? {
        var best: (Command, [String])?
        for command in commands {
            var remaining = words
            var matched = true
            for part in command.spec.path {
                guard let i = firstCommandWord(remaining), remaining[i] == part else {
                    matched = false
                    break
                }
                remaining.remove(at: i)
            }
            if matched, best == nil || command.spec.path.count > best!.0.spec.path.count {
                best = (command, remaining)
            }
        }
        return best
    }

    /// The index of the first word that is not an option or a global option's value.
    private func firstCommandWord(_ words: [String]) -> Int? {
        var i = 0
        while i < words.count {
            let word = words[i]
            if word.hasPrefix("--") {
                let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
                let takesValue =
                    global.first { $0.name == name }?.valueName != nil && !word.contains("=")
                i += takesValue ? 2 : 1
                continue
            }
            return i
        }
        return nil
    }

    /// The list of commands.
    public func overview() -> String {
        let width = commands.map { $0.spec.path.joined(separator: " ").count }.max() ?? 0
        var lines = ["usage: \(name) [options] COMMAND ...", "", summary, "", "commands:"]
        for command in commands {
            lines.append(
                "  "
                    + command.spec.path.joined(separator: " ").padding(
                        toLength: width, withPad: " ", startingAt: 0)
                    + "  " + command.spec.summary)
        }
        lines.append("")
        lines.append(
            "Run '\(name) COMMAND --help' for a command's options. Exit codes: 0 ok, 1 failure, 64 usage."
        )
        return lines.joined(separator: "\n")
    }
}
