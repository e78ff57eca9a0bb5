import Foundation

extension FetchPredicate {
    /// Parses a predicate format string, taking `%@`, `%K`, `%d`, `%f`… from `arguments`.
    ///
    /// ```swift
    /// try FetchPredicate(format: "amount > %@ AND category.name ==[c] %@", 10, "food")
    /// try FetchPredicate(format: "%K BEGINSWITH 'Gro'", "name")
    /// ```
    ///
    /// Arguments are converted now (objects to their IDs, sets to sorted collections), so the
    /// predicate holds only values. A placeholder inside quotes is literal text (`'%@'`).
    /// Swift spreads an array literal of mixed element types (an `[Any]`) into separate
    /// variadic arguments; pass such an array with `argumentArray:` or as `[a, b] as Any`.
    ///
    /// - Throws: ``ObjectGraphError`` (134060): ``ObjectGraphError/Reason/predicateSyntax``
    ///   when the string does not parse, ``ObjectGraphError/Reason/predicateArgument`` when an
    ///   argument is missing or of an unusable type (extra arguments are ignored, as by Core
    ///   Data); the message quotes the string with a caret at the 1-based
    ///   ``ObjectGraphError/column``, which is also set.
    /// - Complexity: O(length of the string).
    /// - Note: Mirrors `NSPredicate(format:_:)`.
    public init(format: String, _ arguments: Any...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a predicate format string, taking its arguments from an array.
    ///
    /// - Throws: ``ObjectGraphError``, as ``init(format:_:)``.
    /// - Note: Mirrors `NSPredicate(format:argumentArray:)`.
    public init(format: String, argumentArray: [Any]) throws {
        var parser = try PredicateParser(format: format, arguments: argumentArray)
        self = try parser.parseWholePredicate()
    }

    /// A copy with each `$NAME` replaced by the constant in `variables[NAME]`.
    ///
    /// Variables bound by a `SUBQUERY` are left alone inside it, and so are variables
    /// missing from the dictionary (compiling a predicate that still has one throws).
    ///
    /// ```swift
    /// let template = try FetchPredicate(format: "amount > $MIN")
    /// let p = try template.withSubstitutionVariables(["MIN": 100])
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` ``ObjectGraphError/Reason/predicateVariableValue``
    ///   (134060) when a value's type cannot be held
    ///   by a predicate (the accepted types are those of format arguments).
    /// - Note: Mirrors `NSPredicate.withSubstitutionVariables(_:)`.
    public func withSubstitutionVariables(_ variables: [String: Any]) throws -> FetchPredicate {
        try substituting(PredicateArgument.substitutions(variables), bound: [])
    }

    func substituting(_ values: [String: FetchExpression], bound: Set<String>) -> FetchPredicate {
        switch kind {
        case .truePredicate, .falsePredicate: return self
        case .and(let items):
            return FetchPredicate(.and(items.map { $0.substituting(values, bound: bound) }))
        case .or(let items):
            return FetchPredicate(.or(items.map { $0.substituting(values, bound: bound) }))
        case .not(let inner): return FetchPredicate(.not(inner.substituting(values, bound: bound)))
        case .comparison(let c):
            return FetchPredicate(
                .comparison(
                    Comparison(
                        c.left.substituting(values, bound: bound), c.operatorType,
                        c.right.substituting(values, bound: bound),
                        modifier: c.modifier, options: c.options)))
        }
    }
}

extension FetchExpression {
    /// A copy with each `$NAME` replaced by the constant in `variables[NAME]`, as
    /// ``FetchPredicate/withSubstitutionVariables(_:)``.
    ///
    /// - Throws: ``ObjectGraphError`` ``ObjectGraphError/Reason/predicateVariableValue``
    ///   (134060) for a value of an unusable type.
    public func withSubstitutionVariables(_ variables: [String: Any]) throws -> FetchExpression {
        try substituting(PredicateArgument.substitutions(variables), bound: [])
    }

    func substituting(_ values: [String: FetchExpression], bound: Set<String>) -> FetchExpression {
        switch kind {
        case .constant, .object, .objectURI, .evaluatedObject: return self
        case .variable(let name):
            guard !bound.contains(name), let value = values[name] else { return self }
            return value
        case .keyPath(let base, let components):
            let substituted = base.substituting(values, bound: bound)
            if case .keyPath(let innerBase, let innerComponents) = substituted.kind {
                return FetchExpression(
                    .keyPath(base: innerBase, components: innerComponents + components))
            }
            return FetchExpression(.keyPath(base: substituted, components: components))
        case .aggregate(let items):
            return .aggregate(items.map { $0.substituting(values, bound: bound) })
        case .function(let f, let args):
            return .function(f, args.map { $0.substituting(values, bound: bound) })
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection.substituting(values, bound: bound), variable: variable,
                predicate: predicate.substituting(values, bound: bound.union([variable])))
        case .conditional(let p, let a, let b):
            return FetchExpression(
                .conditional(
                    p.substituting(values, bound: bound),
                    a.substituting(values, bound: bound),
                    b.substituting(values, bound: bound)))
        }
    }
}

extension PredicateArgument {
    /// Substitution variables' values as constant expressions.
    ///
    /// - Throws: ``ObjectGraphError`` ``ObjectGraphError/Reason/predicateVariableValue``
    ///   (134060) for a value of an unusable type.
    static func substitutions(_ variables: [String: Any]) throws -> [String: FetchExpression] {
        var converted: [String: FetchExpression] = [:]
        for (name, value) in variables {
            guard let e = expression(from: value) else {
                throw PredicateErrors.variableValue(name, value: value)
            }
            converted[name] = e
        }
        return converted
    }
}
