import Foundation

/// An attribute's validation predicate, ready to test values: `SELF` is the value being
/// validated, and a few keys of the value are known, as key-value coding knows them on
/// Foundation's value classes: `length` (a string's UTF-16 length, as `NSString.length`, or
/// a byte count), `intValue`, `integerValue`, `longLongValue`, `doubleValue`, `floatValue`,
/// `boolValue` (a number as itself), `timeIntervalSinceReferenceDate` and
/// `timeIntervalSince1970` (a date's seconds).
///
/// - Note: Core Data evaluates `NSPropertyDescription.validationPredicates` with the value as
///   the evaluated object; a failing one gives error 1550 (FreeCoreData's Apple-run
///   `testValidationPredicateFailureReportsPredicateAndValue`).
struct ValidationPredicate {
    /// The predicate with `SELF` and the value's keys turned into variables.
    let testable: FetchPredicate

    /// The variables `SELF` and each known key become, in the order values are bound.
    static let variables = [
        "__self", "__length", "__number", "__referenceSeconds", "__unixSeconds",
    ]
    private static let keys: [String: String] = [
        "length": "__length", "intValue": "__number", "integerValue": "__number",
        "longLongValue": "__number", "doubleValue": "__number", "floatValue": "__number",
        "boolValue": "__number", "timeIntervalSinceReferenceDate": "__referenceSeconds",
        "timeIntervalSince1970": "__unixSeconds",
    ]

    /// Rewrites `predicate` for values.
    ///
    /// - Throws: a message naming a key path that is not one of the value's known keys.
    init(_ predicate: FetchPredicate) throws {
        testable = try predicate.mappingExpressions(Self.rewrite)
    }

    private static func rewrite(_ e: FetchExpression) throws -> FetchExpression? {
        switch e.kind {
        case .evaluatedObject: return .variable("__self")
        case .keyPath(let base, let components):
            guard case .evaluatedObject = base.kind else { return nil }
            guard components.count == 1, let variable = keys[components[0]] else {
                throw ValidationPredicateError(
                    "key path '\(components.joined(separator: "."))' is not a key of the value "
                        + "(use SELF, or one of \(keys.keys.sorted().joined(separator: ", ")))")
            }
            return .variable(variable)
        default: return nil
        }
    }

    /// The predicate compiled for evaluation (validation runs on any context's queue, so each
    /// use compiles its own).
    func compiled() throws -> CompiledPredicate {
        try testable.compile(for: ValueRecord.entity, binding: Self.variables)
    }

    /// Whether `value` (not nil) passes.
    func accepts(_ value: AttributeValue) -> Bool {
        guard let compiled = try? compiled() else { return false }
        return compiled.evaluate(ValueRecord(), variables: Self.bindings(for: value))
    }

    private static func bindings(for value: AttributeValue) -> [AttributeValue] {
        var length = AttributeValue.null
        var number = AttributeValue.null
        var reference = AttributeValue.null
        var unix = AttributeValue.null
        switch value {
        case .string(let s): length = .integer(Int64(s.utf16.count))
        case .data(let d), .transformable(let d): length = .integer(Int64(d.count))
        case .integer, .decimal, .double, .float: number = value
        case .boolean(let b): number = .integer(b ? 1 : 0)
        case .date(let d):
            reference = .double(d.timeIntervalSinceReferenceDate)
            unix = .double(d.timeIntervalSince1970)
        default: break
        }
        return [value, length, number, reference, unix]
    }
}

/// A key path a validation predicate cannot apply to a value.
struct ValidationPredicateError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// The record a validation predicate is evaluated on: nothing but the bound variables.
private struct ValueRecord: PredicateRecord {
    /// An entity with no properties, so key paths cannot reach anything but the variables.
    static let entity: EntityDescription = {
        let entity = EntityDescription(name: "ValidatedValue", properties: [])
        // Building a model links the entity; an empty one cannot fail.
        _ = try? ManagedObjectModel(entities: [entity])
        return entity
    }()

    var recordEntity: EntityDescription { Self.entity }
    var recordObjectID: ManagedObjectID { Self.objectID }
    /// Made once: the entity's model is gone, so its ID scope is not kept for it.
    private static let objectID = ManagedObjectID(
        entity: entity, storeIdentifier: "value", primaryKey: 0)
    func attributeValue(at index: Int) -> AttributeValue { .null }
    func toOneRecord(at index: Int) -> ValueRecord? { nil }
    func toManyRecords(at index: Int) -> [ValueRecord] { [] }
}

extension FetchPredicate {
    /// A copy with each expression `transform` returns a replacement for replaced (the
    /// replacement is not visited; `nil` keeps the expression and visits its parts).
    func mappingExpressions(_ transform: (FetchExpression) throws -> FetchExpression?) rethrows
        -> FetchPredicate
    {
        switch kind {
        case .truePredicate, .falsePredicate: return self
        case .and(let items): return .and(try items.map { try $0.mappingExpressions(transform) })
        case .or(let items): return .or(try items.map { try $0.mappingExpressions(transform) })
        case .not(let inner): return .not(try inner.mappingExpressions(transform))
        case .comparison(let c):
            return FetchPredicate(
                .comparison(
                    Comparison(
                        try c.left.mappingExpressions(transform), c.operatorType,
                        try c.right.mappingExpressions(transform), modifier: c.modifier,
                        options: c.options)))
        }
    }
}

extension FetchExpression {
    /// A copy with each subexpression `transform` returns a replacement for replaced.
    func mappingExpressions(_ transform: (FetchExpression) throws -> FetchExpression?) rethrows
        -> FetchExpression
    {
        if let replaced = try transform(self) { return replaced }
        switch kind {
        case .constant, .object, .objectURI, .evaluatedObject, .variable: return self
        case .keyPath(let base, let components):
            return FetchExpression(
                .keyPath(base: try base.mappingExpressions(transform), components: components))
        case .aggregate(let items):
            return .aggregate(try items.map { try $0.mappingExpressions(transform) })
        case .function(let f, let args):
            return .function(f, try args.map { try $0.mappingExpressions(transform) })
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                try collection.mappingExpressions(transform), variable: variable,
                predicate: predicate)
        case .conditional(let p, let a, let b):
            return FetchExpression(
                .conditional(
                    try p.mappingExpressions(transform), try a.mappingExpressions(transform),
                    try b.mappingExpressions(transform)))
        }
    }
}
