import Foundation

/// What one declared option, flag or positional argument accepts, for parsing and help.
struct ArgumentDefinition: Sendable {
    /// The kinds of declaration.
    enum Kind: Equatable, Sendable {
        /// `--name` alone.
        case flag
        /// `--name VALUE`; repeatable options collect every value.
        case option(valueName: String, repeatable: Bool)
        /// A word in order; a variadic one takes the rest.
        case positional(variadic: Bool)
    }

    /// `--file` for options and flags, `FILE` for positional arguments.
    var name: String
    var kind: Kind
    var help: String
    /// Whether the command line must give it.
    var isRequired: Bool
    /// The default shown in help (`3`, `nullify`), or `nil` when there is none to show.
    var defaultText: String?

    /// `--file PATH`, `--json`, `FILE`, `[FILE]` or `ID...`.
    var label: String {
        switch kind {
        case .flag: name
        case .option(let valueName, _): "\(name) \(valueName)"
        case .positional(let variadic): variadic ? "\(name)..." : isRequired ? name : "[\(name)]"
        }
    }

    /// Whether it is a positional argument (not spelled `--name`).
    var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }
}

/// A declaration's place in a ``ParsableArguments`` value: the parser finds these by
/// reflection, in declaration order, and fills them.
protocol ArgumentSlot {
    var definition: ArgumentDefinition { get }
    /// Converts and stores the words given for this declaration (none when absent).
    func fill(_ words: [String]) throws
}

/// Where a parsed value is kept, shared by every copy of the declaring value.
final class ArgumentStorage<Value: Sendable>: @unchecked Sendable {
    // Sendable: `parsed` is read and written under `lock`; the parser writes it once, before
    // the arguments value is handed to the command.
    private let lock = NSLock()
    private let defaultValue: Value?
    private var parsed: Value?

    init(default defaultValue: Value?) { self.defaultValue = defaultValue }

    /// The parsed value, else the default.
    ///
    /// - Precondition: the value was parsed or has a default (a required declaration is
    ///   read only after parsing, which refuses a command line without it).
    var value: Value {
        lock.withLock {
            guard let value = parsed ?? defaultValue else {
                preconditionFailure("a required argument was read before it was parsed")
            }
            return value
        }
    }

    func set(_ value: Value) { lock.withLock { parsed = value } }
}

/// `value` as help shows a default, or `nil` for a default not worth showing (nil, empty,
/// `false`).
func defaultText<Value>(_ value: Value) -> String? {
    switch value {
    case let optional as any OptionalProtocol: optional.isNone ? nil : "\(optional.unwrapped)"
    case let collection as any Collection: collection.isEmpty ? nil : "\(value)"
    case let flag as Bool: flag ? "true" : nil
    default: "\(value)"
    }
}

/// Lets ``defaultText(_:)`` look inside an optional of any type.
private protocol OptionalProtocol {
    var isNone: Bool { get }
    var unwrapped: Any { get }
}

extension Optional: OptionalProtocol {
    fileprivate var isNone: Bool { self == nil }
    fileprivate var unwrapped: Any {
        switch self {
        case .some(let wrapped): wrapped
        case .none: "nil"
        }
    }
}
