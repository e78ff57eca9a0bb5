import Foundation
import ObjectGraph

/// A command line split into positional arguments, option values and flags.
public struct ParsedArguments: Sendable {
    /// Positional arguments, in order.
    public var positionals: [String] = []
    /// Option values by name (`"--file"`), in the order given.
    public var values: [String: [String]] = [:]
    /// Flags given (`"--json"`).
    public var flags: Set<String> = []

    /// Creates an empty set of arguments.
    public init() {}

    /// The last value of `option`, or `nil`.
    public func value(_ option: String) -> String? { values[option]?.last }

    /// Every value of a repeatable `option`.
    public func allValues(_ option: String) -> [String] { values[option] ?? [] }

    /// Whether `flag` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The whole number given for `option` (ASCII digits only: no sign, spaces or
    /// separators), or `nil` when the option is absent.
    ///
    /// - Parameter minimum: the smallest accepted value (0 or 1 in practice).
    /// - Throws: ``CLIError/failure(_:)`` (exit 1) naming the option, the text and the rule,
    ///   for `+3`, `-1`, `1e3`, ` 7`, a value below `minimum` or one past `Int.max`.
    public func wholeNumber(_ option: String, minimum: Int = 0) throws -> Int? {
        guard let text = value(option) else { return nil }
        guard let n = Self.wholeNumber(text), n >= minimum else {
            throw CLIError.failure(
                "\(option) takes a whole number ≥ \(minimum), not '\(EchoedText.capped(text))'")
        }
        return n
    }

    /// `text` as a whole number when it is one or more ASCII digits and fits in `Int`.
    public static func wholeNumber(_ text: String) -> Int? {
        guard !text.isEmpty,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            return nil
        }
        return Int(text)
    }

    /// Splits `words` by `options` (the command's and the global ones).
    ///
    /// `--name=value` and `--name value` both work; `--` ends options; a lone `-` and words
    /// that read as negative numbers (`-5`, `-.5`) are positional; any other word starting
    /// with `-` (`-x`, `-limit`) is an unknown option.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an unknown option, a missing value, a repeated
    ///   non-repeatable option, or a wrong number of positional arguments.
    public static func parse(
        _ words: [String], options: [OptionSpec], positionals: ClosedRange<Int>
    ) throws
        -> ParsedArguments
    {
        var result = ParsedArguments()
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
                result.positionals.append(word)
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
            guard let spec = options.first(where: { $0.name == name }) else {
                throw CLIError.usage("unknown option \(EchoedText.capped(name))")
            }
            if spec.valueName == nil {
                guard inline == nil else { throw CLIError.usage("\(name) takes no value") }
                result.flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < words.count else {
                    throw CLIError.usage("\(name) needs a value (\(spec.valueName!))")
                }
                value = words[index]
                index += 1
            }
            if !spec.isRepeatable, result.values[name] != nil {
                throw CLIError.usage("\(name) given twice")
            }
            result.values[name, default: []].append(value)
        }
        guard positionals.contains(result.positionals.count) else {
            let expected =
                positionals.lowerBound == positionals.upperBound
                ? "\(positionals.lowerBound)"
                : positionals.upperBound == Int.max
                    ? "at least \(positionals.lowerBound)"
                    : "\(positionals.lowerBound) to \(positionals.upperBound)"
            throw CLIError.usage(
                "expected \(expected) argument\(expected == "1" ? "" : "s"), got \(result.positionals.count)"
                    + (result.positionals.isEmpty
                        ? ""
                        : ": \(EchoedText.capped(result.positionals.joined(separator: " ")))"))
        }
        return result
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

/// A command-line failure and its exit code.
public enum CLIError: Error, CustomStringConvertible, Equatable {
    /// Bad usage (unknown command or flag, missing or extra arguments): exit 64, with usage.
    case usage(String)
    /// Any other failure: exit 1, one line on stderr.
    case failure(String)

    /// The process exit code: 64 for usage, 1 for failures.
    public var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .failure: 1
        }
    }

    /// The message.
    public var description: String {
        switch self {
        case .usage(let m), .failure(let m): m
        }
    }
}
