import Foundation

/// A compiled predicate: key paths resolved to slots, constants prepared, quantifiers made
/// explicit. Common shapes (`attr op constant`, through to-one and to-many relationships)
/// get their own cases so that evaluating them reads a slot and runs one test.
indirect enum PredicateNode {
    case constant(Bool)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    /// The attribute in `slot` of the current record, tested against a constant.
    case attribute(slot: Int, PredicateTest)
    /// The attribute in `slot` ordered against a number (`amount > 500`).
    case attributeNumber(slot: Int, PredicateOrderTest, PredicateFastNumber)
    /// The attribute in `slot` ordered against a date, in seconds since the reference date.
    case attributeDate(slot: Int, PredicateOrderTest, Double)
    /// The attribute in `slot` equal (or, when `equal` is false, unequal) to a string.
    case attributeString(slot: Int, equal: Bool, String)
    /// The current record itself (by object ID) tested against a constant.
    case evaluatedObject(PredicateTest)
    /// `node` evaluated on the destination of the to-one in `slot`; `ifNil` when there is
    /// none. `memo` indexes the per-fetch cache of results by destination.
    case toOne(slot: Int, node: PredicateNode, ifNil: Bool, memo: Int?)
    /// `node` quantified over the destinations of the to-many in `slot` (`ANY`, or `ALL`).
    case toMany(slot: Int, node: PredicateNode, all: Bool)
    /// Any other comparison.
    case general(GeneralComparison)
}

/// An operator decided by an order alone: `== != < <= > >=`.
enum PredicateOrderTest {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    init?(_ op: FetchPredicate.Operator) {
        switch op {
        case .equalTo: self = .equal
        case .notEqualTo: self = .notEqual
        case .lessThan: self = .less
        case .lessThanOrEqualTo: self = .lessOrEqual
        case .greaterThan: self = .greater
        case .greaterThanOrEqualTo: self = .greaterOrEqual
        default: return nil
        }
    }

    /// Whether two values in `order` satisfy the operator (unordered ones satisfy only `!=`).
    @inline(__always)
    func holds(_ order: PredicateOrder) -> Bool {
        switch self {
        case .equal: order == .same
        case .notEqual: order != .same
        case .less: order == .ascending
        case .lessOrEqual: order == .ascending || order == .same
        case .greater: order == .descending
        case .greaterOrEqual: order == .descending || order == .same
        }
    }
}

/// How the left operand of a general comparison is read.
enum PredicateQuantifier {
    /// The value itself (a collection keeps collection semantics: `CONTAINS` is membership).
    case direct
    /// At least one element (a non-collection is a one-element collection).
    case any
    /// Every element.
    case all
}

/// A comparison the fast cases do not cover.
struct GeneralComparison {
    let left: ExpressionNode
    let right: ExpressionNode
    let op: FetchPredicate.Operator
    let folding: StringFolding
    let quantifier: PredicateQuantifier
    /// The prepared test when the right side is a constant.
    let constantTest: PredicateTest?
}

/// One step of a resolved key path.
enum PathStep {
    case attribute(Int)
    case toOne(Int)
    case toMany(Int)
}

/// A compiled expression.
indirect enum ExpressionNode {
    case constant(PredicateConstant)
    case evaluatedObject
    case variable(Int)
    /// Steps applied to `base`, then an optional collection function (`@count` → `.count`).
    case path(base: ExpressionNode, steps: [PathStep], collection: FetchFunction?)
    case aggregate([ExpressionNode])
    case function(FetchFunction, [ExpressionNode])
    case cast(PredicateCast, ExpressionNode)
    /// `overRecords`: the elements are objects, and `predicate` reads their slots.
    case subquery(
        collection: ExpressionNode, variable: Int, predicate: PredicateNode, overRecords: Bool)
    case conditional(PredicateNode, ExpressionNode, ExpressionNode)
}

/// A value during evaluation: generic over the record type so nothing is boxed.
enum PredicateValue<R: PredicateRecord> {
    case scalar(AttributeValue)
    case object(ManagedObjectID)
    case record(R)
    case list([PredicateValue<R>])

    init(_ constant: PredicateConstant) {
        switch constant {
        case .value(let v): self = .scalar(v)
        case .object(let id): self = .object(id)
        case .list(let items): self = .list(items.map { PredicateValue($0) })
        }
    }

    /// The elements of a list, or the value itself as a one-element collection.
    var elements: [PredicateValue<R>] {
        if case .list(let items) = self { return items }
        return [self]
    }

    /// The value as a constant (records become their object IDs).
    var constant: PredicateConstant {
        switch self {
        case .scalar(let v): .value(v)
        case .object(let id): .object(id)
        case .record(let r): .object(r.recordObjectID)
        case .list(let items): .list(items.map(\.constant))
        }
    }

    /// The public form.
    var expressionValue: ExpressionValue {
        switch self {
        case .scalar(let v): .value(v)
        case .object(let id): .object(id)
        case .record(let r): .object(r.recordObjectID)
        case .list(let items): .collection(items.map(\.expressionValue))
        }
    }
}

/// Results remembered during one fetch: to-one sub-results by destination, and regular
/// expressions built from values. Reset whenever the record type changes, so rows of a
/// store and objects of a context never share entries.
final class PredicateCache {
    private var recordType: ObjectIdentifier?
    var memos: [[ManagedObjectID: Bool]]
    private var regexes: [String: NSRegularExpression?] = [:]

    init(memoCount: Int) {
        memos = Array(repeating: [:], count: memoCount)
    }

    /// Clears the memos when records of another type (`id` of their metatype) arrive.
    func prepare(for id: ObjectIdentifier) {
        if recordType != id {
            recordType = id
            for i in memos.indices { memos[i] = [:] }
        }
    }

    func reset() {
        recordType = nil
        for i in memos.indices { memos[i] = [:] }
        regexes = [:]
    }

    func regex(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i" : "s") + pattern
        if let cached = regexes[key] { return cached }
        if regexes.count >= 256 { regexes = [:] }
        let regex = RegularExpressionCache.wholeString(pattern, caseInsensitive: caseInsensitive)
        regexes[key] = regex
        return regex
    }
}
