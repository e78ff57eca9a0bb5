/// What a command accepts: positional arguments, flags and options, with the help text
/// built from them.
///
/// ```swift
/// CommandSpec(name: "dump", summary: "print every row of a store file",
///             arguments: [.init("FILE", "the store file")],
///             options: [.init("--entity", value: "NAME", "only rows of this entity"),
///                       .init("--json", "one JSON object per row")])
/// ```
package struct CommandSpec: Sendable {
    /// A positional argument.
    package struct Argument: Sendable {
        /// The placeholder shown in usage, e.g. `FILE`.
        package let name: String
        /// One line of help.
        package let help: String
        /// Whether it may be left out (only trailing arguments should be).
        package let isOptional: Bool

        /// Declares a positional argument.
        package init(_ name: String, _ help: String, optional: Bool = false) {
            self.name = name
            self.help = help
            self.isOptional = optional
        }
    }

    /// A flag (`--json`) or an option with a value (`--entity NAME`).
    package struct Option: Sendable {
        /// The spelling, with its dashes: `--json`.
        package let name: String
        /// The value's placeholder, or `nil` for a flag.
        package let value: String?
        /// One line of help.
        package let help: String

        /// Declares a flag, or (with `value`) an option taking a value.
        package init(_ name: String, value: String? = nil, _ help: String) {
            self.name = name
            self.value = value
            self.help = help
        }
    }

    /// The command's name, e.g. `verify`.
    package let name: String
    /// One line saying what it does.
    package let summary: String
    /// More explanation for `--help` (exit codes, what is printed where); may be empty.
    package let discussion: String
    /// Positional arguments, in order.
    package let arguments: [Argument]
    /// Flags and options.
    package let options: [Option]

    /// Declares a command.
    package init(name: String, summary: String, discussion: String = "", arguments: [Argument] = [],
                 options: [Option] = []) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }

    /// `dump FILE [--entity NAME] [--json]`.
    package var usage: String {
        let positional = arguments.map { $0.isOptional ? "[\($0.name)]" : $0.name }
        let optional = options.map { "[\($0.name)\($0.value.map { " " + $0 } ?? "")]" }
        return ([name] + positional + optional).joined(separator: " ")
    }

    /// Parses the arguments after the command's name.
    ///
    /// `--name value` and `--name=value` give an option its value; `--` ends the options.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or a wrong number of
    ///   positional arguments.
    package func parse(_ words: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var rest = words[...]
        var optionsEnded = false
        while let word = rest.popFirst() {
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            if word == "-h" || word == "--help" { parsed.wantsHelp = true; continue }
            let (key, inline) = word.firstIndex(of: "=").map { (String(word[..<$0]), String(word[word.index(after: $0)...])) }
                ?? (word, nil)
            guard let option = options.first(where: { $0.name == key }) else {
                throw UsageError("unknown option '\(key)'")
            }
            if option.value == nil {
                guard inline == nil else { throw UsageError("option '\(key)' takes no value") }
                parsed.flags.insert(key)
            } else if let inline {
                parsed.values[key] = inline
            } else {
                guard let value = rest.popFirst() else { throw UsageError("option '\(key)' needs a value") }
                parsed.values[key] = value
            }
        }
        if parsed.wantsHelp { return parsed }
        let required = arguments.filter { !$0.isOptional }.count
        if parsed.positionals.count < required {
            throw UsageError("missing \(arguments[parsed.positionals.count].name)")
        }
        if parsed.positionals.count > arguments.count {
            throw UsageError("unexpected argument '\(parsed.positionals[arguments.count])'")
        }
        return parsed
    }

    /// The full `--help` text for `tool` (the program's name).
    package func help(tool: String) -> String {
        var lines = ["usage: \(tool) \(usage)", "", summary.prefix(1).uppercased() + summary.dropFirst() + "."]
        if !discussion.isEmpty { lines += ["", discussion] }
        if !arguments.isEmpty {
            var table = TextTable([])
            for argument in arguments { table.append(["  " + argument.name, argument.help]) }
            lines += ["", "Arguments:", table.rendered]
        }
        var table = TextTable([])
        for option in options { table.append(["  " + option.name + (option.value.map { " " + $0 } ?? ""), option.help]) }
        table.append(["  -h, --help", "show this help"])
        lines += ["", "Options:", table.rendered]
        return lines.joined(separator: "\n")
    }
}

/// The parsed command line of one command.
package struct ParsedArguments: Sendable {
    /// Positional arguments, in order.
    package var positionals: [String] = []
    /// Flags given (`--json`).
    package var flags: Set<String> = []
    /// Options' values by name (`--entity` → `Expense`).
    package var values: [String: String] = [:]
    /// Whether `-h` or `--help` was given.
    package var wantsHelp = false

    /// Creates an empty result.
    package init() {}

    /// Whether `flag` (e.g. `--json`) was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of `option` (e.g. `--entity`), if given.
    package func value(_ option: String) -> String? { values[option] }
}
