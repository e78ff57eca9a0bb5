import Foundation

extension FetchExpression {
    /// An expression that calls a function, named as in Core Data (`"multiply:by:"`,
    /// `"sum:"`, `"now"`) or as in the format language (`"multiply"`, `"sum"`).
    ///
    /// ```swift
    /// FetchExpression(forFunction: "multiply:by:", arguments: [
    ///     FetchExpression(forKeyPath: "amount"), FetchExpression(forConstantValue: 1.2),
    /// ])
    /// ```
    ///
    /// - Precondition: `name` is one of ``FetchFunction``'s, `arguments` has its
    ///   ``FetchFunction/arity`` and holds `FetchExpression`s or values
    ///   ``init(forConstantValue:)`` takes.
    /// - Note: Mirrors `NSExpression(forFunction:arguments:)`, which raises an exception for
    ///   an unknown function.
    public init(forFunction name: String, arguments: [Any]) {
        guard let function = FetchFunction(rawValue: name) ?? FetchFunction.named(name) else {
            preconditionFailure(
                "ObjectGraph: FetchExpression(forFunction: \"\(name)\"): no such function; "
                    + "known: \(FetchFunction.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        precondition(
            arguments.count == function.arity,
            "ObjectGraph: FetchExpression(forFunction: \"\(name)\") takes \(function.arity) "
                + "argument\(function.arity == 1 ? "" : "s"), not \(arguments.count)")
        self = .function(function, arguments.map(Self.expression(from:)))
    }

    /// An expression for a key path on the evaluated object (`"category.name"`).
    ///
    /// - Note: Mirrors `NSExpression(forKeyPath:)`.
    public init(forKeyPath keyPath: String) { self = .keyPath(keyPath) }

    /// An expression for a Swift key path of managed-object properties
    /// (`\Transaction.amount`), as ``FetchSortDescriptor/init(keyPath:ascending:comparison:)``
    /// reads it.
    ///
    /// - Precondition: `keyPath` reads `@Attribute` and `@Relationship` properties of `Root`.
    /// - Note: Mirrors `NSExpression(forKeyPath:)` with a Swift key path.
    public init<Root: ManagedObject, Value>(forKeyPath keyPath: KeyPath<Root, Value>) {
        self = .keyPath(KeyPathProbe.dottedKey(keyPath))
    }

    /// A constant: a number, string, date, UUID, URL, data, object, object ID, `nil`, or an
    /// array or set of them (an aggregate).
    ///
    /// - Precondition: `value` is of one of those types.
    /// - Note: Mirrors `NSExpression(forConstantValue:)`.
    public init(forConstantValue value: Any?) {
        guard let expression = PredicateArgument.expression(from: value as Any) else {
            preconditionFailure(
                "ObjectGraph: FetchExpression(forConstantValue:) cannot hold a "
                    + "\(type(of: value as Any)); pass numbers, strings, dates, UUIDs, URLs, "
                    + "data, objects, object IDs, nil, or arrays and sets of them")
        }
        self = expression
    }

    /// A variable, `$name`, bound by a subquery or replaced through
    /// ``FetchPredicate/withSubstitutionVariables(_:)``.
    ///
    /// - Note: Mirrors `NSExpression(forVariable:)`.
    public init(forVariable name: String) { self = .variable(name) }

    /// A literal collection of expressions (`{a, b, c}`).
    ///
    /// - Precondition: `elements` holds `FetchExpression`s or values
    ///   ``init(forConstantValue:)`` takes.
    /// - Note: Mirrors `NSExpression(forAggregate:)`.
    public init(forAggregate elements: [Any]) {
        self = .aggregate(elements.map(Self.expression(from:)))
    }

    /// An argument as an expression: itself, or a constant.
    private static func expression(from argument: Any) -> FetchExpression {
        argument as? FetchExpression ?? FetchExpression(forConstantValue: argument)
    }
}
