import Foundation

extension FetchPredicate {
    /// Converts a Foundation predicate into the predicate language, or returns `nil` when
    /// some part of it has no counterpart there.
    ///
    /// The converted predicate is data like any other, so the store filters by it while
    /// scanning (and ``description`` shows what it became). What converts: `&&`, `||`, `!`;
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`; `@Attribute` and `@Relationship` properties, to-one
    /// chains through `?.`, `objectID`, and `count`/`isEmpty` of to-many relationships;
    /// captured values (numbers, strings, dates, UUIDs, URLs, data, `ManagedObjectID`s, your
    /// own ``AttributeConvertible`` types, and arrays and sets of them); `nil`, `??` and
    /// `? :`; `+`, `-`, `*`, `/` (floating point), `%` and unary minus; `contains(_:)` on a
    /// string, a captured collection or a to-many; `starts(with:)` on a string;
    /// `contains(where:)`, `allSatisfy(_:)` and `filter(_:)` on a to-many; and
    /// `range.contains(_:)`. Anything else (a computed property, `!` force-unwrapping,
    /// integer `/`, `String.count`, casts, regexes) does not: use
    /// `FetchRequest.swiftPredicate` for it, which is evaluated in memory after the fetch.
    ///
    /// ```swift
    /// let request = FetchRequest<Transaction>(entityName: "Transaction")
    /// request.predicate = FetchPredicate(#Predicate<Transaction> {
    ///     $0.amount > 10 && $0.category?.name == "Food"
    /// })   // amount > 10 AND category.name == "Food"
    /// ```
    ///
    /// Comparisons then follow the predicate language, as Core Data's follow SQL: a nil
    /// attribute read through a non-optional Swift property (which reads as `0`, `""` or
    /// `false` in Swift) is nil to the store.
    ///
    /// Key paths are recognised by reading them once on a detached object of their root
    /// class (no context, no entity): keep the getters of computed properties you use in
    /// predicates free of side effects, or use ``init(translating:)`` to see why one is
    /// refused.
    ///
    /// - Complexity: O(n) in the size of the predicate's expression tree.
    /// - Note: Mirrors `NSPredicate.init?(_ predicate: Predicate<Input>)` (iOS 17, macOS 14).
    public init?<Root: ManagedObject>(_ predicate: Predicate<Root>) {
        guard let translated = try? FetchPredicate(translating: predicate) else { return nil }
        self = translated
    }

    /// Converts a Foundation predicate into the predicate language, throwing when some part
    /// has no counterpart there.
    ///
    /// Converts what `FetchPredicate(_:)` converts; use it to learn which part of a
    /// predicate cannot be filtered by the store.
    ///
    /// - Throws: ``ObjectGraphError`` `.coreData` (134060) naming the expression
    ///   (`PredicateExpressions.ForcedUnwrap`) or key path that does not convert.
    /// - Complexity: O(n) in the size of the predicate's expression tree.
    public init<Root: ManagedObject>(translating predicate: Predicate<Root>) throws {
        let root: PredicateExpressions.Variable<Root> = predicate.variable
        self = try PredicateTranslator(root: root.key).predicate(predicate.expression)
    }
}
