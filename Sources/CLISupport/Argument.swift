/// A positional argument: the command line's words that are not options, in order.
///
/// A plain `T` is required, `T?` may be left out (after the required ones), and `[T]` takes
/// every remaining word, at least one (last). A wrong number of words is a usage error
/// (exit 64): `expected 1 argument, got 2: a b`.
///
/// ```swift
/// @Argument("AMOUNT", transform: amount) var amount: Decimal
/// @Argument("ID") var ids: [String]
/// ```
///
/// - Note: Mirrors swift-argument-parser's `@Argument`.
@propertyWrapper
package struct Argument<Value: Sendable>: Sendable, ArgumentSlot {
    let definition: ArgumentDefinition
    private let storage: ArgumentStorage<Value>
    /// The value of the words given, or `nil` when none were.
    private let convert: @Sendable ([String]) throws -> Value?

    private init(
        _ name: String, help: String, required: Bool, variadic: Bool = false,
        default defaultValue: Value?,
        convert: @escaping @Sendable ([String]) throws -> Value?
    ) {
        definition = ArgumentDefinition(
            name: name, kind: .positional(variadic: variadic), help: help, isRequired: required,
            defaultText: nil)
        storage = ArgumentStorage(default: defaultValue)
        self.convert = convert
    }

    /// The parsed value.
    package var wrappedValue: Value { storage.value }

    func fill(_ words: [String]) throws {
        if let value = try convert(words) { storage.set(value) }
    }

    /// A required positional argument.
    package init(_ name: String, help: String = "", transform: ArgumentTransform<Value>) {
        self.init(name, help: help, required: true, default: nil) { words in
            try words.first.map { try transform.apply($0, name) }
        }
    }

    /// A positional argument that may be left out (`nil` then).
    package init<T>(_ name: String, help: String = "", transform: ArgumentTransform<T>)
    where Value == T? {
        self.init(name, help: help, required: false, default: .some(nil)) { words in
            try words.first.map { try transform.apply($0, name) }
        }
    }

    /// The remaining positional arguments, at least one.
    package init<T>(_ name: String, help: String = "", transform: ArgumentTransform<T>)
    where Value == [T] {
        self.init(name, help: help, required: true, variadic: true, default: []) { words in
            try words.map { try transform.apply($0, name) }
        }
    }
}

extension Argument where Value == String {
    /// A required text argument.
    package init(_ name: String, help: String = "") {
        self.init(name, help: help, transform: .string)
    }
}

extension Argument where Value == [String] {
    /// The remaining text arguments, at least one.
    package init(_ name: String, help: String = "") {
        self.init(name, help: help, transform: ArgumentTransform<String>.string)
    }
}
