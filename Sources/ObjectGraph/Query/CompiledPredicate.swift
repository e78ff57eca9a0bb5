import Foundation

extension FetchPredicate {
    /// Resolves the predicate against `entity` once, for evaluating many records.
    ///
    /// Key paths become property slots (through to-one and to-many relationships), constants
    /// are prepared (numbers decoded, strings folded, patterns compiled) and `SUBQUERY`
    /// variables are bound. Compile once per fetch, not once per row.
    ///
    /// ```swift
    /// let compiled = try predicate.compile(for: model[entityName: "Transaction"]!)
    /// let matches = rows.filter { compiled.evaluate($0) }
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` (134060) naming the entity and key:
    ///   ``ObjectGraphError/Reason/predicateUnknownKey`` when a key path names no property;
    ///   ``ObjectGraphError/Reason/predicateInvalid`` when it applies a key to a value or
    ///   misuses a collection operator, a `$VARIABLE` was not substituted, or an object URI or
    ///   `CAST` cannot be resolved; ``ObjectGraphError/Reason/predicateTooDeep``.
    /// - Complexity: O(size of the predicate).
    /// - Note: Core Data does this when it translates a fetch request for its store.
    public func compile(for entity: EntityDescription) throws -> CompiledPredicate {
        var compiler = PredicateCompiler(entity: entity, subject: .predicate(self))
        let root = try compiler.compile(self, current: .record(entity))
        return CompiledPredicate(
            entity: entity, root: root, variableCount: compiler.variableCount,
            cache: PredicateCache(memoCount: compiler.memoCount))
    }

    /// Resolves the predicate against `entity` with `$NAME` for each of `variables` left to
    /// be given at each evaluation (``CompiledPredicate/evaluate(_:variables:)``), in order.
    ///
    /// Having-predicates name a group's aggregates this way, validation predicates the value
    /// being checked.
    ///
    /// - Throws: as ``compile(for:)``.
    func compile(for entity: EntityDescription, binding variables: [String]) throws
        -> CompiledPredicate
    {
        var compiler = PredicateCompiler(entity: entity, subject: .predicate(self))
        for (index, name) in variables.enumerated() {
            compiler.scopes.append(.init(name: name, index: index, shape: .scalar))
        }
        compiler.variableCount = variables.count
        let root = try compiler.compile(self, current: .record(entity))
        return CompiledPredicate(
            entity: entity, root: root, variableCount: compiler.variableCount,
            cache: PredicateCache(memoCount: compiler.memoCount))
    }
}

/// A predicate resolved against one entity, ready to evaluate records of that entity (and of
/// its subentities).
///
/// Evaluation is generic over the record type, so it runs specialised code with no boxing.
/// While it runs, a compiled predicate remembers sub-results per related object (for
/// example `category.name ==[c] 'food'` is computed once per category, not once per
/// transaction), so it assumes records do not change while it is in use: compile a fresh one
/// for each fetch, or call ``resetCaches()`` after changing records.
///
/// - Note: Confined to one thread: a compiled predicate serves one fetch on one queue and is
///   not `Sendable`. Share the ``FetchPredicate`` (which is) and compile it where it runs.
public struct CompiledPredicate {
    /// The entity the predicate was compiled for.
    public let entity: EntityDescription
    let root: PredicateNode
    let variableCount: Int
    let cache: PredicateCache

    /// Whether `record` matches.
    ///
    /// - Precondition: `record` is of ``entity`` or one of its subentities (slots are those of
    ///   ``entity``).
    /// - Complexity: O(size of the predicate) for plain comparisons; key paths through to-many
    ///   relationships and subqueries visit the related records.
    public func evaluate<R: PredicateRecord>(_ record: R) -> Bool {
        assert(
            record.recordEntity.isKind(of: entity),
            "predicate compiled for \(entity.name) evaluated on a \(record.recordEntity.name) record"
        )
        cache.prepare(for: ObjectIdentifier(R.self))
        var evaluator = PredicateEvaluator<R>(cache: cache, variableCount: variableCount)
        return evaluator.test(root, record)
    }

    /// Whether `record` matches with the variables bound by
    /// ``FetchPredicate/compile(for:binding:)`` set to `variables`, in the same order.
    func evaluate<R: PredicateRecord>(_ record: R, variables: [AttributeValue]) -> Bool {
        cache.prepare(for: ObjectIdentifier(R.self))
        var evaluator = PredicateEvaluator<R>(cache: cache, variableCount: variableCount)
        for (index, value) in variables.enumerated() where index < variableCount {
            evaluator.variables[index] = .scalar(value)
        }
        return evaluator.test(root, record)
    }

    /// Forgets the sub-results remembered so far (call it after records changed).
    public func resetCaches() {
        cache.reset()
    }
}

// A compiled predicate carries a per-fetch cache and stays on the thread that compiled it.
@available(*, unavailable)
extension CompiledPredicate: Sendable {}
