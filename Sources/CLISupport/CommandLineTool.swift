import Foundation

/// One subcommand: what it accepts and what it does.
package struct Command: Sendable {
    /// Arguments, options and help.
    package let spec: CommandSpec
    /// Runs the command; throws for a failure (printed on standard error, exit 1) or a
    /// ``UsageError`` (exit 64).
    package let run: @Sendable (ParsedArguments, TerminalOutput) async throws -> ExitCode

    /// Declares a command.
    package init(_ spec: CommandSpec, run: @escaping @Sendable (ParsedArguments, TerminalOutput) async throws -> ExitCode) {
        self.spec = spec
        self.run = run
    }
}

/// A command-line program made of subcommands: dispatch, `--help`, errors and exit codes.
///
/// ```swift
/// let tool = CommandLineTool(name: "objectgraph", summary: "inspect store files", commands: [info, verify])
/// exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// Adding a command is adding an entry to `commands`. Errors go to standard error as
/// `TOOL COMMAND: MESSAGE`; a usage error adds a pointer to `--help`.
package struct CommandLineTool: Sendable {
    /// The program's name, as typed.
    package let name: String
    /// One line saying what the program is for.
    package let summary: String
    /// The subcommands, in the order `--help` lists them.
    package let commands: [Command]

    /// Declares a program.
    package init(name: String, summary: String, commands: [Command]) {
        self.name = name
        self.summary = summary
        self.commands = commands
    }

    /// Runs the command named by the first word of `arguments` and returns the exit status.
    package func run(_ arguments: [String], output: TerminalOutput = .standard()) async -> ExitCode {
        guard let first = arguments.first else {
            output.err(help)
            return .usage
        }
        if first == "-h" || first == "--help" || first == "help" {
            if first == "help", arguments.count > 1, let command = command(arguments[1]) {
                output.out(command.spec.help(tool: name))
            } else {
                output.out(help)
            }
            return .success
        }
        guard let command = command(first) else {
            output.err("\(name): unknown command '\(first)'\nRun '\(name) --help' for the commands.")
            return .usage
        }
        let label = "\(name) \(command.spec.name)"
        do {
            let parsed = try command.spec.parse(Array(arguments.dropFirst()))
            if parsed.wantsHelp {
                output.out(command.spec.help(tool: name))
                return .success
            }
            return try await command.run(parsed, output)
        } catch let error as UsageError {
            output.err("\(label): \(error.message)\nusage: \(name) \(command.spec.usage)\n"
                       + "Run '\(label) --help' for more.")
            return .usage
        } catch {
            output.err("\(label): \(error)")
            return .failure
        }
    }

    /// The program's `--help` text.
    package var help: String {
        var table = TextTable([])
        for command in commands { table.append(["  " + command.spec.name, command.spec.summary]) }
        return """
            usage: \(name) COMMAND [ARGUMENTS] [OPTIONS]

            \(summary.prefix(1).uppercased() + summary.dropFirst()).

            Commands:
            \(table.rendered)

            Run '\(name) COMMAND --help' for a command's arguments and options.
            Exit status: 0 success, 1 failure, 64 usage error.
            """
    }

    private func command(_ name: String) -> Command? { commands.first { $0.spec.name == name } }
}
