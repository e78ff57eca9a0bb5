import Foundation

// Collections, strings, ranges and arithmetic of Foundation predicates, translated.

extension PredicateExpressions.SequenceContains: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let collection = try translator.expression(sequence)
        let member = try translator.expression(element)
        if case .aggregate = collection.kind {
            return .predicate(.comparison(member, .in, collection))
        }
        return .predicate(.comparison(collection, .contains, member))
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let matches = try subquery(translator, sequence, variable.key, test, source: self)
        return .predicate(.comparison(matches, .greaterThan, .constant(.integer(0))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let failures = try subquery(
            translator, sequence, variable.key, test, negated: true, source: self)
        return .predicate(.comparison(failures, .equalTo, .constant(.integer(0))))
    }
}

extension PredicateExpressions.Filter: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let collection = try translator.expression(sequence)
        guard collection.isRelationshipCollection else {
            throw PredicateTranslator.unsupported(self)
        }
        let name = translator.newVariableName()
        let condition = try translator.binding(variable.key, to: .variable(name)).predicate(filter)
        return .expression(.subquery(collection, variable: name, predicate: condition))
    }
}

/// `SUBQUERY(sequence, $v, test).@count` (with `NOT test` when `negated`).
private func subquery<S: PredicateExpression, T: PredicateExpression, E>(
    _ translator: PredicateTranslator, _ sequence: S, _ variable: PredicateExpressions.VariableID,
    _ test: T, negated: Bool = false, source: E
) throws -> FetchExpression {
    let collection = try translator.expression(sequence)
    guard collection.isRelationshipCollection else { throw PredicateTranslator.unsupported(source) }
    let name = translator.newVariableName()
    let condition = try translator.binding(variable, to: .variable(name)).predicate(test)
    let matches = FetchExpression.subquery(
        collection, variable: name, predicate: negated ? .not(condition) : condition)
    return FetchExpression(.keyPath(base: matches, components: ["@count"]))
}

extension PredicateExpressions.CollectionContainsCollection: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        try stringTest(translator, base, .contains, other, source: self)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        try stringTest(translator, base, .beginsWith, prefix, source: self)
    }
}

/// `string OP other` for a string test (`contains`, `starts(with:)`); other collections have
/// no counterpart (Core Data's `CONTAINS` on a collection tests membership, not a run).
private func stringTest<S: PredicateExpression, O: PredicateExpression, E>(
    _ translator: PredicateTranslator, _ string: S, _ operatorType: FetchPredicate.Operator,
    _ other: O, source: E
) throws -> TranslatedPredicate {
    guard S.Output.self is any StringProtocol.Type else {
        throw PredicateTranslator.unsupported(source)
    }
    return .predicate(
        .comparison(
            try translator.expression(string), operatorType, try translator.expression(other)))
}

// MARK: Ranges

/// A range expression whose bounds translate.
protocol TranslatableRange {
    /// The bounds, and whether the upper one is included.
    func bounds(with translator: PredicateTranslator) throws -> (
        lower: FetchExpression, upper: FetchExpression, closed: Bool
    )?
}

extension PredicateExpressions.Range: TranslatableRange {
    func bounds(with translator: PredicateTranslator) throws -> (
        lower: FetchExpression, upper: FetchExpression, closed: Bool
    )? {
        (try translator.expression(lower), try translator.expression(upper), false)
    }
}

extension PredicateExpressions.ClosedRange: TranslatableRange {
    func bounds(with translator: PredicateTranslator) throws -> (
        lower: FetchExpression, upper: FetchExpression, closed: Bool
    )? {
        (try translator.expression(lower), try translator.expression(upper), true)
    }
}

extension PredicateExpressions.Value: TranslatableRange {
    func bounds(with translator: PredicateTranslator) throws -> (
        lower: FetchExpression, upper: FetchExpression, closed: Bool
    )? {
        guard let range = value as? any RangeBounds,
            let lower = FetchExpression.constant(swiftValue: range.lowerBoundValue),
            let upper = FetchExpression.constant(swiftValue: range.upperBoundValue)
        else { return nil }
        return (lower, upper, range.includesUpperBound)
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        guard let bounds = try (range as? any TranslatableRange)?.bounds(with: translator) else {
            throw PredicateTranslator.unsupported(range)
        }
        let value = try translator.expression(element)
        if bounds.closed {
            return .predicate(
                .comparison(value, .between, .aggregate([bounds.lower, bounds.upper])))
        }
        return .predicate(
            .and([
                .comparison(value, .greaterThanOrEqualTo, bounds.lower),
                .comparison(value, .lessThan, bounds.upper),
            ]))
    }
}

/// A captured range's bounds, as values.
protocol RangeBounds {
    var lowerBoundValue: Any { get }
    var upperBoundValue: Any { get }
    var includesUpperBound: Bool { get }
}

extension Range: RangeBounds {
    var lowerBoundValue: Any { lowerBound }
    var upperBoundValue: Any { upperBound }
    var includesUpperBound: Bool { false }
}

extension ClosedRange: RangeBounds {
    var lowerBoundValue: Any { lowerBound }
    var upperBoundValue: Any { upperBound }
    var includesUpperBound: Bool { true }
}

// MARK: Arithmetic

extension PredicateExpressions.Arithmetic: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let function: FetchFunction =
            switch op {
            case .add: .add
            case .subtract: .subtract
            case .multiply: .multiply
            }
        return .expression(
            .function(function, [try translator.expression(lhs), try translator.expression(rhs)]))
    }
}

extension PredicateExpressions.FloatDivision: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        .expression(
            .function(.divide, [try translator.expression(lhs), try translator.expression(rhs)]))
    }
}

extension PredicateExpressions.IntRemainder: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        .expression(
            .function(.modulus, [try translator.expression(lhs), try translator.expression(rhs)]))
    }
}

extension PredicateExpressions.UnaryMinus: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let value = try translator.expression(wrapped)
        if case .constant(let number) = value.kind, let negated = number.negated {
            return .expression(.constant(negated))
        }
        return .expression(.function(.negate, [value]))
    }
}

extension FetchExpression {
    /// Whether this names objects a subquery can range over: a key path (a to-many) or
    /// another subquery.
    var isRelationshipCollection: Bool {
        switch kind {
        case .keyPath(_, let components): components.last?.hasPrefix("@") != true
        case .subquery: true
        default: false
        }
    }
}

extension AttributeValue {
    /// The negative of a number (`nil` for other values, or when it overflows).
    fileprivate var negated: AttributeValue? {
        switch self {
        case .integer(let v): v == .min ? nil : .integer(-v)
        case .decimal(let v): .decimal(-v)
        case .double(let v): .double(-v)
        case .float(let v): .float(-v)
        default: nil
        }
    }
}
