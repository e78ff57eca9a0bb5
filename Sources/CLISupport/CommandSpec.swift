import Foundation

/// What a command accepts: its options, flags and positional arguments, and its help text.
///
/// ```swift
/// CommandSpec(path: ["category", "add"], summary: "Add a category",
///             arguments: "NAME", positionals: 1...1,
///             options: [.value("--color", "#RRGGBB", "the colour (default #FFFFFF)")])
/// ```
public struct CommandSpec: Sendable {
    /// The words that select the command (`["category", "add"]`).
    public var path: [String]
    /// One line saying what it does.
    public var summary: String
    /// The positional arguments' names for the usage line (`"AMOUNT"`, `"ID..."`).
    public var arguments: String
    /// How many positional arguments it takes.
    public var positionals: ClosedRange<Int>
    /// Its options and flags.
    public var options: [OptionSpec]
    /// Extra help text after the options.
    public var details: String

    /// Creates a spec.
    public init(
        path: [String], summary: String, arguments: String = "",
        positionals: ClosedRange<Int> = 0...0,
        options: [OptionSpec] = [], details: String = ""
    ) {
        self.path = path
        self.summary = summary
        self.arguments = arguments
        self.positionals = positionals
        self.options = options
        self.details = details
    }

    /// The usage text shown by `--help` and after usage errors.
    public func usage(program: String, global: [OptionSpec]) -> String {
        var lines = [
            "usage: \(([program] + path).joined(separator: " "))"
                + (options.isEmpty && global.isEmpty ? "" : " [options]")
                + (arguments.isEmpty ? "" : " \(arguments)"),
            "", summary,
        ]
        let all = options + global
        if !all.isEmpty {
            lines.append("")
            lines.append("options:")
            let width = all.map(\.label.count).max() ?? 0
            for option in all {
                lines.append(
                    "  " + option.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + option.help)
            }
        }
        if !details.isEmpty {
            lines.append("")
            lines.append(details)
        }
        return lines.joined(separator: "\n")
    }
}

/// One option (`--file PATH`) or flag (`--json`).
public struct OptionSpec: Sendable {
    /// The option's name with its dashes (`--file`).
    public var name: String
    /// The value's name (`PATH`), or `nil` for a flag.
    public var valueName: String?
    /// What it does.
    public var help: String
    /// Whether it may be given more than once.
    public var isRepeatable: Bool

    /// An option that takes a value.
    public static func value(
        _ name: String, _ valueName: String, _ help: String, repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: repeatable)
    }

    /// A flag (no value).
    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, isRepeatable: false)
    }

    /// `--file PATH` or `--json`.
    public var label: String { valueName.map { "\(name) \($0)" } ?? name }
}
