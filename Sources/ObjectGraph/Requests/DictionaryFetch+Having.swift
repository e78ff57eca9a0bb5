import Foundation

/// The having-predicate of a grouped dictionary fetch, under Core Data's rule.
///
/// Core Data names a group's computed values in a having-predicate as variables: `$total`
/// is the value of the expression description named `total` (built with
/// `NSExpression(forVariable:)`, which Core Data turns into the SQL alias: Fatbobman, "Count
/// Queries in Core Data: The Master Guide", https://fatbobman.com/en/posts/countincoredata,
/// section 12, whose SQL log reads `HAVING __var0 > ?`). A bare `total` is a key path of the entity and an
/// aggregate written as a function (`count:(name) > 1`) is refused: FreeCoreData's
/// Apple-run `testGroupByWithHavingPredicate` observed both raise on macOS ("keypath
/// headcount not found in entity Employee", "Unsupported function expression count:(name)").
/// Key paths of the entity are read from the group's first row, as SQL reads a column in
/// `HAVING`.
extension DictionaryFetch {
    static func compileHaving(
        _ having: FetchPredicate, columns: [Column], grouped: Bool, _ entity: EntityDescription
    ) throws -> (predicate: CompiledPredicate, names: [String]) {
        guard grouped else { throw DictionaryFetchErrors.havingWithoutGroupBy(entity: entity) }
        var names: [String] = []
        for column in columns {
            switch column {
            case .expression(let d, _), .aggregate(let d, _, _): names.append(d.name)
            default: continue
            }
        }
        try having.forEachExpression { expression in
            switch expression.kind {
            case .function(let f, _) where aggregateFunctions.contains(f):
                throw DictionaryFetchErrors.havingFunction(expression, entity: entity)
            case .keyPath(let base, let components):
                guard case .evaluatedObject = base.kind, let first = components.first,
                    entity.propertiesByName[first] == nil, names.contains(first)
                else { return }
                throw DictionaryFetchErrors.havingAlias(first, entity: entity)
            default:
                return
            }
        }
        return (try having.compile(for: entity, binding: names), names)
    }
}

extension FetchPredicate {
    /// Calls `body` on every expression of the predicate, subexpressions included.
    func forEachExpression(_ body: (FetchExpression) throws -> Void) rethrows {
        switch kind {
        case .truePredicate, .falsePredicate: return
        case .and(let items), .or(let items):
            for item in items { try item.forEachExpression(body) }
        case .not(let inner): try inner.forEachExpression(body)
        case .comparison(let c):
            try c.left.forEachExpression(body)
            try c.right.forEachExpression(body)
        }
    }
}

extension FetchExpression {
    /// Calls `body` on this expression and every subexpression, predicates inside included.
    func forEachExpression(_ body: (FetchExpression) throws -> Void) rethrows {
        try body(self)
        switch kind {
        case .constant, .object, .objectURI, .evaluatedObject, .variable: return
        case .keyPath(let base, _): try base.forEachExpression(body)
        case .aggregate(let items), .function(_, let items):
            for item in items { try item.forEachExpression(body) }
        case .subquery(let collection, _, let predicate):
            try collection.forEachExpression(body)
            try predicate.forEachExpression(body)
        case .conditional(let predicate, let a, let b):
            try predicate.forEachExpression(body)
            try a.forEachExpression(body)
            try b.forEachExpression(body)
        }
    }
}
