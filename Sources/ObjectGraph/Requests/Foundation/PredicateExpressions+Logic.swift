import Foundation

// Constants, variables, logic and comparisons of Foundation predicates, translated.

extension PredicateExpressions.Value: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        guard let constant = FetchExpression.constant(swiftValue: value) else {
            throw PredicateTranslator.failure(
                "a captured \(type(of: value)) value has no counterpart")
        }
        return .expression(constant)
    }
}

extension PredicateExpressions.NilLiteral: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        .expression(.constant(.null))
    }
}

extension PredicateExpressions.Variable: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        .expression(try translator.value(of: key))
    }
}

extension PredicateExpressions.Conjunction: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        // `a && b && c` arrives as `(a && b) && c`: kept as one AND of three.
        let parts = [try translator.predicate(lhs), try translator.predicate(rhs)]
        return .predicate(
            .and(parts.flatMap { if case .and(let inner) = $0.kind { inner } else { [$0] } }))
    }
}

extension PredicateExpressions.Disjunction: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let parts = [try translator.predicate(lhs), try translator.predicate(rhs)]
        return .predicate(
            .or(parts.flatMap { if case .or(let inner) = $0.kind { inner } else { [$0] } }))
    }
}

extension PredicateExpressions.Negation: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        .predicate(.not(try translator.predicate(wrapped)))
    }
}

extension PredicateExpressions.Equal: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        .predicate(
            try equality(translator.translate(lhs), translator.translate(rhs), source: self))
    }
}

extension PredicateExpressions.NotEqual: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let left = try translator.translate(lhs)
        let right = try translator.translate(rhs)
        if case .expression(let l) = left, case .expression(let r) = right {
            return .predicate(.comparison(l, .notEqualTo, r))
        }
        return .predicate(.not(try equality(left, right, source: self)))
    }
}

/// `left == right`, keeping conditions as conditions where one side is a constant Boolean
/// or `nil` (`$0.note?.contains("x") == true` becomes `note != nil AND note CONTAINS "x"`).
private func equality<E>(_ left: TranslatedPredicate, _ right: TranslatedPredicate, source: E)
    throws -> FetchPredicate
{
    for (side, other) in [(left, right), (right, left)] {
        switch (side, other.constantBoolean, other.isNil) {
        case (.predicate(let p), let b?, _):
            return b ? p : .not(p)
        case (.optionalCondition(let present, let condition), let b?, _):
            return .and([present, b ? condition : .not(condition)])
        case (.optionalCondition(let present, _), nil, true):
            return .not(present)
        default:
            continue
        }
    }
    return .comparison(left.expression, .equalTo, right.expression)
}

extension PredicateExpressions.Comparison: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let operatorType: FetchPredicate.Operator =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqualTo
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqualTo
            }
        return .predicate(
            .comparison(
                try translator.expression(lhs), operatorType, try translator.expression(rhs)))
    }
}

extension PredicateExpressions.Conditional: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let condition = try translator.predicate(test)
        let whenTrue = try translator.translate(trueBranch)
        let whenFalse = try translator.translate(falseBranch)
        if case .predicate(let a) = whenTrue, case .predicate(let b) = whenFalse {
            return .predicate(.or([.and([condition, a]), .and([.not(condition), b])]))
        }
        return .expression(
            FetchExpression(.conditional(condition, whenTrue.expression, whenFalse.expression)))
    }
}

extension PredicateExpressions.NilCoalesce: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let value = try translator.translate(lhs)
        let fallback = try translator.translate(rhs)
        if case .optionalCondition(let present, let condition) = value {
            if let b = fallback.constantBoolean {
                return .predicate(
                    b ? .or([.not(present), condition]) : .and([present, condition]))
            }
            if case .predicate(let other) = fallback {
                return .predicate(
                    .or([.and([present, condition]), .and([.not(present), other])]))
            }
        }
        let v = value.expression
        return .expression(
            FetchExpression(
                .conditional(
                    .comparison(v, .notEqualTo, .constant(.null)), v, fallback.expression)))
    }
}

extension FetchExpression {
    /// The constant for a value captured by a Foundation predicate: any
    /// ``AttributeConvertible`` value (your own enums too), object IDs, and sequences of
    /// those; else what format arguments accept. `nil` for anything else.
    static func constant(swiftValue: Any) -> FetchExpression? {
        guard let value = PredicateArgument.unwrap(swiftValue) else { return .constant(.null) }
        if let convertible = value as? any AttributeConvertible {
            return .constant(convertible.attributeValue)
        }
        if let id = value as? ManagedObjectID { return .object(id) }
        if !(value is String), let sequence = value as? any Sequence {
            var elements: [FetchExpression] = []
            for element in sequence {
                guard let e = constant(swiftValue: element) else { return nil }
                elements.append(e)
            }
            if value is any SetAlgebra { elements.sort { $0.description < $1.description } }
            return .aggregate(elements)
        }
        return PredicateArgument.expression(from: value)
    }
}
