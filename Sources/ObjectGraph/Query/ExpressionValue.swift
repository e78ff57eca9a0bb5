import Foundation

/// The result of evaluating a ``FetchExpression`` for an object: a value, an object (by ID),
/// or a collection of results (a to-many key path, a subquery, a literal collection).
///
/// ```swift
/// let compiled = try FetchExpression(format: "amount * 1.2").compile(for: transaction)
/// let raised = compiled.value(for: record).attributeValue   // .decimal(…)
/// ```
///
/// - Note: Core Data returns these as `id` (an `NSNumber`, an `NSManagedObject`, an `NSSet`…).
public enum ExpressionValue: Sendable, Hashable {
    /// A scalar; `.null` for nil.
    case value(AttributeValue)
    /// An object, by its ID.
    case object(ManagedObjectID)
    /// Several results, in order (to-many relationships in their stored order).
    case collection([ExpressionValue])

    /// The scalar value, or `.null` for an object or a collection.
    public var attributeValue: AttributeValue {
        if case .value(let v) = self { return v }
        return .null
    }
}
