/// A command's options, flags and positional arguments, declared once as properties.
///
/// Each property carries its name, value type, default and help text; the parser fills it
/// from the command line, and `--help` is generated from the same declarations.
///
/// ```swift
/// struct ListArguments: ParsableArguments {
///     @Option("--category", "C", help: "only this category") var category: String?
///     @Option("--limit", "N", help: "show at most N", transform: .wholeNumber(minimum: 1))
///     var limit: Int?
///     @Option("--sort", "KEY", help: "order by KEY (repeatable)") var sort: [String]
///     @Flag("--json", help: "print JSON") var json: Bool
///     @Argument("FILE") var file: String
/// }
/// ```
///
/// The code that runs a command reads the properties (`arguments.limit`), so a misspelt
/// option is a compile error; declarations that clash (two options of one name, a name
/// without `--`, a positional after a variadic one) stop the program when the command is
/// built, before any parsing.
///
/// - Note: Mirrors swift-argument-parser's `ParsableArguments` with `@Option`, `@Flag` and
///   `@Argument`.
package protocol ParsableArguments: Sendable {
    /// The declarations with their defaults; the parser fills in what the command line gives.
    init()
}

/// A command that takes no options and no positional arguments.
package struct NoArguments: ParsableArguments {
    /// Creates the empty set of arguments.
    package init() {}
}

extension ParsableArguments {
    /// Parses `words` (a command's words after its name, no global options) into a value.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an unknown option, a missing value or required
    ///   option, or a wrong number of positional arguments; whatever a transform throws for
    ///   a value it refuses.
    package static func parse(_ words: [String]) throws -> Self {
        try ArgumentParser.parse(words, as: Self.self, global: NoArguments.self).0
    }
}
