import Foundation

/// A value the evaluator compares, before it is prepared: a scalar, an object, or a list.
/// Constants of a compiled predicate are kept in this form; runtime values are converted to
/// it only when the right side of a comparison is not a constant.
indirect enum PredicateConstant {
    case value(AttributeValue)
    case object(ManagedObjectID)
    case list([PredicateConstant])
}

/// The left side of one elementary comparison.
enum PredicateAtom {
    case value(AttributeValue)
    case object(ManagedObjectID)
}

/// The right side of a comparison, analysed once for its operator: numbers decoded, strings
/// folded, `LIKE` patterns split, regular expressions compiled, string lists hashed.
indirect enum PredicateOperand {
    case null
    case number(PredicateNumber)
    case boolean(Bool)
    /// A string, already folded by the comparison's options.
    case string(String)
    /// A date, as seconds since the reference date.
    case date(Double)
    /// A UUID, URL or bytes, compared for exact equality.
    case exact(AttributeValue)
    case object(ManagedObjectID)
    /// Elements, plus their folded strings hashed when every element is a string.
    case list([PredicateOperand], strings: Set<String>?)
    case like(LikePattern)
    case regex(NSRegularExpression)
    /// An operand the operator cannot use (a bad pattern, BETWEEN without two bounds):
    /// every comparison with it is false.
    case unusable

    /// Prepares `constant` as the right operand of `op` with `folding`.
    static func prepare(
        _ constant: PredicateConstant, for op: FetchPredicate.Operator,
        folding: StringFolding
    ) -> PredicateOperand {
        switch op {
        case .like:
            guard case .value(.string(let s)) = constant else { return .unusable }
            return .like(LikePattern(folding.fold(s)))
        case .matches:
            guard case .value(.string(let s)) = constant,
                let regex = RegularExpressionCache.wholeString(
                    s, caseInsensitive: folding.caseInsensitive)
            else { return .unusable }
            return .regex(regex)
        case .between:
            guard case .list(let bounds) = constant, bounds.count == 2 else { return .unusable }
            return .list(bounds.map { plain($0, folding: folding) }, strings: nil)
        default:
            return plain(constant, folding: folding)
        }
    }

    private static func plain(_ constant: PredicateConstant, folding: StringFolding)
        -> PredicateOperand
    {
        switch constant {
        case .object(let id): return .object(id)
        case .list(let elements):
            let prepared = elements.map { plain($0, folding: folding) }
            var strings: Set<String>?
            if prepared.count > 3 {
                var set = Set<String>()
                for element in prepared {
                    guard case .string(let s) = element else {
                        set = []
                        break
                    }
                    set.insert(s)
                }
                if !set.isEmpty { strings = set }
            }
            return .list(prepared, strings: strings)
        case .value(let value):
            switch value {
            case .null: return .null
            case .boolean(let b): return .boolean(b)
            case .string(let s): return .string(folding.fold(s))
            case .date(let d): return .date(d.timeIntervalSinceReferenceDate)
            case .integer, .decimal, .double, .float:
                return PredicateNumber(value).map { .number($0) } ?? .unusable
            case .uuid, .uri, .data, .transformable: return .exact(value)
            }
        }
    }
}
