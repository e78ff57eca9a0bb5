import ObjectGraph

/// How the text of an option or positional argument becomes its typed value.
///
/// The closure gets the text and the declaration's name (`--limit`, `FILE`) so its errors
/// can name both; it throws ``CLIError/usage(_:)`` (exit 64) or ``CLIError/failure(_:)``
/// (exit 1), or any error a command reports as a failure.
///
/// ```swift
/// @Option("--limit", "N", help: "at most N rows", transform: .wholeNumber(minimum: 1))
/// var limit: Int?
/// @Option("--mode", "memory|jsonl", help: "…", transform: ArgumentTransform { text, name in
///     guard let mode = StoreMode(rawValue: text) else {
///         throw CLIError.usage("\(name) must be memory or jsonl, not '\(text)'")
///     }
///     return mode
/// })
/// var mode: StoreMode
/// ```
package struct ArgumentTransform<Value: Sendable>: Sendable {
    let apply: @Sendable (_ text: String, _ name: String) throws -> Value

    /// A transform that runs `apply` on the text and the declaration's name.
    package init(_ apply: @escaping @Sendable (_ text: String, _ name: String) throws -> Value) {
        self.apply = apply
    }
}

extension ArgumentTransform where Value == String {
    /// The text as given.
    package static var string: Self { Self { text, _ in text } }
}

extension ArgumentTransform where Value == Int {
    /// A whole number: ASCII digits only (no sign, spaces or separators), at least `minimum`.
    ///
    /// `+3`, `-1`, `1e3`, ` 7`, a value below `minimum` or one past `Int.max` fail with
    /// ``CLIError/failure(_:)`` (exit 1): `--limit takes a whole number ≥ 1, not '0'`.
    package static func wholeNumber(minimum: Int = 0) -> Self {
        Self { text, name in
            guard let n = Int(digits: text), n >= minimum else {
                throw CLIError.failure(
                    "\(name) takes a whole number ≥ \(minimum), not '\(EchoedText.capped(text))'")
            }
            return n
        }
    }
}

extension Int {
    /// `text` as a whole number when it is one or more ASCII digits (no sign, spaces or
    /// separators) and fits in `Int`; `nil` otherwise.
    package init?(digits text: String) {
        guard !text.isEmpty,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(text)
        else {
            return nil
        }
        self = value
    }
}
