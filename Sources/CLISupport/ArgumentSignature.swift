import ObjectGraph

/// The declarations of a ``ParsableArguments`` type, in declaration order, checked once.
struct ArgumentSignature: Sendable {
    /// Every declaration: options, flags and positional arguments.
    let definitions: [ArgumentDefinition]

    /// The declarations of `type`, found by reflecting over a fresh value.
    ///
    /// - Precondition: the declarations are well formed (see ``check(_:)``); a malformed
    ///   one stops the program here, when the command is built.
    init<Arguments: ParsableArguments>(_ type: Arguments.Type) {
        definitions = Self.slots(of: Arguments()).map(\.definition)
        if let problem = Self.problem(in: definitions) {
            preconditionFailure("\(Arguments.self): \(problem)")
        }
    }

    /// The options and flags.
    var named: [ArgumentDefinition] { definitions.filter { !$0.isPositional } }

    /// The positional arguments.
    var positionals: [ArgumentDefinition] { definitions.filter(\.isPositional) }

    /// How many positional words `positionals` take.
    static func count(of positionals: [ArgumentDefinition]) -> ClosedRange<Int> {
        let required = positionals.filter(\.isRequired).count
        let variadic = positionals.contains { $0.kind == .positional(variadic: true) }
        return required...(variadic ? Int.max : positionals.count)
    }

    /// The slots of `value`, in declaration order (those of an ``OptionGroup`` in its place).
    static func slots(of value: any ParsableArguments) -> [any ArgumentSlot] {
        Mirror(reflecting: value).children.flatMap { child -> [any ArgumentSlot] in
            if let slot = child.value as? any ArgumentSlot { return [slot] }
            if let group = child.value as? any ArgumentGroup { return slots(of: group.arguments) }
            return []
        }
    }

    /// What is wrong with `definitions`, or `nil`: names spelled `--name` and unique (`--help`
    /// is taken), required positional arguments before optional ones, at most one variadic
    /// one and nothing after it.
    static func problem(in definitions: [ArgumentDefinition]) -> String? {
        var names: Set<String> = ["--help"]
        for definition in definitions where !definition.isPositional {
            let name = definition.name
            guard name.hasPrefix("--"), name.count > 2, !name.contains("=") else {
                return "option '\(name)' is not spelled --name"
            }
            guard names.insert(name).inserted else { return "option \(name) is declared twice" }
        }
        var seenOptional = false
        for (i, definition) in definitions.filter(\.isPositional).enumerated() {
            if definition.kind == .positional(variadic: true) {
                guard i == definitions.filter(\.isPositional).count - 1, !seenOptional else {
                    return "the variadic argument \(definition.name) must come last, alone"
                }
            } else if !definition.isRequired {
                seenOptional = true
            } else if seenOptional {
                return "the required argument \(definition.name) follows an optional one"
            }
        }
        return nil
    }
}

/// Splits a command line by the declarations and fills the arguments values.
enum ArgumentParser {
    /// Parses `words` into a command's arguments and the tool's global options.
    ///
    /// `--name=value` and `--name value` both work; `--` ends options; a lone `-` and words
    /// that read as negative numbers (`-5`, `-.5`) are positional; any other word starting
    /// with `-` (`-x`, `-limit`) is an unknown option. Usage errors (unknown option, missing
    /// value, a repeated single option, a wrong number of positional arguments, a missing
    /// required option) come first; then each value is converted, in declaration order.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for the usage errors above; whatever a transform
    ///   throws for a value it refuses.
    static func parse<Arguments: ParsableArguments, Global: ParsableArguments>(
        _ words: [String], as type: Arguments.Type, global: Global.Type
    ) throws -> (Arguments, Global) {
        let arguments = Arguments()
        let globals = Global()
        let slots = ArgumentSignature.slots(of: arguments) + ArgumentSignature.slots(of: globals)
        let definitions = slots.map(\.definition)
        let named = Dictionary(
            definitions.filter { !$0.isPositional }.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first })
        let (positionals, values) = try split(words, named: named)
        try checkCount(positionals, ArgumentSignature.count(of: definitions.filter(\.isPositional)))
        for definition in definitions
        where !definition.isPositional && definition.isRequired && values[definition.name] == nil {
            throw CLIError.usage("\(definition.label) is required")
        }
        var remaining = positionals[...]
        for slot in slots {
            let definition = slot.definition
            switch definition.kind {
            case .flag, .option: try slot.fill(values[definition.name] ?? [])
            case .positional(let variadic):
                let taken = variadic ? Array(remaining) : remaining.first.map { [$0] } ?? []
                remaining = remaining.dropFirst(taken.count)
                try slot.fill(taken)
            }
        }
        return (arguments, globals)
    }

    /// The positional words and the values (or, for flags, empty strings) of each option.
    private static func split(_ words: [String], named: [String: ArgumentDefinition]) throws
        -> ([String], [String: [String]])
    {
        var positionals: [String] = []
        var values: [String: [String]] = [:]
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") {
                if !onlyPositionals, isShortOption(word) {
                    throw CLIError.usage(
                        "unknown option \(EchoedText.capped(word)) (options are spelled --name)")
                }
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = word
            var inline: String?
            if let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            guard let definition = named[name] else {
                throw CLIError.usage("unknown option \(EchoedText.capped(name))")
            }
            guard case .option(let valueName, let repeatable) = definition.kind else {
                guard inline == nil else { throw CLIError.usage("\(name) takes no value") }
                values[name, default: []].append("")
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < words.count else {
                    throw CLIError.usage("\(name) needs a value (\(valueName))")
                }
                value = words[index]
                index += 1
            }
            if !repeatable, values[name] != nil {
                throw CLIError.usage("\(name) given twice")
            }
            values[name, default: []].append(value)
        }
        return (positionals, values)
    }

    /// Refuses a number of positional words the declarations do not take.
    private static func checkCount(_ words: [String], _ range: ClosedRange<Int>) throws {
        guard !range.contains(words.count) else { return }
        let expected =
            range.lowerBound == range.upperBound
            ? "\(range.lowerBound)"
            : range.upperBound == Int.max
                ? "at least \(range.lowerBound)"
                : "\(range.lowerBound) to \(range.upperBound)"
        throw CLIError.usage(
            "expected \(expected) argument\(expected == "1" ? "" : "s"), got \(words.count)"
                + (words.isEmpty ? "" : ": \(EchoedText.capped(words.joined(separator: " ")))"))
    }

    /// Whether `word` looks like a single-dash option rather than a value: `-` then
    /// something other than a digit or a decimal point.
    private static func isShortOption(_ word: String) -> Bool {
        let bytes = Array(word.utf8.prefix(2))
        guard bytes.count == 2, bytes[0] == UInt8(ascii: "-") else { return false }
        let next = bytes[1]
        return !(next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9"))
            && next != UInt8(ascii: ".")
    }
}
