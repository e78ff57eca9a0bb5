import Foundation

/// A value computed for an object: a key path, a constant, arithmetic, an aggregate or a
/// subquery. The operands of ``FetchPredicate`` comparisons.
///
/// ```swift
/// let raise = try FetchExpression(format: "amount * 1.2")
/// let path = FetchExpression.keyPath("category.name")
/// let compiled = try raise.compile(for: transactionEntity)
/// let newAmount = compiled.value(for: record)      // an ExpressionValue
/// ```
///
/// Constants are stored as ``AttributeValue``s and object IDs, so an expression is
/// `Sendable`. ``description`` prints the format-language form, which parses back to an
/// equal expression.
///
/// - Note: Mirrors `NSExpression`.
public struct FetchExpression: Sendable, Hashable {
    /// The tree node this expression is.
    public let kind: Kind

    /// The shape of an expression node.
    ///
    /// - Note: Mirrors `NSExpression.ExpressionType`.
    public indirect enum Kind: Sendable, Hashable {
        /// A constant value; `.null` is `nil`.
        case constant(AttributeValue)
        /// A constant object, by ID (an object or ID passed as an argument).
        case object(ManagedObjectID)
        /// An object named by its URI (`CAST("x-coredata://…", "NSManagedObjectID")`),
        /// resolved against the model when the predicate is compiled.
        case objectURI(URL)
        /// The object being evaluated: `SELF`.
        case evaluatedObject
        /// A variable: `$NAME`. Bound by `SUBQUERY`, or replaced through
        /// ``FetchPredicate/withSubstitutionVariables(_:)``.
        case variable(String)
        /// A key path applied to `base` (`SELF` for a plain key path). Components are
        /// property names and the collection operators `@count`, `@sum`, `@avg`, `@min`,
        /// `@max`.
        case keyPath(base: FetchExpression, components: [String])
        /// A literal collection: `{a, b, c}`.
        case aggregate([FetchExpression])
        /// A built-in function or operator applied to arguments.
        case function(FetchFunction, [FetchExpression])
        /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for
        /// which `predicate` holds, with `$variable` bound to each.
        case subquery(collection: FetchExpression, variable: String, predicate: FetchPredicate)
        /// `TERNARY(predicate, whenTrue, whenFalse)`.
        case conditional(FetchPredicate, FetchExpression, FetchExpression)
    }

    /// Creates an expression from its node.
    public init(_ kind: Kind) { self.kind = kind }

    /// A constant expression.
    ///
    /// - Note: Mirrors `NSExpression(forConstantValue:)`.
    public static func constant(_ value: AttributeValue) -> FetchExpression {
        FetchExpression(.constant(value))
    }

    /// A constant object, by ID.
    public static func object(_ objectID: ManagedObjectID) -> FetchExpression {
        FetchExpression(.object(objectID))
    }

    /// `SELF`: the evaluated object.
    ///
    /// - Note: Mirrors `NSExpression.expressionForEvaluatedObject()`.
    public static let evaluatedObject = FetchExpression(.evaluatedObject)

    /// A key path on the evaluated object, dot-separated (`"category.name"`, `"tags.@count"`).
    ///
    /// The path is not checked until the predicate is compiled.
    ///
    /// - Note: Mirrors `NSExpression(forKeyPath:)`.
    public static func keyPath(_ path: String) -> FetchExpression {
        FetchExpression(
            .keyPath(
                base: .evaluatedObject,
                components: path.split(
                    separator: ".",
                    omittingEmptySubsequences: false
                ).map(String.init)))
    }

    /// A variable, written `$name`.
    ///
    /// - Note: Mirrors `NSExpression(forVariable:)`.
    public static func variable(_ name: String) -> FetchExpression {
        FetchExpression(.variable(name))
    }

    /// A literal collection of expressions.
    ///
    /// - Note: Mirrors `NSExpression(forAggregate:)`.
    public static func aggregate(_ elements: [FetchExpression]) -> FetchExpression {
        FetchExpression(.aggregate(elements))
    }

    /// A function applied to arguments (see ``FetchFunction`` for each one's arity).
    ///
    /// - Note: Mirrors `NSExpression(forFunction:arguments:)`.
    public static func function(_ function: FetchFunction, _ arguments: [FetchExpression])
        -> FetchExpression
    {
        FetchExpression(.function(function, arguments))
    }

    /// A subquery over `collection`, binding `$variable` to each element.
    ///
    /// - Note: Mirrors `NSExpression(forSubquery:usingIteratorVariable:predicate:)`.
    public static func subquery(
        _ collection: FetchExpression, variable: String,
        predicate: FetchPredicate
    ) -> FetchExpression {
        FetchExpression(.subquery(collection: collection, variable: variable, predicate: predicate))
    }

    /// Parses an expression in the predicate format language (`"amount * 1.2"`).
    ///
    /// Takes the same arguments as ``FetchPredicate/init(format:_:)``.
    ///
    /// - Throws: ``ObjectGraphError`` (134060) with ``ObjectGraphError/column`` set:
    ///   ``ObjectGraphError/Reason/predicateSyntax`` when the string does not parse,
    ///   ``ObjectGraphError/Reason/predicateArgument`` when an argument is missing or unusable.
    /// - Note: Mirrors `NSExpression(format:)`.
    public init(format: String, _ arguments: Any...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses an expression, taking its arguments from an array.
    ///
    /// - Throws: ``ObjectGraphError``, as ``init(format:_:)``.
    /// - Note: Mirrors `NSExpression(format:argumentArray:)`.
    public init(format: String, argumentArray: [Any]) throws {
        var parser = try PredicateParser(format: format, arguments: argumentArray)
        self = try parser.parseWholeExpression()
    }
}
