import Foundation

/// Runs compiled predicates and expressions over records of one type. Specialised for each
/// record type, so slot reads are direct calls.
struct PredicateEvaluator<R: PredicateRecord> {
    let cache: PredicateCache
    /// Values of `SUBQUERY` variables, by compile-time index.
    var variables: [PredicateValue<R>]

    init(cache: PredicateCache, variableCount: Int) {
        self.cache = cache
        self.variables =
            variableCount == 0 ? [] : Array(repeating: .scalar(.null), count: variableCount)
    }

    mutating func test(_ node: PredicateNode, _ record: R) -> Bool {
        switch node {
        case .attributeNumber(let slot, let op, let constant):
            return op.holds(constant.order(of: record.attributeValue(at: slot)))
        case .attributeString(let slot, let equal, let string):
            guard case .string(let value) = record.attributeValue(at: slot) else { return !equal }
            return (value == string) == equal
        case .attributeDate(let slot, let op, let t):
            guard case .date(let d) = record.attributeValue(at: slot) else {
                return op.holds(.unordered)
            }
            return op.holds(PredicateNumber.order(d.timeIntervalSinceReferenceDate, t))
        case .attribute(let slot, let test):
            return test.test(record.attributeValue(at: slot))
        case .toOne(let slot, let inner, let ifNil, let memo):
            guard let memo else {
                guard let target = record.toOneRecord(at: slot) else { return ifNil }
                return test(inner, target)
            }
            guard let id = record.toOneObjectID(at: slot) else { return ifNil }
            if let known = cache.memos[memo][id] { return known }
            guard let target = record.toOneRecord(at: slot) else { return ifNil }
            let result = test(inner, target)
            cache.memos[memo][id] = result
            return result
        case .and(let nodes):
            for n in nodes where !test(n, record) { return false }
            return true
        case .or(let nodes):
            for n in nodes where test(n, record) { return true }
            return false
        case .not(let inner):
            return !test(inner, record)
        case .constant(let value):
            return value
        case .evaluatedObject(let test):
            return test.test(.object(record.recordObjectID))
        case .toMany(let slot, let inner, let all):
            let targets = record.toManyRecords(at: slot)
            if all {
                for t in targets where !test(inner, t) { return false }
                return true
            }
            for t in targets where test(inner, t) { return true }
            return false
        case .general(let comparison):
            return general(comparison, record)
        }
    }

    private mutating func general(_ c: GeneralComparison, _ record: R) -> Bool {
        let left = value(c.left, record)
        let test: PredicateTest
        if let constant = c.constantTest {
            test = constant
        } else {
            test = dynamicTest(c, right: value(c.right, record))
        }
        switch c.quantifier {
        case .direct: return Self.directTest(left, test)
        case .any: return left.elements.contains { Self.directTest($0, test) }
        case .all: return left.elements.allSatisfy { Self.directTest($0, test) }
        }
    }

    private func dynamicTest(_ c: GeneralComparison, right: PredicateValue<R>) -> PredicateTest {
        if c.op == .matches, case .scalar(.string(let pattern)) = right {
            let regex = cache.regex(pattern, caseInsensitive: c.folding.caseInsensitive)
            return PredicateTest(.matches, c.folding, regex.map { .regex($0) } ?? .unusable)
        }
        return PredicateTest(c.op, c.folding, constant: right.constant)
    }

    /// One comparison of a whole value: scalars and objects directly; a collection is
    /// searched by `CONTAINS` and compared element-wise by `==` and `!=`.
    private static func directTest(_ left: PredicateValue<R>, _ test: PredicateTest) -> Bool {
        switch left {
        case .scalar(let v): return test.test(.value(v))
        case .record(let r): return test.test(.object(r.recordObjectID))
        case .object(let id): return test.test(.object(id))
        case .list(let items):
            switch test.op {
            case .contains: return items.contains { equals($0, test.operand, test) }
            case .equalTo, .notEqualTo:
                var same = false
                if case .list(let others, _) = test.operand, others.count == items.count {
                    same = zip(items, others).allSatisfy { equals($0, $1, test) }
                }
                return test.op == .equalTo ? same : !same
            default: return false
            }
        }
    }

    private static func equals(
        _ value: PredicateValue<R>, _ operand: PredicateOperand, _ test: PredicateTest
    ) -> Bool {
        switch value {
        case .scalar(let v): return test.equals(.value(v), operand)
        case .record(let r): return test.equals(.object(r.recordObjectID), operand)
        case .object(let id): return test.equals(.object(id), operand)
        case .list: return false
        }
    }
}
