import Foundation

/// A computed column of a dictionary fetch: a name, an expression, and the type of its result.
///
/// Aggregate functions (`sum:`, `count:`, `min:`, `max:`, `average:`) over a key path are
/// computed per group when the request sets `propertiesToGroupBy`, or over all matches
/// otherwise; any other expression is evaluated for the first object of each group.
///
/// ```swift
/// let total = ExpressionDescription(name: "total",
///                                   expression: try FetchExpression(format: "sum(amount)"),
///                                   resultType: .decimal)
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["category", total]
/// request.propertiesToGroupBy = ["category"]
/// ```
///
/// - Note: Mirrors `NSExpressionDescription`.
public struct ExpressionDescription: Sendable, Hashable {
    /// The key of the result in each dictionary.
    public var name: String
    /// What to compute.
    public var expression: FetchExpression
    /// The type the result is converted to (`.undefined` keeps it as computed).
    public var resultType: AttributeType

    /// Creates a description.
    public init(name: String, expression: FetchExpression, resultType: AttributeType = .undefined) {
        self.name = name
        self.expression = expression
        self.resultType = resultType
    }
}
