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
struct PredicateTest {
    let op: FetchPredicate.Operator
    let folding: StringFolding
    let operand: PredicateOperand

    init(_ op: FetchPredicate.Operator, _ folding: StringFolding, _ operand: PredicateOperand) {
        self.op = op
        self.folding = folding
        self.operand = operand
    }

    init(_ op: FetchPredicate.Operator, _ folding: StringFolding, constant: PredicateConstant) {
        self.init(op, folding, PredicateOperand.prepare(constant, for: op, folding: folding))
    }

    @inline(__always)
    func test(_ value: AttributeValue) -> Bool { test(.value(value)) }

    func test(_ lhs: PredicateAtom) -> Bool {
        switch op {
        case .equalTo: return equals(lhs, operand)
        case .notEqualTo: return !equals(lhs, operand)
        case .lessThan: return order(lhs, operand) == .orderedAscending
        case .lessThanOrEqualTo:
            let o = order(lhs, operand)
            return o == .orderedAscending || o == .orderedSame
        case .greaterThan: return order(lhs, operand) == .orderedDescending
        case .greaterThanOrEqualTo:
            let o = order(lhs, operand)
            return o == .orderedDescending || o == .orderedSame
        case .between:
            guard case .list(let bounds, _) = operand, bounds.count == 2 else { return false }
            let low = order(lhs, bounds[0]), high = order(lhs, bounds[1])
            return (low == .orderedDescending || low == .orderedSame)
                && (high == .orderedAscending || high == .orderedSame)
        case .in: return isIn(lhs)
        case .contains, .beginsWith, .endsWith:
            guard case .value(.string(let s)) = lhs, case .string(let needle) = operand else { return false }
            let folded = folding.fold(s)
            switch op {
            case .beginsWith: return folded.hasPrefix(needle)
            case .endsWith: return folded.hasSuffix(needle)
            default: return Self.contains(folded, needle)
            }
        case .like:
            guard case .value(.string(let s)) = lhs, case .like(let pattern) = operand else { return false }
            return pattern.matches(folding.fold(s))
        case .matches:
            guard case .value(.string(let s)) = lhs, case .regex(let regex) = operand else { return false }
            let subject = folding.diacriticInsensitive
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
        switch (lhs, rhs) {
        case (.value(.null), .null): return true
        case (_, .null), (.value(.null), _): return false
        case (.object(let a), .object(let b)): return a == b
        case (.value(let v), .number(let n)):
            guard let m = PredicateNumber(v) else { return false }
            return PredicateNumber.compare(m, n) == .orderedSame
        case (.value(.boolean(let a)), .boolean(let b)): return a == b
        case (.value(let v), .boolean(let b)):
            guard let m = PredicateNumber(v) else { return false }
            return PredicateNumber.compare(m, .integer(b ? 1 : 0)) == .orderedSame
        case (.value(.string(let s)), .string(let t)): return folding.foldedEquals(s, t)
        case (.value(.date(let d)), .date(let t)): return d.timeIntervalSinceReferenceDate == t
        case (.value(let v), .exact(let w)): return v == w
        default: return false
        }
    }

    func order(_ lhs: PredicateAtom, _ rhs: PredicateOperand) -> ComparisonResult? {
        guard case .value(let v) = lhs else { return nil }
        switch (v, rhs) {
        case (_, .number(let n)):
            return PredicateNumber(v).flatMap { PredicateNumber.compare($0, n) }
        case (_, .boolean(let b)):
            return PredicateNumber(v).flatMap { PredicateNumber.compare($0, .integer(b ? 1 : 0)) }
        case (.string(let s), .string(let t)):
            let f = folding.fold(s)
            return f < t ? .orderedAscending : f == t ? .orderedSame : .orderedDescending
        case (.date(let d), .date(let t)):
            return PredicateNumber.order(d.timeIntervalSinceReferenceDate, t)
        default:
            return nil
        }
    }
}
