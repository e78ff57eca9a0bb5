import Foundation

extension FetchExpression {
    /// Resolves the expression against `entity` once, for evaluating many records.
    ///
    /// ```swift
    /// let raise = try FetchExpression(format: "amount * 1.2").compile(for: transaction)
    /// let newAmount = raise.value(for: record).attributeValue
    /// ```
    ///
    /// - Throws: ``ObjectGraphError``, as ``FetchPredicate/compile(for:)``.
    /// - Complexity: O(size of the expression).
    public func compile(for entity: EntityDescription) throws -> CompiledExpression {
        var compiler = PredicateCompiler(entity: entity, subject: .expression(self))
        let (root, _) = try compiler.compile(self, current: .record(entity))
        return CompiledExpression(
            entity: entity, root: root, variableCount: compiler.variableCount,
            cache: PredicateCache(memoCount: compiler.memoCount))
    }
}

/// An expression resolved against one entity, ready to evaluate for records of that entity.
///
/// - Note: Confined to one thread, like ``CompiledPredicate``.
public struct CompiledExpression {
    /// The entity the expression was compiled for.
    public let entity: EntityDescription
    let root: ExpressionNode
    let variableCount: Int
    let cache: PredicateCache

    /// The expression's value for `record`: a value, an object ID, or a collection.
    ///
    /// - Precondition: `record` is of ``entity`` or one of its subentities.
    /// - Note: Mirrors `NSExpression.expressionValue(with:context:)`.
    public func value<R: PredicateRecord>(for record: R) -> ExpressionValue {
        assert(
            record.recordEntity.isKind(of: entity),
            "expression compiled for \(entity.name) evaluated on a \(record.recordEntity.name) record"
        )
        cache.prepare(for: ObjectIdentifier(R.self))
        var evaluator = PredicateEvaluator<R>(cache: cache, variableCount: variableCount)
        return evaluator.value(root, record).expressionValue
    }
}

extension CompiledExpression {
    /// The expression's value for a saved row on its own (its attributes; relationships
    /// read as `nil`), as a batch update evaluates it: the same value the store writes.
    ///
    /// Not generic, so callers in other modules get the evaluator specialized for rows
    /// (a generic call from another module runs unspecialized, several times slower).
    ///
    /// - Precondition: `row` is of ``entity`` or one of its subentities.
    package func value(forRow row: StoreRow) -> ExpressionValue {
        value(for: LoneRowRecord(row: row))
    }
}

// A compiled expression carries a per-evaluation cache and stays on its thread.
@available(*, unavailable)
extension CompiledExpression: Sendable {}
