import Foundation

/// Walks a Foundation `Predicate`'s expression tree (`PredicateExpressions.*`) and builds the
/// ``FetchPredicate`` that means the same, so a store can filter by it.
///
/// Every supported expression type conforms to ``TranslatablePredicateExpression``; anything
/// else (or a key path that is not a wrapped property) throws, naming the expression. The
/// supported set is listed in the PredicateLanguage article, "Foundation predicates".
struct PredicateTranslator {
    /// What each closure variable in scope stands for: the root is `SELF`, a
    /// `contains(where:)` element a subquery variable, an optional-chaining value its path.
    private var bindings: [PredicateExpressions.VariableID: FetchExpression]
    /// Hands out subquery variable names, shared by copies of the translator.
    private let names: Counter

    private final class Counter {
        var next = 0
    }

    /// A translator whose root variable is `root` (bound to `SELF`).
    init(root: PredicateExpressions.VariableID) {
        bindings = [root: .evaluatedObject]
        names = Counter()
    }

    /// The translation of `expression`.
    func translate<E: PredicateExpression>(_ expression: E) throws -> TranslatedPredicate {
        guard let translatable = expression as? any TranslatablePredicateExpression else {
            throw Self.unsupported(expression)
        }
        return try translatable.translate(with: self)
    }

    /// `expression` as a predicate: a Boolean value `v` becomes `v == YES`.
    func predicate<E: PredicateExpression>(_ expression: E) throws -> FetchPredicate {
        try translate(expression).predicate(for: expression)
    }

    /// `expression` as a value: a predicate `p` becomes `TERNARY(p, YES, NO)`.
    func expression<E: PredicateExpression>(_ expression: E) throws -> FetchExpression {
        try translate(expression).expression
    }

    /// The expression `variable` stands for.
    func value(of variable: PredicateExpressions.VariableID) throws -> FetchExpression {
        guard let bound = bindings[variable] else {
            throw Self.failure("a closure variable that is not in scope")
        }
        return bound
    }

    /// A copy in which `variable` stands for `value`.
    func binding(_ variable: PredicateExpressions.VariableID, to value: FetchExpression)
        -> PredicateTranslator
    {
        var copy = self
        copy.bindings[variable] = value
        return copy
    }

    /// A fresh subquery variable name (`v1`, `v2`, …).
    func newVariableName() -> String {
        names.next += 1
        return "v\(names.next)"
    }

    // MARK: Errors

    /// The error for an expression type the predicate language has no counterpart for.
    static func unsupported<E>(_ expression: E) -> ObjectGraphError {
        failure("PredicateExpressions.\(shortName(of: E.self)) has no counterpart")
    }

    /// The error for a key path that is not a chain of `@Attribute`/`@Relationship` properties.
    static func unsupportedKeyPath(_ keyPath: AnyKeyPath) -> ObjectGraphError {
        failure(
            "the key path \(keyPath) is not an @Attribute or @Relationship property (or a "
                + "to-one chain of them, or objectID)")
    }

    /// A translation error: code 134060, saying what to do instead.
    static func failure(_ what: String) -> ObjectGraphError {
        ObjectGraphError(
            .predicateInvalid,
            "Foundation predicate: \(what) in the predicate language; give the predicate to "
                + "FetchRequest.swiftPredicate, which is evaluated in memory")
    }

    /// `Comparison<KeyPath<…>, Value<Int>>` → `Comparison`.
    static func shortName(of type: Any.Type) -> String {
        let name = String(describing: type)
        return String(name.prefix { $0 != "<" })
    }
}

/// A translated expression: a predicate, a value, or an optional-chained predicate.
enum TranslatedPredicate {
    /// A Boolean condition.
    case predicate(FetchPredicate)
    /// A value (which may be a Boolean attribute).
    case expression(FetchExpression)
    /// A `Bool?` from optional chaining into a condition (`$0.note?.contains("x")`):
    /// `nil` unless `present` holds, else `condition`.
    case optionalCondition(present: FetchPredicate, condition: FetchPredicate)

    /// As a predicate (`v == YES` for a value).
    func predicate<E>(for source: E) throws -> FetchPredicate {
        switch self {
        case .predicate(let p): return p
        case .expression(let e):
            if case .constant(.boolean(let b)) = e.kind {
                return b ? .truePredicate : .falsePredicate
            }
            return .comparison(e, .equalTo, .constant(.boolean(true)))
        case .optionalCondition:
            throw PredicateTranslator.unsupported(source)
        }
    }

    /// As a value (`TERNARY(p, YES, NO)` for a predicate; `nil` for an absent optional).
    var expression: FetchExpression {
        switch self {
        case .expression(let e): return e
        case .predicate(let p): return Self.boolean(p)
        case .optionalCondition(let present, let condition):
            return FetchExpression(.conditional(present, Self.boolean(condition), .constant(.null)))
        }
    }

    /// The constant Boolean this is, if it is one.
    var constantBoolean: Bool? {
        if case .expression(let e) = self, case .constant(.boolean(let b)) = e.kind { return b }
        return nil
    }

    /// Whether this is the constant `nil`.
    var isNil: Bool {
        if case .expression(let e) = self, case .constant(.null) = e.kind { return true }
        return false
    }

    private static func boolean(_ p: FetchPredicate) -> FetchExpression {
        FetchExpression(.conditional(p, .constant(.boolean(true)), .constant(.boolean(false))))
    }
}

/// A `PredicateExpressions` type the translator knows.
protocol TranslatablePredicateExpression {
    /// The translation, with `translator` giving the variables in scope.
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate
}

extension FetchExpression {
    /// This expression followed by `keys` (`category` + `name` → `category.name`); `nil`
    /// when it is not something a key path can start from.
    func appendingKeys(_ keys: [String]) -> FetchExpression? {
        if keys.isEmpty { return self }
        switch kind {
        case .keyPath(let base, let components):
            if endsWithCollectionOperator { return nil }
            return FetchExpression(.keyPath(base: base, components: components + keys))
        case .evaluatedObject, .variable, .subquery:
            return FetchExpression(.keyPath(base: self, components: keys))
        default:
            return nil
        }
    }

    /// Whether this is a key path ending in a collection operator (`books.@count`).
    var endsWithCollectionOperator: Bool {
        if case .keyPath(_, let components) = kind {
            return components.last?.hasPrefix("@") == true
        }
        return false
    }

    /// Whether this expression is `base` or a key path continuing it.
    func continues(_ base: FetchExpression) -> Bool {
        if self == base { return true }
        guard case .keyPath(let root, let components) = kind else { return false }
        if root == base { return true }
        if case .keyPath(let baseRoot, let baseComponents) = base.kind {
            return root == baseRoot && components.starts(with: baseComponents)
        }
        return false
    }
}
