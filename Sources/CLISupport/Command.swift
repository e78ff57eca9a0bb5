/// A subcommand: the words that select it, its help, its arguments type and what it does.
///
/// ```swift
/// struct AddArguments: ParsableArguments {
///     @Argument("NAME") var name: String
///     @Option("--color", "#RRGGBB", help: "its colour") var color: String?
/// }
/// let add = Command<LedgerOptions>(["category", "add"], summary: "add a category") {
///     (arguments: AddArguments, global, output) in
///     output.out("added \(arguments.name)")
/// }
/// ```
package struct Command<Global: ParsableArguments>: Sendable {
    /// The words that select the command (`["category", "add"]`); empty for a tool's default
    /// command, which runs when no other command's words come first.
    package let path: [String]
    /// One line saying what it does.
    package let summary: String
    /// Extra help text after the options.
    package let details: String
    /// Its declarations, for help.
    let signature: ArgumentSignature
    /// Parses the words after the command's path and runs the command.
    let perform: @Sendable (_ words: [String], _ output: CLIOutput) async throws -> Void

    /// A command taking `Arguments`; `run` gets them parsed, the tool's global options and
    /// where to write, and throws ``CLIError`` (or any error, reported as a failure).
    ///
    /// - Precondition: `Arguments`' declarations are well formed (checked here, once).
    package init<Arguments: ParsableArguments>(
        _ path: [String], summary: String, details: String = "",
        run: @escaping @Sendable (Arguments, Global, CLIOutput) async throws -> Void
    ) {
        self.path = path
        self.summary = summary
        self.details = details
        signature = ArgumentSignature(Arguments.self)
        perform = { words, output in
            let (arguments, global) = try ArgumentParser.parse(
                words, as: Arguments.self, global: Global.self)
            try await run(arguments, global, output)
        }
    }

    /// The usage text shown by `--help` and after usage errors, generated from the
    /// declarations: the usage line, the summary, every option and flag (the command's, then
    /// the global ones) with its help, default or `(required)`, then ``details``.
    func usage(program: String, global: ArgumentSignature) -> String {
        let positionals = signature.positionals
        let options = signature.named + global.named
        var lines = [
            "usage: \(([program] + path).joined(separator: " "))"
                + (options.isEmpty ? "" : " [options]")
                + positionals.map { " " + $0.label }.joined(),
            "", summary,
        ]
        let described = positionals.filter { !$0.help.isEmpty }
        if !described.isEmpty {
            lines += ["", "arguments:"] + Self.list(described)
        }
        if !options.isEmpty {
            lines += ["", "options:"] + Self.list(options)
        }
        if !details.isEmpty {
            lines += ["", details]
        }
        return lines.joined(separator: "\n")
    }

    /// `  LABEL  help (default: x)` lines, labels padded to one width.
    private static func list(_ definitions: [ArgumentDefinition]) -> [String] {
        let width = definitions.map(\.label.count).max() ?? 0
        return definitions.map { definition in
            var help = definition.help
            if definition.isRequired && !definition.isPositional { help += " (required)" }
            if let value = definition.defaultText { help += " (default: \(value))" }
            return "  " + definition.label.padding(toLength: width, withPad: " ", startingAt: 0)
                + "  " + help
        }
    }
}
