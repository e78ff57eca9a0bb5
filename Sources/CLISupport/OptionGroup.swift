/// Another ``ParsableArguments`` type's declarations, included in place: commands that share
/// options declare them once.
///
/// ```swift
/// struct FetchArguments: ParsableArguments {
///     @OptionGroup var query: QueryArguments
///     @Flag("--json", help: "one JSON object per row") var json: Bool
/// }
/// ```
///
/// - Note: Mirrors swift-argument-parser's `@OptionGroup`.
@propertyWrapper
package struct OptionGroup<Value: ParsableArguments>: Sendable, ArgumentGroup {
    /// The included arguments, filled by the parser.
    package let wrappedValue: Value

    /// Includes `Value`'s declarations.
    package init() { wrappedValue = Value() }

    var arguments: any ParsableArguments { wrappedValue }
}

/// A group of declarations inside a ``ParsableArguments`` value.
protocol ArgumentGroup {
    var arguments: any ParsableArguments { get }
}
