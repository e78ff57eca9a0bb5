import Foundation

/// A batch update's expression made once into a plan over a row's values: constants, the
/// row's own attributes, the scalar functions of the predicate language and casts become a
/// tree of closures, and `attribute ⊕ number` on a double attribute reads and computes the
/// double directly. What the plan cannot express (collections, relationships, subqueries,
/// conditionals, variables) is evaluated by the general evaluator, on the whole expression.
///
/// Every path gives the value the general evaluator (``CompiledExpression/value(forRow:)``)
/// gives, bit for bit: the closures call the same arithmetic (`PredicateArithmetic`) on the
/// same operands, and the double fast path is that arithmetic's double branch, taken only
/// when the operand is a double (any other value goes through `PredicateArithmetic`).
///
/// LedgerKit's `adjust` computes the amounts it reports with the plan of the request's own
/// expression, so they are the values the store wrote.
///
/// - Note: Confined to one thread, like the ``CompiledExpression`` it falls back on.
package struct RowExpression {
    private enum Plan {
        /// A closure tree.
        case tree((StoreRow) -> AttributeValue)
        /// The general evaluator, for a shape the tree does not cover.
        case general(CompiledExpression)
    }

    private let plan: Plan
    /// The compiled expression's tree: what the file store's batch line records, when it can
    /// (``BatchLine``).
    let node: ExpressionNode

    /// The plan for `expression`: a closure tree when every node has one, else the general
    /// evaluator.
    package init(_ expression: CompiledExpression) {
        node = expression.root
        if let tree = Self.scalar(expression.root) {
            plan = .tree(tree)
        } else {
            plan = .general(expression)
        }
    }

    /// Whether the expression runs as a closure tree (for tests).
    var isSpecialized: Bool {
        if case .tree = plan { return true }
        return false
    }

    /// The expression's value for `row`, as ``CompiledExpression/value(forRow:)`` gives it
    /// (its ``ExpressionValue/attributeValue``).
    @inline(__always)
    package func value(for row: StoreRow) -> AttributeValue {
        switch plan {
        case .tree(let f): f(row)
        case .general(let e): e.value(forRow: row).attributeValue
        }
    }

    /// A closure giving `node`'s scalar value on a row, or `nil` when `node` may give a
    /// non-scalar (an object, a collection) or needs more than the row's own attributes.
    private static func scalar(_ node: ExpressionNode) -> ((StoreRow) -> AttributeValue)? {
        switch node {
        case .constant(.value(let v)):
            return { _ in v }
        case .path(base: .evaluatedObject, let steps, collection: nil):
            guard steps.count == 1, case .attribute(let slot) = steps[0] else { return nil }
            return { row in row.values[slot].attributeValue }
        case .cast(let type, let operand):
            guard let operand = scalar(operand) else { return nil }
            return { row in type.convert(operand(row)) }
        case .function(let function, let arguments):
            return self.function(function, arguments)
        default:
            return nil
        }
    }

    private static func function(_ function: FetchFunction, _ arguments: [ExpressionNode])
        -> ((StoreRow) -> AttributeValue)?
    {
        if function == .round, arguments.count == 2,
            let fused = decimalRounding(arguments[0], arguments[1])
        {
            return fused
        }
        switch function {
        case .noIndex:
            guard arguments.count == 1 else { return nil }
            return scalar(arguments[0])
        case .add, .subtract, .multiply, .divide, .modulus, .power, .round, .bitwiseAnd,
            .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            guard arguments.count == 2 else { return nil }
            if let fast = doubleArithmetic(function, arguments[0], arguments[1]) { return fast }
            guard let a = scalar(arguments[0]), let b = scalar(arguments[1]) else { return nil }
            return { row in PredicateArithmetic.apply(function, a(row), b(row)) }
        case .negate, .abs, .sqrt, .floor, .ceiling, .trunc, .exp, .ln, .log, .lowercase,
            .uppercase, .onesComplement:
            guard arguments.count == 1, let a = scalar(arguments[0]) else { return nil }
            return { row in PredicateArithmetic.apply(function, a(row)) }
        default:
            // Collections (`sum`, `count`, …), indexing, `now` and casts have their own
            // evaluation: left to the general evaluator.
            return nil
        }
    }

    /// Whether `node` is `round(attribute ⊕ decimal, places)`, planned as one step on the
    /// decimal's storage (for tests).
    static func roundsDecimalsInOneStep(_ node: ExpressionNode) -> Bool {
        guard case .function(.round, let arguments) = node, arguments.count == 2 else {
            return false
        }
        return decimalRounding(arguments[0], arguments[1]) != nil
    }

    /// `round(attribute ⊕ decimal, places)` or `round(decimal ⊕ attribute, places)` (⊕ one of
    /// `+ - *`, the decimal and the places constants; `ledger adjust`'s
    /// `round(amount * 1.01, 2)`): when the row's value is a decimal and the exact result
    /// and its rounding fit in 64 bits, computed in one step on the storage
    /// (``DecimalArithmetic/roundedExact(_:_:_:places:)``), which gives the bytes the two
    /// steps give; anything else (another value, a wide significand, an exponent out of
    /// range, a decimal `round` would leave to Foundation) is the two steps themselves.
    private static func decimalRounding(_ operation: ExpressionNode, _ scale: ExpressionNode)
        -> ((StoreRow) -> AttributeValue)?
    {
        guard DecimalLayout.isKnown, case .constant(.value(.integer(let s))) = scale,
            case .function(let function, let operands) = operation,
            [.add, .subtract, .multiply].contains(function), operands.count == 2
        else { return nil }
        let slot: Int
        let constant: DecimalArithmetic.Parts64
        let attributeFirst: Bool
        switch (operands[0], operands[1]) {
        case (
            .path(base: .evaluatedObject, let steps, collection: nil),
            .constant(.value(.decimal(let c)))
        ):
            guard steps.count == 1, case .attribute(let a) = steps[0],
                let parts = DecimalLayout.parts64(c)
            else { return nil }
            (slot, constant, attributeFirst) = (a, parts, true)
        case (
            .constant(.value(.decimal(let c))),
            .path(base: .evaluatedObject, let steps, collection: nil)
        ):
            guard steps.count == 1, case .attribute(let a) = steps[0],
                let parts = DecimalLayout.parts64(c)
            else { return nil }
            (slot, constant, attributeFirst) = (a, parts, false)
        default:
            return nil
        }
        // The two steps, as `function` plans them without this shortcut.
        guard let first = scalar(operation), let places = scalar(scale) else { return nil }
        let general = { (row: StoreRow) in
            PredicateArithmetic.apply(.round, first(row), places(row))
        }
        // `round` clamps its places to ±400 (beyond them no decimal changes, or all become 0).
        let clamped = Int(Swift.max(-400, Swift.min(400, s)))
        return { row in
            guard case .attribute(.decimal(let v)) = row.values[slot],
                let x = DecimalLayout.parts64(v),
                let result =
                    attributeFirst
                    ? DecimalArithmetic.roundedExact(function, x, constant, places: clamped)
                    : DecimalArithmetic.roundedExact(function, constant, x, places: clamped)
            else { return general(row) }
            return .decimal(result)
        }
    }

    /// `attribute ⊕ number` or `number ⊕ attribute` (⊕ one of `+ - * /`, the number a
    /// constant): when the row's value is a double, the double arithmetic
    /// `PredicateArithmetic` does for a double operand (the constant widened to a double
    /// once, as it widens it on every call), else that arithmetic itself.
    private static func doubleArithmetic(
        _ function: FetchFunction, _ left: ExpressionNode, _ right: ExpressionNode
    ) -> ((StoreRow) -> AttributeValue)? {
        guard [.add, .subtract, .multiply, .divide].contains(function) else { return nil }
        let slot: Int
        let constant: AttributeValue
        let attributeFirst: Bool
        switch (left, right) {
        case (.path(base: .evaluatedObject, let steps, collection: nil), .constant(.value(let c))):
            guard steps.count == 1, case .attribute(let s) = steps[0] else { return nil }
            (slot, constant, attributeFirst) = (s, c, true)
        case (.constant(.value(let c)), .path(base: .evaluatedObject, let steps, collection: nil)):
            guard steps.count == 1, case .attribute(let s) = steps[0] else { return nil }
            (slot, constant, attributeFirst) = (s, c, false)
        default:
            return nil
        }
        // A date constant has its own rules (a date plus seconds); not a number, not here.
        guard let number = PredicateNumber(constant) else { return nil }
        let c = number.doubleValue
        @inline(__always) func general(_ v: AttributeValue) -> AttributeValue {
            attributeFirst
                ? PredicateArithmetic.apply(function, v, constant)
                : PredicateArithmetic.apply(function, constant, v)
        }
        @inline(__always) func finite(_ r: Double) -> AttributeValue {
            r.isFinite ? .double(r) : .null
        }
        switch (function, attributeFirst) {
        case (.add, _):
            return { row in
                guard case .attribute(.double(let x)) = row.values[slot] else {
                    return general(row.values[slot].attributeValue)
                }
                return finite(attributeFirst ? x + c : c + x)
            }
        case (.subtract, true):
            return { row in
                guard case .attribute(.double(let x)) = row.values[slot] else {
                    return general(row.values[slot].attributeValue)
                }
                return finite(x - c)
            }
        case (.subtract, false):
            return { row in
                guard case .attribute(.double(let x)) = row.values[slot] else {
                    return general(row.values[slot].attributeValue)
                }
                return finite(c - x)
            }
        case (.multiply, _):
            return { row in
                guard case .attribute(.double(let x)) = row.values[slot] else {
                    return general(row.values[slot].attributeValue)
                }
                return finite(attributeFirst ? x * c : c * x)
            }
        case (.divide, true):
            return { row in
                guard case .attribute(.double(let x)) = row.values[slot] else {
                    return general(row.values[slot].attributeValue)
                }
                return c == 0 ? .null : finite(x / c)
            }
        default:  // (.divide, false)
            return { row in
                guard case .attribute(.double(let x)) = row.values[slot] else {
                    return general(row.values[slot].attributeValue)
                }
                return x == 0 ? .null : finite(c / x)
            }
        }
    }
}
