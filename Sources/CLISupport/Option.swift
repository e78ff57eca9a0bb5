/// An option that takes a value: `--name VALUE` or `--name=VALUE`.
///
/// The property's type says how it is read: `T?` is absent unless given, a plain `T` with
/// an initial value takes that default, a plain `T` without one is required (a command line
/// without it is a usage error, exit 64), and `[T]` may be given any number of times.
///
/// ```swift
/// @Option("--file", "PATH", help: "the ledger file") var file: String?
/// @Option("--repeat", "R", help: "runs of each case", transform: .wholeNumber(minimum: 1))
/// var repeats = 3
/// @Option("--entity", "NAME", help: "the entity to fetch") var entity: String
/// @Option("--sort", "KEY[:desc]", help: "sort key (repeatable)") var sort: [String]
/// ```
///
/// - Note: Mirrors swift-argument-parser's `@Option`.
@propertyWrapper
package struct Option<Value: Sendable>: Sendable, ArgumentSlot {
    let definition: ArgumentDefinition
    private let storage: ArgumentStorage<Value>
    /// The value of the words given, or `nil` when none were.
    private let convert: @Sendable ([String]) throws -> Value?

    private init(
        _ name: String, _ valueName: String, help: String, default defaultValue: Value?,
        repeatable: Bool = false, convert: @escaping @Sendable ([String]) throws -> Value?
    ) {
        definition = ArgumentDefinition(
            name: name, kind: .option(valueName: valueName, repeatable: repeatable), help: help,
            isRequired: defaultValue == nil, defaultText: defaultValue.flatMap(defaultText))
        storage = ArgumentStorage(default: defaultValue)
        self.convert = convert
    }

    /// The parsed value, else the default.
    package var wrappedValue: Value { storage.value }

    func fill(_ words: [String]) throws {
        if let value = try convert(words) {
            storage.set(value)
        } else if definition.isRequired {
            throw CLIError.usage("\(definition.label) is required")
        }
    }

    /// An option with a default: `--repeat R`, 3 unless given.
    package init(
        wrappedValue: Value, _ name: String, _ valueName: String, help: String,
        transform: ArgumentTransform<Value>
    ) {
        self.init(name, valueName, help: help, default: wrappedValue) { words in
            try words.last.map { try transform.apply($0, name) }
        }
    }

    /// A required option: a command line without it is a usage error.
    package init(
        _ name: String, _ valueName: String, help: String, transform: ArgumentTransform<Value>
    ) {
        self.init(name, valueName, help: help, default: nil) { words in
            try words.last.map { try transform.apply($0, name) }
        }
    }

    /// An option that is `nil` unless given.
    package init<T>(
        _ name: String, _ valueName: String, help: String, transform: ArgumentTransform<T>
    ) where Value == T? {
        self.init(name, valueName, help: help, default: .some(nil)) { words in
            try words.last.map { try transform.apply($0, name) }
        }
    }

    /// An option that may be given any number of times; its values in the order given.
    package init<T>(
        _ name: String, _ valueName: String, help: String, transform: ArgumentTransform<T>
    ) where Value == [T] {
        self.init(name, valueName, help: help, default: [], repeatable: true) { words in
            words.isEmpty ? nil : try words.map { try transform.apply($0, name) }
        }
    }
}

extension Option where Value == String {
    /// A text option with a default.
    package init(wrappedValue: String, _ name: String, _ valueName: String, help: String) {
        self.init(wrappedValue: wrappedValue, name, valueName, help: help, transform: .string)
    }

    /// A required text option.
    package init(_ name: String, _ valueName: String, help: String) {
        self.init(name, valueName, help: help, transform: .string)
    }
}

extension Option where Value == String? {
    /// A text option that is `nil` unless given.
    package init(_ name: String, _ valueName: String, help: String) {
        self.init(name, valueName, help: help, transform: ArgumentTransform<String>.string)
    }
}

extension Option where Value == [String] {
    /// A text option that may be given any number of times.
    package init(_ name: String, _ valueName: String, help: String) {
        self.init(name, valueName, help: help, transform: ArgumentTransform<String>.string)
    }
}

/// A flag: `--name`, with no value; `false` unless given.
///
/// ```swift
/// @Flag("--json", help: "print JSON instead of text") var json: Bool
/// ```
///
/// - Note: Mirrors swift-argument-parser's `@Flag`.
@propertyWrapper
package struct Flag: Sendable, ArgumentSlot {
    let definition: ArgumentDefinition
    private let storage = ArgumentStorage<Bool>(default: false)

    /// A flag named `name` (with its dashes).
    package init(_ name: String, help: String) {
        definition = ArgumentDefinition(
            name: name, kind: .flag, help: help, isRequired: false, defaultText: nil)
    }

    /// Whether the flag was given.
    package var wrappedValue: Bool { storage.value }

    func fill(_ words: [String]) throws {
        if !words.isEmpty { storage.set(true) }
    }
}
