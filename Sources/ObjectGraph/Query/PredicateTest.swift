import Foundation

/// One elementary comparison, ready to run: an operator, string folding and a prepared
/// right operand. The semantics of every operator live here.
///
/// - `nil` equals only `nil`; every ordered comparison with `nil` is false; `!=` is the
///   negation of `==` (so `nil != "x"` is true).
/// - Numbers compare by value across integer, decimal, double and float; Booleans count as
///   0 and 1 against numbers.
/// - Strings compare after folding (`[c]`, `[d]`); dates by instant; UUIDs, URLs and bytes
///   only for equality; objects by object ID. Values of unrelated types are unequal and
///   unordered.
///
/// A class, so that evaluating a compiled node reads the test in place instead of copying it.
final class PredicateTest {
    let op: FetchPredicate.Operator
    let folding: StringFolding
    let operand: PredicateOperand
    /// A shortcut for the commonest shapes, decided once.
    let fast: PredicateFastTest

    init(_ op: FetchPredicate.Operator, _ folding: StringFolding, _ operand: PredicateOperand) {
        self.op = op
        self.folding = folding
        self.operand = operand
        self.fast = PredicateFastTest(op, folding, operand)
    }

    convenience init(
        _ op: FetchPredicate.Operator, _ folding: StringFolding, constant: PredicateConstant
    ) {
        self.init(op, folding, PredicateOperand.prepare(constant, for: op, folding: folding))
    }

    /// Whether an attribute value passes; takes the shortcut when there is one.
    func test(_ value: AttributeValue) -> Bool {
        switch fast {
        case .none: return test(.value(value))
        case .number(let constant): return decide(constant.order(of: value))
        case .date(let t):
            guard case .date(let d) = value else { return decide(.unordered) }
            return decide(PredicateNumber.order(d.timeIntervalSinceReferenceDate, t))
        case .string(let s):
            guard case .string(let v) = value else { return op == .notEqualTo }
            return (v == s) == (op == .equalTo)
        }
    }

    /// The result of an order-based operator (`== != < <= > >=`) for a known order.
    @inline(__always)
    private func decide(_ order: PredicateOrder) -> Bool {
        switch op {
        case .equalTo: order == .same
        case .notEqualTo: order != .same
        case .lessThan: order == .ascending
        case .lessThanOrEqualTo: order == .ascending || order == .same
        case .greaterThan: order == .descending
        case .greaterThanOrEqualTo: order == .descending || order == .same
        default: false
        }
    }

    func test(_ lhs: PredicateAtom) -> Bool {
        switch op {
        case .equalTo: return equals(lhs, operand)
        case .notEqualTo: return !equals(lhs, operand)
        case .lessThan: return order(lhs, operand) == .ascending
        case .lessThanOrEqualTo:
            let o = order(lhs, operand)
            return o == .ascending || o == .same
        case .greaterThan: return order(lhs, operand) == .descending
        case .greaterThanOrEqualTo:
            let o = order(lhs, operand)
            return o == .descending || o == .same
        case .between:
            guard case .list(let bounds, _) = operand, bounds.count == 2 else { return false }
            let low = order(lhs, bounds[0])
            let high = order(lhs, bounds[1])
            return (low == .descending || low == .same) && (high == .ascending || high == .same)
        case .in: return isIn(lhs)
        case .contains, .beginsWith, .endsWith:
            guard case .value(.string(let s)) = lhs, case .string(let needle) = operand else {
                return false
            }
            let folded = folding.fold(s)
            switch op {
            case .beginsWith: return folded.hasPrefix(needle)
            case .endsWith: return folded.hasSuffix(needle)
            default: return Self.contains(folded, needle)
            }
        case .like:
            guard case .value(.string(let s)) = lhs, case .like(let pattern) = operand else {
                return false
            }
            return pattern.matches(folding.fold(s))
        case .matches:
            guard case .value(.string(let s)) = lhs, case .regex(let regex) = operand else {
                return false
            }
            let subject =
                folding.diacriticInsensitive
                ? s.folding(options: .diacriticInsensitive, locale: nil) : s
            return RegularExpressionCache.matches(regex, subject)
        }
    }

    /// Whether `needle` occurs in `haystack`; the empty string occurs in every string.
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        needle.isEmpty || haystack.firstRange(of: needle) != nil
    }

    private func isIn(_ lhs: PredicateAtom) -> Bool {
        switch operand {
        case .list(let elements, let strings):
            if let strings {
                guard case .value(.string(let s)) = lhs else { return false }
                return strings.contains(folding.fold(s))
            }
            return elements.contains { equals(lhs, $0) }
        case .string(let haystack):
            guard case .value(.string(let s)) = lhs else { return false }
            return Self.contains(haystack, folding.fold(s))
        case .null, .unusable, .like, .regex:
            return false
        default:
            return equals(lhs, operand)
        }
    }

    func equals(_ lhs: PredicateAtom, _ rhs: PredicateOperand) -> Bool {
        let value: AttributeValue
        switch lhs {
        case .object(let a):
            guard case .object(let b) = rhs else { return false }
            return a == b
        case .value(let v): value = v
        }
        switch rhs {
        case .null: return value.isNull
        case .number(let n):
            guard let m = PredicateNumber(value) else { return false }
            return PredicateNumber.compare(m, n) == .same
        case .boolean(let b):
            if case .boolean(let a) = value { return a == b }
            guard let m = PredicateNumber(value) else { return false }
            return PredicateNumber.compare(m, .integer(b ? 1 : 0)) == .same
        case .string(let t):
            guard case .string(let s) = value else { return false }
            return folding.foldedEquals(s, t)
        case .date(let t):
            guard case .date(let d) = value else { return false }
            return d.timeIntervalSinceReferenceDate == t
        case .exact(let w): return value == w
        default: return false
        }
    }

    func order(_ lhs: PredicateAtom, _ rhs: PredicateOperand) -> PredicateOrder {
        guard case .value(let v) = lhs else { return .unordered }
        switch rhs {
        case .number(let n):
            return PredicateNumber(v).map { PredicateNumber.compare($0, n) } ?? .unordered
        case .boolean(let b):
            return PredicateNumber(v).map { PredicateNumber.compare($0, .integer(b ? 1 : 0)) }
                ?? .unordered
        case .string(let t):
            guard case .string(let s) = v else { return .unordered }
            let f = folding.fold(s)
            return f < t ? .ascending : f == t ? .same : .descending
        case .date(let t):
            guard case .date(let d) = v else { return .unordered }
            return PredicateNumber.order(d.timeIntervalSinceReferenceDate, t)
        default:
            return .unordered
        }
    }
}
