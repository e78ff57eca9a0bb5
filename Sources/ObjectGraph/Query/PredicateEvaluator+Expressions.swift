import Foundation

extension PredicateEvaluator {
    mutating func value(_ node: ExpressionNode, _ record: R) -> PredicateValue<R> {
        switch node {
        case .path(let base, let steps, let collection):
            let start: PredicateValue<R>
            if case .evaluatedObject = base {
                start = .record(record)
            } else {
                start = value(base, record)
            }
            let reached = Self.walk(start, steps, from: 0)
            guard let collection else { return reached }
            return Self.collectionFunction(collection, reached)
        case .constant(let c):
            return PredicateValue(c)
        case .evaluatedObject:
            return .record(record)
        case .variable(let index):
            return index < variables.count ? variables[index] : .scalar(.null)
        case .aggregate(let elements):
            var items: [PredicateValue<R>] = []
            items.reserveCapacity(elements.count)
            for e in elements { items.append(value(e, record)) }
            return .list(items)
        case .function(let function, let arguments):
            var args: [PredicateValue<R>] = []
            args.reserveCapacity(arguments.count)
            for a in arguments { args.append(value(a, record)) }
            return Self.apply(function, args)
        case .cast(let type, let operand):
            guard case .scalar(let v) = value(operand, record) else { return .scalar(.null) }
            return .scalar(type.convert(v))
        case .subquery(let collection, let variable, let predicate, let overRecords):
            // nil is an empty collection, never a one-element one.
            let source = value(collection, record)
            if case .scalar(.null) = source { return .list([]) }
            var matches: [PredicateValue<R>] = []
            for element in source.elements {
                if variable < variables.count { variables[variable] = element }
                let matched: Bool
                if case .record(let r) = element {
                    matched = test(predicate, r)
                } else if overRecords {
                    // A nil among objects (`transactions.category` of one without a
                    // category): the condition reads the element's slots, and there are none.
                    matched = false
                } else {
                    matched = test(predicate, record)
                }
                if matched { matches.append(element) }
            }
            return .list(matches)
        case .conditional(let condition, let whenTrue, let whenFalse):
            return test(condition, record) ? value(whenTrue, record) : value(whenFalse, record)
        }
    }

    /// Follows `steps` from `start`; a collection maps the remaining steps over its elements
    /// and flattens the results (so a path through two to-manys yields one collection).
    ///
    /// A nil reached before the last step gives nil, or an empty collection when a to-many
    /// step remains: `category.transactions` of an object without a category has no elements
    /// (so `@count` is 0, `ANY` false, `ALL` true and a `SUBQUERY` over it is empty).
    static func walk(_ start: PredicateValue<R>, _ steps: [PathStep], from index: Int)
        -> PredicateValue<R>
    {
        var current = start
        var i = index
        while i < steps.count {
            switch current {
            case .record(let r):
                switch steps[i] {
                case .attribute(let slot): current = .scalar(r.attributeValue(at: slot))
                case .toOne(let slot):
                    guard let next = r.toOneRecord(at: slot) else {
                        return nilReached(before: steps, from: i + 1)
                    }
                    current = .record(next)
                case .toMany(let slot):
                    current = .list(r.toManyRecords(at: slot).map { .record($0) })
                }
                i += 1
            case .list(let items):
                var out: [PredicateValue<R>] = []
                out.reserveCapacity(items.count)
                for item in items {
                    let reached = walk(item, steps, from: i)
                    if case .list(let inner) = reached {
                        out.append(contentsOf: inner)
                    } else {
                        out.append(reached)
                    }
                }
                return .list(out)
            case .scalar, .object:
                return nilReached(before: steps, from: i)
            }
        }
        return current
    }

    /// What a path gives when it reaches nil with `steps[index...]` still to follow: an
    /// empty collection if one of them is a to-many, else nil.
    private static func nilReached(before steps: [PathStep], from index: Int)
        -> PredicateValue<R>
    {
        for step in steps[index...] {
            if case .toMany = step { return .list([]) }
        }
        return .scalar(.null)
    }

    static func apply(_ function: FetchFunction, _ args: [PredicateValue<R>]) -> PredicateValue<R> {
        switch function {
        case .count, .sum, .min, .max, .average, .median, .mode, .stddev:
            return collectionFunction(function, args.first ?? .list([]))
        case .index:
            guard args.count == 2, case .list(let items) = args[0],
                case .scalar(let i) = args[1], case .integer(let n)? = PredicateNumber(i),
                n >= 0, n < items.count
            else { return .scalar(.null) }
            return items[Int(n)]
        case .first, .last, .size:
            guard case .list(let items)? = args.first else { return .scalar(.null) }
            switch function {
            case .first: return items.first ?? .scalar(.null)
            case .last: return items.last ?? .scalar(.null)
            default: return .scalar(.integer(Int64(items.count)))
            }
        case .noIndex:
            return args.first ?? .scalar(.null)
        default:
            // Two scalars (`amount * 1.2`, `round(x, 2)`): no array of them per evaluation.
            if args.count == 2, case .scalar(let a) = args[0], case .scalar(let b) = args[1] {
                return .scalar(PredicateArithmetic.apply(function, a, b))
            }
            var scalars: [AttributeValue] = []
            scalars.reserveCapacity(args.count)
            for a in args {
                guard case .scalar(let v) = a else { return .scalar(.null) }
                scalars.append(v)
            }
            return .scalar(PredicateArithmetic.apply(function, scalars))
        }
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` and the statistics functions over `value`'s
    /// elements (a non-collection is a one-element collection; nil is an empty one).
    static func collectionFunction(_ function: FetchFunction, _ value: PredicateValue<R>)
        -> PredicateValue<R>
    {
        let elements: [PredicateValue<R>]
        if case .scalar(.null) = value { elements = [] } else { elements = value.elements }
        if function == .count { return .scalar(.integer(Int64(elements.count))) }
        var scalars: [AttributeValue] = []
        scalars.reserveCapacity(elements.count)
        for e in elements { if case .scalar(let v) = e { scalars.append(v) } }
        if function == .mode {
            return .list(PredicateStatistics.modes(scalars).map { .scalar($0) })
        }
        return .scalar(PredicateStatistics.apply(function, scalars))
    }
}
