import Foundation
import ObjectGraph

/// A program made of subcommands, with global options, `--help` everywhere (generated from
/// the declarations), and documented exit codes (0 ok, 1 failure, 64 usage).
///
/// ```swift
/// struct Global: ParsableArguments {
///     @Option("--file", "PATH", help: "the ledger file") var file: String?
/// }
/// let tool = CommandLineTool(name: "ledger", summary: "…", global: Global.self,
///                            commands: [demo, add, list])
/// exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
/// ```
package struct CommandLineTool<Global: ParsableArguments>: Sendable {
    /// The program's name, for usage lines.
    package let name: String
    /// One paragraph about the program, for the overview (a tool with a default command shows
    /// that command's help instead).
    package let summary: String
    /// The subcommands.
    package let commands: [Command<Global>]
    /// The options every command accepts (before or after the command words).
    private let global: ArgumentSignature

    /// Creates a tool whose commands all accept the options of `global`.
    ///
    /// - Precondition: `global` declares options and flags only, and no command declares
    ///   one of the same name (checked here, once).
    package init(
        name: String, summary: String, global: Global.Type, commands: [Command<Global>]
    ) {
        self.name = name
        self.summary = summary
        self.commands = commands
        self.global = ArgumentSignature(Global.self)
        precondition(
            self.global.positionals.isEmpty, "\(name): global options take no positional arguments"
        )
        for command in commands {
            let words = command.path.isEmpty ? name : command.path.joined(separator: " ")
            if let problem = ArgumentSignature.problem(
                in: command.signature.definitions + self.global.definitions)
            {
                preconditionFailure("\(name) \(words): \(problem)")
            }
        }
    }

    /// Runs the command line `words` (without the program name) and returns the exit code.
    ///
    /// Output goes to `output` (standard output and error by default).
    package func run(_ words: [String], output: CLIOutput = .standard) async -> Int32 {
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
            // The first word that is not an option or a global option's value.
            let unknown = firstCommandWord(rest).map { rest[$0] } ?? rest[0]
            output.err(
                "\(name): unknown command '\(Self.shown(EchoedText.capped(unknown)))'\n\n\(overview())"
            )
            return 64
        }
        if helpRequested {
            output.out(command.path.isEmpty ? overview() : usage(command))
            return 0
        }
        do {
            try await RunningCommand.$words.withValue([name] + command.path) {
                try await command.perform(remaining, output)
            }
            return 0
        } catch let error as CLIError {
            switch error {
            case .usage(let message):
                let words = ([name] + command.path).joined(separator: " ")
                output.err("\(words): \(Self.shown(message))\n\n\(usage(command))")
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

    /// The help of `command`.
    package func usage(_ command: Command<Global>) -> String {
        command.usage(program: name, global: global)
    }

    /// The list of commands (after the default command's usage, when there is one).
    package func overview() -> String {
        let listed = commands.filter { !$0.path.isEmpty }
        let width = listed.map { $0.path.joined(separator: " ").count }.max() ?? 0
        var lines = ["usage: \(name) [options] COMMAND ...", "", summary]
        if let main = commands.first(where: \.path.isEmpty) {
            lines = [usage(main)]
        }
        lines += ["", "commands:"]
        for command in listed {
            lines.append(
                "  "
                    + command.path.joined(separator: " ").padding(
                        toLength: width, withPad: " ", startingAt: 0)
                    + "  " + command.summary)
        }
        lines.append("")
        lines.append(
            "Run '\(name) COMMAND --help' for a command's options. Exit codes: 0 ok, 1 failure, 64 usage."
        )
        return lines.joined(separator: "\n")
    }

    /// The command whose path matches the first non-option words, and the other words.
    private func match(_ words: [String]) -> (Command<Global>, [String])? {
        var best: (Command<Global>, [String])?
        for command in commands {
            var remaining = words
            var matched = true
            for part in command.path {
                guard let i = firstCommandWord(remaining), remaining[i] == part else {
                    matched = false
                    break
                }
                remaining.remove(at: i)
            }
            if matched, best == nil || command.path.count > best!.0.path.count {
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
                    !word.contains("=")
                    && global.named.contains { $0.name == name && $0.kind != .flag }
                i += takesValue ? 2 : 1
                continue
            }
            return i
        }
        return nil
    }
}

extension CommandLineTool where Global == NoArguments {
    /// Creates a tool with no global options.
    package init(name: String, summary: String, commands: [Command<NoArguments>]) {
        self.init(name: name, summary: summary, global: NoArguments.self, commands: commands)
    }
}
